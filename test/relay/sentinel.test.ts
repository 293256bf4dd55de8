/**
 * Relays on Redis through Sentinel (sentinel-servers.ts: a primary, two replicas, three sentinels, real processes),
 * with only REDIS_SENTINELS set (so `WAIT` for one replica, the default under Sentinel), in front of the sandbox. A steady load of keyed payments, each its own key and amount
 * (so the billing's calls tell them apart), while the primary dies (SIGKILL): every key that got no 201 is retried
 * with the same key, and every answered key is sent again. No key reaches the billing twice; every key answered before
 * the kill replays; the only failures meanwhile are 503 store_unavailable, or 409 for keys caught mid-way; and once
 * the sentinels have elected a new primary the relays serve keyed payments again by themselves.
 *
 * Then the same with the replication links cut first (a replica partitioned away, or lagging): what the primary alone
 * took dies with it. With WAIT no payment leaves on a claim the replicas do not have, so none is paid again after the
 * failover (without it the keys answered after the cut are unknown to the new primary, and their retries pay twice).
 * Meanwhile, answered keys sent again are read alone, never behind a `WAIT`: they replay their stored answers.
 */
import { afterEach, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, SHOP, paymentA, waitFor } from './harness.js';
import { spawnRelay, type RelayProcess } from './relay-process.js';
import { startSentinelServers, type SentinelServers } from './sentinel-servers.js';

/** Once the sentinels have a primary again, keyed payments are served within this. */
const RECOVERY_MS = 20_000;
/** The billing takes this long over each payment: some are at the billing when the primary dies. */
const BILLING_MS = 100;
const WORKERS = 6;

type Answer = { relay: string; status: number; code?: string; replayed: boolean; sentAt: number; at: number };
interface Payment {
  key: string;
  amount: string;
  answers: Answer[];
}

let sandbox: Sandbox | undefined;
let servers: SentinelServers | undefined;
let relays: Relay[] = [];
let processes: RelayProcess[] = [];
const logLines: string[] = [];

afterEach(async () => {
  await Promise.all([...relays.map((r) => r.close()), ...processes.map((p) => p.stop('SIGKILL'))]);
  relays = [];
  processes = [];
  await servers?.stop();
  await sandbox?.close();
  servers = undefined;
  sandbox = undefined;
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...sandbox!.relayEnv(),
    BILLING_USERNAME: CREDENTIALS.username,
    BILLING_PASSWORD: CREDENTIALS.password,
    ALLOWED_ORIGINS: SHOP,
    // Generous: the machine is busy with a dozen processes, and only the store's failures are under test.
    BILLING_TIMEOUT_MS: '5000',
    RATE_LIMIT_IP: '100000/60',
    RATE_LIMIT_AGREEMENT: '100000/60',
    DUPLICATE_WINDOW_SECONDS: '0',
    REDIS_SENTINELS: servers!.sentinels,
    REDIS_SENTINEL_NAME: servers!.name,
    REDIS_PASSWORD: servers!.password,
    REDIS_SENTINEL_PASSWORD: servers!.sentinelPassword,
    ...extra,
  };
}

async function startStack({ withProcess }: { withProcess: boolean }): Promise<string[]> {
  sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
  sandbox.faults.epsPayments = { delayMs: BILLING_MS };
  servers = await startSentinelServers();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const [relay, process] = await Promise.all([
    startRelay(loadConfig(env({ PORT: '0' })), createLogger('info', sink)),
    withProcess ? spawnRelay(env({ LOG_LEVEL: 'info' })) : undefined,
  ]);
  relays.push(relay);
  if (process) processes.push(process);
  return [relay.url, ...(process ? [process.url] : [])];
}

async function pay(relay: string, payment: Payment): Promise<Answer> {
  const sentAt = Date.now();
  let answer: Answer;
  try {
    const res = await fetch(`${relay}/payments`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': payment.key },
      body: JSON.stringify({ ...paymentA(), amount: payment.amount }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { error?: { code: string } };
    const replayed = res.headers.get('idempotent-replayed') === 'true';
    answer = { relay, status: res.status, code: body.error?.code, replayed, sentAt, at: Date.now() };
  } catch (error) {
    answer = { relay, status: 0, code: String(error), replayed: false, sentAt, at: Date.now() };
  }
  payment.answers.push(answer);
  return answer;
}

/** `WORKERS` clients paying in a loop, each payment a new key, on the relays in turn, until `stop()`. */
function startLoad(urls: string[], firstAmount: number) {
  const payments: Payment[] = [];
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const n = payments.length;
      const payment = { key: randomUUID(), amount: `${firstAmount + n}.00`, answers: [] };
      payments.push(payment);
      await pay(urls[n % urls.length]!, payment);
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, worker));
  return {
    payments,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

const PAID = 201;
/** What a keyed payment may meet while the primary is away, besides a 201. */
const passing = (a: Answer) =>
  (a.status === 503 && a.code === 'store_unavailable') ||
  (a.status === 409 && ['idempotency_in_flight', 'idempotency_outcome_unknown'].includes(a.code!));
const caughtMidWay = (a: Answer) => a.status === 409;

/** How many `POST /eps_payments` of each amount reached the billing. */
function billedTimes(amounts: string[]): number[] {
  const bodies = sandbox!.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/eps_payments'));
  return amounts.map((amount) => bodies.filter((c) => (c.body as { amount: number }).amount === Number(amount)).length);
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function each<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Load, (cut the replication links,) kill the primary, wait for the relays to serve again, retry and replay every
 * key; then the checks every scenario shares. Returns the load's payments and its moments.
 */
async function failover(t: TestContext, urls: string[], { cut }: { cut: boolean }) {
  const load = startLoad(urls, cut ? 50_000 : 1_000);
  const paid = () => load.payments.filter((p) => p.answers.some((a) => a.status === PAID)).length;
  await waitFor(() => paid() >= 30, 10_000);
  const cutAt = Date.now();
  const cutReplays: Answer[] = [];
  if (cut) {
    servers!.cutReplication();
    // Keys answered before the cut, sent again while every fresh claim waits for a replica that never acknowledges.
    const answeredBefore = load.payments.filter((p) => p.answers.some((a) => a.status === PAID && a.at < cutAt));
    const resend = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await each(answeredBefore.slice(0, 20), 10, async (payment) => {
        cutReplays.push(await pay(urls[cutReplays.length % urls.length]!, payment));
      });
    };
    await Promise.all([resend(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  }
  const killAt = Date.now();
  await servers!.killPrimary();
  let electedAt = 0;
  const electing = (async () => {
    while (Date.now() - killAt < RECOVERY_MS) {
      if ((await servers!.primaryPort().catch(() => servers!.firstPrimaryPort)) !== servers!.firstPrimaryPort)
        return (electedAt = Date.now());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  // Served again: on every relay, a payment sent after the kill is answered 201 (its claim taken on the new primary,
  // and acknowledged by a replica of it).
  const servedAgain = () => {
    const answers = load.payments.flatMap((p) => p.answers);
    const first = urls.map((url) => answers.find((a) => a.relay === url && a.status === PAID && a.sentAt > killAt));
    return first.every(Boolean) ? Math.max(...first.map((a) => a!.at)) : undefined;
  };
  try {
    await waitFor(() => servedAgain() !== undefined, RECOVERY_MS);
  } catch {
    await load.stop();
    assert.fail(`a relay served no keyed payment within ${RECOVERY_MS / 1000} s of the primary's death`);
  }
  await electing;
  const recoveredAt = servedAgain()!;
  // A little more load on the new primary, then every key that got no 201 is retried with the same key.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await load.stop();
  const { payments } = load;
  const during = payments.flatMap((p) => p.answers).filter((a) => a.status !== PAID);
  assert.deepEqual(
    during.filter((a) => !passing(a)),
    [],
    'while the primary was away: 503 store_unavailable, or 409 for a key caught mid-way, nothing else',
  );
  assert.ok(
    during.some((a) => a.status === 503),
    'the primary was away for a while: some payments were refused',
  );

  const unanswered = payments.filter((p) => !p.answers.some((a) => a.status === PAID || caughtMidWay(a)));
  await each(unanswered, 10, async (payment) => {
    for (let tries = 0; tries < 40; tries += 1) {
      const answer = await pay(urls[tries % urls.length]!, payment);
      if (answer.status === PAID || caughtMidWay(answer)) return;
      assert.ok(passing(answer), `a retry: ${JSON.stringify(answer)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.fail(`key ${payment.key} was still refused 10 s after the failover`);
  });

  // Every answered key again: the billing is not called.
  const calls = sandbox!.counts.epsPayments;
  const answered = payments.filter((p) => p.answers.some((a) => a.status === PAID));
  const firstPaid = (p: Payment) => p.answers.find((a) => a.status === PAID)!;
  const replays = new Map<Payment, Answer>();
  await each(answered, 10, async (payment) => {
    replays.set(payment, await pay(urls[0]!, payment));
  });
  assert.equal(sandbox!.counts.epsPayments, calls, 'no replay reached the billing');
  const amounts = payments.map((p) => p.amount);
  const twice = payments.filter((_, i) => billedTimes(amounts)[i]! > 1);
  assert.deepEqual(
    twice.map((p) => ({ amount: p.amount, answers: p.answers.map((a) => `${a.status} ${a.code ?? ''}`) })),
    [],
    'no key reached the billing twice',
  );
  const safeBefore = cut ? cutAt : killAt;
  for (const [payment, replay] of replays) {
    if (firstPaid(payment).at < safeBefore) {
      assert.deepEqual(
        { status: replay.status, replayed: replay.replayed },
        { status: PAID, replayed: true },
        `answered before the ${cut ? 'cut' : 'kill'}, replayed after the failover (${payment.amount})`,
      );
    } else {
      // Answered while the primary was dying: its answer may not have reached a replica, its claim did.
      assert.ok(
        (replay.status === PAID && replay.replayed) || caughtMidWay(replay),
        `answered after the ${cut ? 'cut' : 'kill'}: replayed, or in flight/unknown (${JSON.stringify(replay)})`,
      );
    }
  }
  const billed = billedTimes(answered.map((p) => p.amount));
  assert.ok(
    billed.every((n) => n === 1),
    'each answered key reached the billing once',
  );
  t.diagnostic(
    `${payments.length} keys, ${answered.length} paid (the others in flight or unknown); the sentinels elected a new primary ${electedAt - killAt} ms ` +
      `after the kill, the relays served again ${recoveredAt - killAt} ms after it; ` +
      `${during.filter((a) => a.status === 503).length} answers 503, ${during.filter(caughtMidWay).length} 409`,
  );
  return { payments, cutAt, killAt, cutReplays };
}

describe('relays on Redis through Sentinel, REDIS_SENTINELS alone: a failover during payments', () => {
  it('the primary killed (SIGKILL) mid-load: nothing paid twice, every key answered before replays, served again by itself', async (t) => {
    const urls = await startStack({ withProcess: true });
    const started = Date.now();
    await failover(t, urls, { cut: false });
    t.diagnostic(`load, failover, retries and replays: ${Date.now() - started} ms`);
    const listening = processes[0]!
      .output()
      .split('\n')
      .flatMap((line) => (line.includes('"relay listening"') ? [JSON.parse(line) as { store: string }] : []));
    assert.deepEqual(
      listening.map((l) => l.store),
      ['sentinel'],
      'the relay says where its keys are',
    );
    for (const text of [logLines.join(''), processes[0]!.output()]) {
      assert.ok(!text.includes(servers!.password), "no log line holds the data nodes' password");
      assert.ok(!text.includes(servers!.sentinelPassword), "no log line holds the sentinels' password");
    }
  });

  it('the replication links cut, then the primary killed: no payment left on a claim the replicas lacked, none paid twice', async (t) => {
    const urls = await startStack({ withProcess: false });
    const { payments, cutAt, killAt, cutReplays } = await failover(t, urls, { cut: true });
    assert.equal(cutReplays.length, 20);
    assert.deepEqual(
      cutReplays.map((a) => `${a.status} ${a.replayed ? 'replayed' : (a.code ?? '')}`),
      cutReplays.map(() => '201 replayed'),
      'during the cut, answered keys sent again replay their stored answers',
    );
    // Sent between the cut and the kill: WAIT found no replica acknowledging the claim, the payment was refused.
    const cutOff = payments.filter((p) => p.answers[0]!.sentAt > cutAt && p.answers[0]!.sentAt < killAt);
    assert.ok(cutOff.length > 0, 'payments were sent while the replicas were cut off');
    assert.deepEqual(
      cutOff.map((p) => `${p.answers[0]!.status} ${p.answers[0]!.code}`),
      cutOff.map(() => '503 store_unavailable'),
      'refused before the billing',
    );
  });
});

describe('the Sentinel variables', () => {
  const base = {
    BILLING_BASE_URL: 'https://billing.example/api/rest/v1',
    BILLING_USERNAME: 'u',
    BILLING_PASSWORD: 'p',
  };
  const config = (env: Record<string, string>) =>
    loadConfig({ ...base, EPS_UUID_A: 'uuid-a', ALLOWED_ORIGINS: SHOP, ...env });
  const problems = (env: Record<string, string>) => {
    try {
      config(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('REDIS_SENTINELS: host:port, comma or space separated; the name mymaster unless set; WAIT 1 unless set', () => {
    const loaded = config({
      REDIS_SENTINELS: '10.0.0.5:26379, sentinel-b:26380 [::1]:26381',
      REDIS_PASSWORD: 'pw-data',
    });
    assert.deepEqual(loaded.redisSentinel, {
      nodes: [
        { host: '10.0.0.5', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      tls: false,
    });
    assert.equal(loaded.redisPassword, 'pw-data');
    assert.equal(loaded.redisWaitReplicas, 1, 'a failover is expected: a replica acknowledges each claim');
    assert.equal(config({ REDIS_SENTINELS: '127.0.0.1:26379', REDIS_WAIT_REPLICAS: '0' }).redisWaitReplicas, 0);
    assert.equal(
      config({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisWaitReplicas,
      0,
      'one Redis: nothing to wait for',
    );
    assert.equal(loaded.redisUrl, undefined);
    const named = config({
      REDIS_SENTINELS: '127.0.0.1:26379',
      REDIS_SENTINEL_NAME: 'payments',
      REDIS_SENTINEL_USERNAME: 'watcher',
      REDIS_SENTINEL_PASSWORD: 'pw-sentinel',
      REDIS_SENTINEL_TLS: 'true',
      REDIS_WAIT_REPLICAS: '2',
    });
    assert.deepEqual(named.redisSentinel, {
      nodes: [{ host: '127.0.0.1', port: 26379 }],
      name: 'payments',
      username: 'watcher',
      password: 'pw-sentinel',
      tls: true,
    });
    assert.equal(named.redisWaitReplicas, 2);
    assert.equal(config({}).redisSentinel, undefined);
  });

  it('refused, each named: both REDIS_URL and REDIS_SENTINELS, a bad address, credentials or WAIT without Redis', () => {
    assert.deepEqual(problems({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINELS: '127.0.0.1:26379' }), [
      'REDIS_URL and REDIS_SENTINELS: set one of them, not both',
    ]);
    assert.deepEqual(problems({ REDIS_SENTINELS: '127.0.0.1, ok:26379', REDIS_WAIT_REPLICAS: 'one' }), [
      'REDIS_SENTINELS must list the sentinels as host:port, comma or space separated, such as 10.0.0.5:26379,10.0.0.6:26379 or [::1]:26379',
      'REDIS_WAIT_REPLICAS must be a number of replicas (0: none)',
    ]);
    assert.equal(problems({ REDIS_SENTINELS: 'host:0' }).length, 1, 'port 0');
    assert.deepEqual(problems({ REDIS_PASSWORD: 'pw', REDIS_SENTINEL_PASSWORD: 'pw', REDIS_WAIT_REPLICAS: '1' }), [
      'REDIS_PASSWORD is set without REDIS_URL or REDIS_SENTINELS',
      'REDIS_WAIT_REPLICAS is set without REDIS_URL or REDIS_SENTINELS',
      'REDIS_SENTINEL_PASSWORD is set without REDIS_SENTINELS',
    ]);
    assert.deepEqual(problems({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINEL_TLS: 'true' }), [
      'REDIS_SENTINEL_TLS is set without REDIS_SENTINELS (with REDIS_URL: a rediss:// URL)',
    ]);
  });
});
