/**
 * The bench's servers, each in a child process (`bench/child.ts`), talked to over IPC. Every child started here is
 * remembered and stopped by `stopAll()`, and a child exits by itself when the bench goes away.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ChildRequest = { id: number; type: 'counts' | 'memory' | 'cpu' };
export type ChildReply =
  | { id: number; counts: { auth: number; epsPayments: number } }
  | { id: number; memory: { rss: number; heapUsed: number } }
  | { id: number; cpu: number };

export interface Child {
  url: string;
  /** The relay's metrics listener (relay only: its environment sets `METRICS_PORT`). */
  metricsUrl?: string;
  /** `GET /auth` and `POST /eps_payments` the sandbox has seen so far (sandbox only). */
  counts(): Promise<{ auth: number; epsPayments: number }>;
  /** Resident set and used heap, in bytes, right after a full garbage collection. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  /** CPU time (user and system) the process has used so far, in microseconds. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const started = new Set<ChildProcess>();

/**
 * Starts `bench/child.ts <role>` with only the given environment (and PATH), so nothing of the caller's environment
 * (a REDIS_URL, say) changes what is measured. Its stdout goes to /dev/null: the relay's logs cost what writing them
 * costs, and nobody reads them. `nodeOptions` go to node (`--cpu-prof`, to see where a child's time goes).
 */
export function startChild(
  role: 'sandbox' | 'relay' | 'bare-proxy' | 'hono-proxy',
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<Child> {
  const child = fork(CHILD, [role], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', '--expose-gc', ...nodeOptions],
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));

  let nextId = 0;
  const waiting = new Map<number, (reply: ChildReply) => void>();
  const ask = (type: ChildRequest['type']) =>
    new Promise<ChildReply>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      child.send({ id, type } satisfies ChildRequest);
    });

  return new Promise((resolve, reject) => {
    const failed = (code: number | null) =>
      reject(new Error(`the ${role} process exited (${code}) before it was ready`));
    child.once('exit', failed);
    child.on('message', (message: { type?: string; url?: string; metricsUrl?: string } & Partial<ChildReply>) => {
      if (message.type === 'ready') {
        child.off('exit', failed);
        resolve({
          url: message.url!,
          ...(message.metricsUrl && { metricsUrl: message.metricsUrl }),
          counts: async () => {
            const reply = await ask('counts');
            if (!('counts' in reply)) throw new Error('no counts');
            return reply.counts;
          },
          memory: async () => {
            const reply = await ask('memory');
            if (!('memory' in reply)) throw new Error('no memory');
            return reply.memory;
          },
          cpu: async () => {
            const reply = await ask('cpu');
            if (!('cpu' in reply)) throw new Error('no cpu');
            return reply.cpu;
          },
          stop: () => stop(child),
        });
      } else if (message.id !== undefined) {
        waiting.get(message.id)?.(message as ChildReply);
        waiting.delete(message.id);
      }
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Stops every child this process started and that still runs. */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map(stop));
}
