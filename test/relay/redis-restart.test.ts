/**
 * A Redis that dies between a claim and its payment: a relay process on a real redis-server with AOF (fsync always)
 * takes twenty claims, whose payments wait for the billing's token; the server is killed (SIGKILL) before any of them
 * is marked sending, so none is sent and none can be released; it is started again on the same files. Each key is
 * in flight until its lease ends, then a retry pays it — once. The billing is the sandbox, which counts each key.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { longestAuthorizedCallMs } from '../../src/relay/billing/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, billedTimes, numberedPayment, postPayment, waitFor } from './harness.js';
import { freePort } from './redis-server.js';
import { sandboxRelayEnv, spawnRelay, type RelayProcess } from './relay-process.js';

const BILLING_TIMEOUT_MS = 1_000;
const LEASE_MS = longestAuthorizedCallMs(BILLING_TIMEOUT_MS) + 5_000;
const KEYS = 20;

/** A redis-server that keeps every write on disk before it answers, so a restart finds what it acknowledged. */
async function durableRedis(port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  const child = spawn('redis-server', [...args, '--appendonly', 'yes', '--appendfsync', 'always'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += String(chunk)));
  await waitFor(() => /Ready to accept connections/.test(output), 10_000);
  return child;
}

const pay = (relay: string, key: string, n: number) => postPayment(relay, numberedPayment(n), key);

describe('a Redis killed between claims and their payments (SIGKILL, restarted with AOF)', () => {
  let sandbox: Sandbox;
  let relay: RelayProcess;
  let redis: ChildProcess;
  let port: number;
  const dir = mkdtempSync(join(tmpdir(), 'redis-restart-'));
  before(async () => {
    port = await freePort();
    redis = await durableRedis(port, dir);
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
    relay = await spawnRelay(
      sandboxRelayEnv(sandbox, {
        BILLING_TIMEOUT_MS: String(BILLING_TIMEOUT_MS),
        REDIS_URL: `redis://127.0.0.1:${port}`,
      }),
    );
  });
  after(async () => {
    await relay?.stop('SIGKILL');
    redis?.kill('SIGKILL');
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keys claimed but never sent pay once on a retry after their lease; none twice',
    { timeout: 120_000 },
    async () => {
      const keys = Array.from({ length: KEYS }, () => randomUUID());
      // The relay has no token yet: each claimed payment waits for it before it may be marked and sent.
      sandbox.faults.auth = { delayMs: 2_000 };
      const sent = keys.map((key, n) => pay(relay.url, key, n));
      const probe = createClient({ url: `redis://127.0.0.1:${port}` });
      probe.on('error', () => {});
      await probe.connect();
      await waitFor(() => sandbox.counts.auth > 0, 10_000);
      let claims = 0;
      await waitFor(() => {
        void probe.keys('*idem-lease:*').then((found) => (claims = found.length));
        return claims === KEYS;
      }, 10_000).catch((error: unknown) => {
        throw new Error(`${claims} claims`, { cause: error });
      });
      await probe.close();
      redis.kill('SIGKILL');
      await once(redis, 'exit');
      delete sandbox.faults.auth;

      const first = await Promise.all(sent);
      for (const answer of first) assert.equal(answer.status, 503, JSON.stringify(answer));
      assert.equal(sandbox.counts.epsPayments, 0, 'nothing reached the billing');

      redis = await durableRedis(port, dir);
      const open = new Set(keys.keys());
      const codes = new Set<string>();
      for (const until = Date.now() + LEASE_MS + 20_000; open.size > 0; await sleep(500)) {
        assert.ok(Date.now() < until, `${open.size} keys not paid: ${[...codes].join(', ')}`);
        await Promise.all(
          [...open].map(async (n) => {
            const answer = await pay(relay.url, keys[n]!, n);
            if (answer.status === 201) open.delete(n);
            else codes.add(answer.code ?? String(answer.status));
          }),
        );
      }
      assert.ok(!codes.has('idempotency_outcome_unknown'), 'a key never sent is never unknown');
      assert.deepEqual(
        billedTimes(sandbox.calls, KEYS),
        Array(KEYS).fill(1),
        'each key reached the billing exactly once',
      );
    },
  );
});
