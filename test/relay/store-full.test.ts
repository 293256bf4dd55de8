/**
 * A key store that cannot write (SQLite): a relay process paying under load, with the sandbox as billing, whose store
 * files stop growing mid-traffic — `prlimit --fsize` on the running relay, so every write past the files' end fails
 * as on a full disk (no privilege needed) — and then may grow again. Each payment is sent twice, as a client that
 * retries does. No key reaches the billing twice; while the store is full, payments are refused with 503
 * `store_unavailable` and `/readyz` is 503; once it has room, the relay pays and is ready again on its own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { longestAuthorizedCallMs } from '../../src/relay/billing/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, billedTimes, numberedPayment, postPayment, waitFor } from './harness.js';
import { limitFileSize, sandboxRelayEnv, spawnRelay, storeFile, type RelayProcess } from './relay-process.js';

const BILLING_TIMEOUT_MS = 1_000;
const LEASE_MS = longestAuthorizedCallMs(BILLING_TIMEOUT_MS) + 5_000;
const CLIENTS = 8;

const pay = (relay: string, key: string, n: number) => postPayment(relay, numberedPayment(n), key);

const readyStatus = async (relay: RelayProcess) => (await fetch(`${relay.url}/readyz`)).status;

describe('a key store that fills up mid-traffic (SQLite): nothing paid twice, 503 while full, recovers', () => {
  let sandbox: Sandbox;
  let relay: RelayProcess;
  const file = storeFile();
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
    relay = await spawnRelay(
      sandboxRelayEnv(sandbox, { BILLING_TIMEOUT_MS: String(BILLING_TIMEOUT_MS), STORE_FILE: file }),
      undefined,
      { fileSizeLimitable: true },
    );
  });
  after(async () => {
    await relay?.stop('SIGKILL');
    await sandbox?.close();
  });

  it(
    'each key pays at most once; while full every payment is a 503 store_unavailable',
    { timeout: 120_000 },
    async () => {
      const keys: string[] = [];
      const answers: { n: number; answer: Awaited<ReturnType<typeof pay>>; full: boolean }[] = [];
      let full = false;
      let stop = false;
      // Each client sends a payment, then the same again (a retry), then the next.
      const clients = Array.from({ length: CLIENTS }, async () => {
        while (!stop) {
          const n = keys.push(randomUUID()) - 1;
          for (let send = 0; send < 2; send += 1) {
            const wasFull = full;
            const answer = await pay(relay.url, keys[n]!, n);
            answers.push({ n, answer, full: wasFull && full });
          }
        }
      });
      let fullReady: number | undefined;
      try {
        await waitFor(() => answers.filter((a) => a.answer.status === 201).length >= 40, 30_000);
        assert.equal(await readyStatus(relay), 200);

        // The store's files may not grow any more: every commit appends to the WAL.
        limitFileSize(relay, statSync(`${file}-wal`).size);
        full = true;
        const fullFrom = answers.length;
        await waitFor(() => answers.length - fullFrom >= 6 * CLIENTS, 20_000);
        fullReady = await readyStatus(relay);

        limitFileSize(relay, 'unlimited');
        full = false;
        const since = answers.length;
        await waitFor(() => answers.slice(since).some((a) => a.answer.status === 201 && !a.answer.replayed), 20_000);
        assert.equal(await readyStatus(relay), 200, 'ready again on its own');
      } finally {
        stop = true;
        await Promise.all(clients);
      }

      assert.deepEqual(
        billedTimes(sandbox.calls, keys.length).flatMap((times, n) => (times > 1 ? [{ n, times }] : [])),
        [],
        'no key reached the billing twice',
      );
      assert.ok(answers.some((a) => a.full && a.answer.code === 'store_unavailable'));
      assert.equal(fullReady, 503, 'not ready while the store cannot take a claim');
      for (const { answer, full: wasFull } of answers) {
        // While full: refused, or a retry told its key is in flight, or the replay of an answer stored before (a read).
        // Around it, also payments: 201, or 504 when the billing's deadline passed on this loaded machine.
        const refused = ['store_unavailable', 'idempotency_in_flight'].includes(answer.code!) || answer.replayed;
        const allowed = refused || (!wasFull && [201, 504].includes(answer.status));
        assert.ok(allowed, `${wasFull ? 'while full' : 'around it'}: ${JSON.stringify(answer)}`);
      }

      // Every key, retried until it has its final answer, is paid exactly once: a claim refused while the store was
      // full pays on a retry (past its lease, when its release could not be stored either).
      const open = new Set(keys.keys());
      for (const until = Date.now() + LEASE_MS + 15_000; open.size > 0; await sleep(500)) {
        assert.ok(Date.now() < until, `${open.size} keys have no final answer`);
        await Promise.all(
          [...open].map(async (n) => {
            const answer = await pay(relay.url, keys[n]!, n);
            if (answer.status === 201 || answer.replayed) open.delete(n);
            else
              assert.ok(['idempotency_in_flight', 'store_unavailable'].includes(answer.code!), JSON.stringify(answer));
          }),
        );
      }
      assert.deepEqual(
        billedTimes(sandbox.calls, keys.length).flatMap((times, n) => (times !== 1 ? [{ n, times }] : [])),
        [],
        'each key reached the billing exactly once',
      );
    },
  );
});
