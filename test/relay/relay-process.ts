/**
 * The relay as a merchant runs it: `src/relay/bin.ts` in a process of its own, configured by the environment, on a
 * Node that has node:sqlite (the one running the tests). It can be killed with a real signal and started again on the
 * same port and the same key store.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../src/sandbox/server.js';
import { freePort } from './redis-server.js';
import { CREDENTIALS, SHOP, waitFor } from './harness.js';

/** The relay `npm run build` makes: the package's `billing-pay-relay` bin. */
export const BUILT_RELAY = fileURLToPath(new URL('../../dist/relay/server.js', import.meta.url));

export interface RelayProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  /** Sends `signal` and resolves with the exit code once it has exited. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** A fresh file for a relay's key store, in a new folder under `parent` (the system's temporary folder). */
export function storeFile(parent = tmpdir()): string {
  return join(mkdtempSync(join(parent, 'billing-pay-relay-')), 'keys.db');
}

/**
 * Starts a relay process and resolves once it listens; `env` is its whole environment (besides PATH and PORT). From
 * its source, or `built`: the bundle `npm run build` makes (`npm run relay`), without tsx's compiler in its memory.
 * `cwd`: where it starts (and reads `.env`), the built relay only. `fileSizeLimitable`: started with SIGXFSZ ignored,
 * so a write past a file size limit (`prlimit --fsize`) fails as on a full disk rather than killing it.
 */
export async function spawnRelay(
  env: Record<string, string>,
  port?: number,
  {
    built = false,
    cwd,
    fileSizeLimitable = false,
  }: { built?: boolean; cwd?: string; fileSizeLimitable?: boolean } = {},
): Promise<RelayProcess> {
  port ??= await freePort();
  let output = '';
  const entry = built ? [BUILT_RELAY] : ['--import', 'tsx', 'src/relay/bin.ts'];
  // An ignored signal stays ignored across exec (Node's spawn resets only handled ones).
  const [command, args] = fileSizeLimitable
    ? ['/bin/sh', ['-c', `trap '' XFSZ; exec "$@"`, 'sh', process.execPath, ...entry]]
    : [process.execPath, entry];
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = `http://127.0.0.1:${port}`;
  let listening = false;
  const poll = setInterval(() => {
    fetch(`${url}/healthz`).then(
      (res) => (listening ||= res.ok),
      () => {},
    );
  }, 50);
  try {
    await Promise.race([
      waitFor(() => listening, 20_000),
      exited.then((code) => Promise.reject(new Error(`the relay exited (${code}) before it listened:\n${output}`))),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearInterval(poll);
  }
  return {
    url,
    port,
    child,
    output: () => output,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The environment of a relay process paying against `sandbox` for the shop: its credentials, limits and the duplicate
 * window out of the way of many payments, quiet logs; `env` over it.
 */
export function sandboxRelayEnv(sandbox: Sandbox, env: Record<string, string> = {}): Record<string, string> {
  return {
    ...sandbox.relayEnv(),
    BILLING_USERNAME: CREDENTIALS.username,
    BILLING_PASSWORD: CREDENTIALS.password,
    ALLOWED_ORIGINS: SHOP,
    RATE_LIMIT_IP: '100000/60',
    RATE_LIMIT_AGREEMENT: '100000/60',
    DUPLICATE_WINDOW_SECONDS: '0',
    LOG_LEVEL: 'fatal',
    ...env,
  };
}

/** Sets a relay's soft file size limit (bytes, or `unlimited`): past it a write fails as on a full disk. */
export function limitFileSize(relay: RelayProcess, limit: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(relay.child.pid), `--fsize=${limit}:`]);
}
