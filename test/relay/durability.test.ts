/**
 * A key pays at most once, whatever dies: relay processes killed with real signals (SIGKILL mid-payment, SIGTERM and
 * SIGKILL after answering), started again on the same key store — SQLite for one instance, Redis for three — and the
 * same keys retried on any instance. The billing is the sandbox, which counts what reaches it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { longestAuthorizedCallMs } from '../../src/relay/billing/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, paymentA, postPayment, waitFor } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { sandboxRelayEnv, spawnRelay, storeFile, type RelayProcess } from './relay-process.js';

/** Short billing deadlines keep the lease short: a key held by a dead instance turns unknown within seconds. */
const BILLING_TIMEOUT_MS = 1_000;
const LEASE_MS = longestAuthorizedCallMs(BILLING_TIMEOUT_MS) + 5_000;
/**
 * The billing holds each payment longer than the relay waits for it: the relay is killed as soon as all of them have
 * arrived, a whole `BILLING_TIMEOUT_MS` before it would give up on them (and answer), however loaded the machine.
 */
const HOLD_MS = 3 * BILLING_TIMEOUT_MS;

/** Ten payments, each its own key and amount, so the billing's calls tell them apart. */
const payments = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: randomUUID(), amount: `${101 + i}.00` }));

const pay = (relay: string, { key, amount }: { key: string; amount: string }) =>
  postPayment(relay, { ...paymentA(), amount }, key);

const relayEnv = (sandbox: Sandbox, env: Record<string, string>) =>
  sandboxRelayEnv(sandbox, { BILLING_TIMEOUT_MS: String(BILLING_TIMEOUT_MS), LOG_LEVEL: 'warn', ...env });

/** How many `POST /eps_payments` of each amount reached the billing. */
function billedTimes(sandbox: Sandbox, amounts: string[]): number[] {
  const bodies = sandbox.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/eps_payments'));
  return amounts.map((amount) => bodies.filter((c) => (c.body as { amount: number }).amount === Number(amount)).length);
}

/** Sends the payments, and kills `victim` with SIGKILL once all of them are at the billing. */
async function killMidPayment(sandbox: Sandbox, victim: RelayProcess, keys: ReturnType<typeof payments>) {
  sandbox.faults.epsPayments = { delayMs: HOLD_MS };
  const before = sandbox.counts.epsPayments;
  const sent = keys.map((p) => pay(victim.url, p).catch(() => null));
  await waitFor(() => sandbox.counts.epsPayments - before === keys.length, 10_000);
  await victim.stop('SIGKILL');
  delete sandbox.faults.epsPayments;
  const answers = await Promise.all(sent);
  assert.ok(
    answers.every((a) => a === null),
    'killed before answering: no answer reached the client',
  );
}

/** Retries every key (on `relays` in turn) until each is unknown; no retry reaches the billing. */
async function retryUntilUnknown(sandbox: Sandbox, relays: RelayProcess[], keys: ReturnType<typeof payments>) {
  const amounts = keys.map((k) => k.amount);
  const until = Date.now() + LEASE_MS + 10_000;
  for (let round = 0; ; round += 1) {
    const answers = await Promise.all(keys.map((p, i) => pay(relays[(i + round) % relays.length]!.url, p)));
    for (const answer of answers) {
      assert.equal(answer.status, 409, `a retry is refused, not paid: ${JSON.stringify(answer)}`);
      assert.ok(['idempotency_in_flight', 'idempotency_outcome_unknown'].includes(answer.code!));
    }
    assert.deepEqual(
      billedTimes(sandbox, amounts),
      amounts.map(() => 1),
      'each key reached the billing once',
    );
    if (answers.every((a) => a.code === 'idempotency_outcome_unknown')) return answers;
    assert.ok(Date.now() < until, 'the keys of a dead instance turn unknown once their lease has run out');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

describe('one relay without Redis: its keys survive a crash and a restart (SQLite)', () => {
  let sandbox: Sandbox;
  let relay: RelayProcess;
  const file = storeFile();
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
    relay = await spawnRelay(relayEnv(sandbox, { STORE_FILE: file }));
  });
  after(async () => {
    await relay?.stop('SIGKILL');
    await sandbox.close();
  });

  it('killed (SIGKILL) while ten payments are at the billing: after the restart no retry is paid again', async () => {
    const keys = payments(10);
    await killMidPayment(sandbox, relay, keys);
    relay = await spawnRelay(relayEnv(sandbox, { STORE_FILE: file }), relay.port);
    await retryUntilUnknown(sandbox, [relay], keys);
    // The unknown outcome is for good: a new key is what pays again.
    assert.equal((await pay(relay.url, { key: randomUUID(), amount: keys[0]!.amount })).status, 201);
    assert.deepEqual(billedTimes(sandbox, [keys[0]!.amount]), [2]);
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`answered keys replay after a restart (${signal}), with no billing call`, async () => {
      const keys = payments(20).map((p, i) => ({ ...p, amount: `${signal === 'SIGTERM' ? 301 + i : 401 + i}.00` }));
      // Answered: a 201, or — on a loaded machine, with this short billing deadline — a 504; either is final.
      const first = await Promise.all(keys.map((p) => pay(relay.url, p)));
      for (const answer of first) assert.ok([201, 504].includes(answer.status), JSON.stringify(answer));
      assert.ok(first.some((answer) => answer.status === 201));
      const code = await relay.stop(signal);
      if (signal === 'SIGTERM') assert.equal(code, 0, 'a graceful stop');
      relay = await spawnRelay(relayEnv(sandbox, { STORE_FILE: file }), relay.port);
      const calls = sandbox.counts.epsPayments;
      const again = await Promise.all(keys.map((p) => pay(relay.url, p)));
      assert.deepEqual(
        again,
        first.map((answer) => ({ ...answer, replayed: true })),
        'each key replays its answer',
      );
      assert.equal(sandbox.counts.epsPayments, calls, 'nothing reached the billing');
    });
  }
});

describe('three relays on one Redis: an instance that dies mid-payment frees none of its keys', () => {
  let sandbox: Sandbox;
  let redis: RedisServer;
  const relays: RelayProcess[] = [];
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
    redis = await startRedisServer();
    for (let i = 0; i < 3; i += 1) relays.push(await spawnRelay(relayEnv(sandbox, { REDIS_URL: redis.url })));
  });
  after(async () => {
    await Promise.all(relays.map((r) => r.stop('SIGKILL')));
    await redis.stop();
    await sandbox.close();
  });

  it('one killed (SIGKILL) while ten payments are at the billing: retries on the others are never paid again', async () => {
    const keys = payments(10);
    await killMidPayment(sandbox, relays[0]!, keys);
    await retryUntilUnknown(sandbox, relays.slice(1), keys);
  });
});
