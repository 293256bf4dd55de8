/**
 * A private `redis-server` for a test: started on a free port with no persistence, stopped by the test (in `after`).
 * `freeze` sends it SIGSTOP — the socket stays open and nothing answers, as a Redis that hangs — and `thaw` SIGCONT.
 * `npm test` needs no Redis started beforehand, only the binary (apt-get install redis-server).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

const MISSING =
  'redis-server is not installed: the Redis tests start their own (apt-get install redis-server, or brew install redis).';

/** `args`: more of redis-server's options, such as `['--maxmemory', '8mb']`. */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      ...args,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error(MISSING) : error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += String(chunk)));
  });
  child.removeAllListeners('exit');
  child.stdout!.resume();
  let stopped: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT'); // a frozen server cannot act on SIGTERM
        child.kill('SIGKILL');
      })),
  };
}

/** A port no one listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
