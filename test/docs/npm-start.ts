/**
 * The stack `npm start` runs — scripts/start.ts as a process of its own (the build already made): the sandbox, the
 * relay wired to it and the demo page — on free ports, and the rewrite that gives the docs' default addresses
 * (http://localhost:8790, :8787, :8080) this run's ports, as start.ts does for its demo pages.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { demoPorts } from '../../scripts/ports.js';
import { freePort } from '../relay/redis-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface NpmStart {
  sandbox: string;
  relay: string;
  demo: string;
  /** `text` with the default addresses replaced by this run's. */
  rewrite(text: string): string;
  output(): string;
  stop(): Promise<void>;
}

/** `npm start` on free ports; `env` is more of its environment (`ALLOWED_ORIGINS`, as the README says to add one). */
export async function npmStart(env: Record<string, string> = {}, timeoutMs = 30_000): Promise<NpmStart> {
  const defaults = demoPorts({});
  const ports = await Promise.all(defaults.map(() => freePort()));
  const portEnv = Object.fromEntries(defaults.map((d, i) => [d.variable, String(ports[i])]));
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...portEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit');
  const [sandbox, relay, demo] = ports.map((port) => `http://localhost:${port}`) as [string, string, string];
  const up = async () => {
    const until = Date.now() + timeoutMs;
    while (!output.includes('billing-pay demo is running')) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
      if (Date.now() > until) throw new Error(`npm start did not start in ${timeoutMs} ms:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The demo server is the last to listen: the message may come just before it does.
    for (;;) {
      if ((await fetch(`${demo}/`).catch(() => null))?.ok) return;
      if (Date.now() > until) throw new Error(`the demo page does not answer:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await up();
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    sandbox,
    relay,
    demo,
    rewrite: (text) =>
      defaults.reduce(
        (t, d, i) => t.replaceAll(`http://localhost:${d.port}`, `http://localhost:${ports[i]}`),
        text,
      ),
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
