/**
 * The built relay (`dist/relay/server.js`, the `billing-pay-relay` bin) on a Node it does not support — the machine's
 * own Node 20, where there is one — says so in one line and exits 1, before it reads any configuration or loads
 * anything that needs a newer Node.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSupportedNode } from '../../src/relay/config/node-version.js';
import { BUILT_RELAY } from './relay-process.js';

/** An old Node on this machine: the system's (`/usr/bin/node`, Node 20 on Debian 13), when it is one. */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (path) => existsSync(path) && !isSupportedNode(execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()),
);
const skip = !existsSync(BUILT_RELAY) ? 'run npm run build first' : !OLD_NODE && 'no Node older than 22.13 here';

describe('the built relay on an unsupported Node', () => {
  for (const args of [[], ['--help'], ['init']]) {
    it(`refuses in one line, exit code 1 (${args.join(' ') || 'no argument'})`, { skip }, () => {
      // An empty folder and environment: the config problems it would name otherwise are all there to name.
      const cwd = mkdtempSync(join(tmpdir(), 'billing-pay-old-node-'));
      const run = spawnSync(OLD_NODE!, [BUILT_RELAY, ...args], { cwd, env: {}, encoding: 'utf8' });
      const version = execFileSync(OLD_NODE!, ['--version'], { encoding: 'utf8' }).trim();
      assert.equal(run.stderr, `billing-pay-relay needs Node 22.13 or later; this is Node ${version}.\n`);
      assert.equal(run.stdout, '');
      assert.equal(run.status, 1);
      assert.ok(!existsSync(join(cwd, '.env')), 'init wrote nothing');
    });
  }
});
