import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import { CREDENTIALS, SHOP, epsCalls, paymentA, startStack, type Stack } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { tcpProxy } from './tcp-proxy.js';

/** A redis-server of this file's own, on a free port (redis-server.ts). */
let server: RedisServer;
let REDIS_URL = '';
before(async () => {
  server = await startRedisServer();
  REDIS_URL = server.url;
});
after(() => server.stop());

const env = () => ({
  REDIS_URL,
  RATE_LIMIT_IP: '100000/60',
  RATE_LIMIT_AGREEMENT: '100000/60',
  DUPLICATE_WINDOW_SECONDS: '0',
});

describe('relay: two instances behind a load balancer share one Redis', () => {
  let stack: Stack;
  let second: Relay;
  /** Another relay instance in front of the same sandbox and the same Redis. */
  const anotherRelay = (extra: Record<string, string> = {}) =>
    startRelay(
      loadConfig({
        BILLING_BASE_URL: stack.sandbox.baseUrl,
        BILLING_USERNAME: CREDENTIALS.username,
        BILLING_PASSWORD: CREDENTIALS.password,
        EPS_UUID_A: 'sandbox-eps-a',
        ALLOWED_ORIGINS: SHOP,
        PORT: '0',
        ...env(),
        ...extra,
      }),
      createLogger('silent'),
    );
  before(async () => {
    stack = await startStack({ env: env() });
    second = await anotherRelay();
  });
  after(async () => {
    await second.close();
    await stack.close();
  });

  const postTo = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/payments`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('many concurrent requests with one key, spread over both instances, create exactly one payment', async () => {
    const key = randomUUID();
    const before = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { delayMs: 100, times: 1 };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postTo(i % 2 ? second.url : stack.relay.url, paymentA(), { 'idempotency-key': key }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      String(statuses),
    );
    assert.equal(epsCalls(stack).length, before + 1, 'one payment reached the billing');
    // Once the first has finished, either instance replays the same answer.
    const [a, b] = await Promise.all([
      postTo(stack.relay.url, paymentA(), { 'idempotency-key': key }),
      postTo(second.url, paymentA(), { 'idempotency-key': key }),
    ]);
    assert.equal(a.status, 201);
    assert.equal(await a.text(), await b.text());
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('limits attempts per agreement with a 429 and Retry-After, counted once for all instances', async () => {
    const limited = { RATE_LIMIT_AGREEMENT: '3/60', TRUST_PROXY: 'x-forwarded-for' };
    const instances = [await anotherRelay(limited), await anotherRelay(limited)];
    after(() => Promise.all(instances.map((r) => r.close())));
    const agreement = `AG-${randomUUID().slice(0, 8)}`; // a fresh counter for this run
    const body = { ...paymentA(), agreement_param_value: agreement };
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await postTo(instances[i % 2]!.url, body, { 'x-forwarded-for': `203.0.113.${i}` });
      statuses.push(res.status);
      if (res.status === 429) {
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'rate_limited');
      }
    }
    assert.deepEqual(
      statuses,
      [422, 422, 422, 429],
      'three reach the billing (no such agreement), the fourth is refused',
    );
  });
});

describe('relay: a Redis that goes away', () => {
  it('a keyed payment is a quick 503 that reaches no billing; a payment without a key is still served', async () => {
    const redis = await tcpProxy(REDIS_URL); // Redis that the test can cut, and bring back
    const stack = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${redis.port}` } });
    try {
      assert.equal((await stack.post(paymentA(), { 'idempotency-key': randomUUID() })).status, 201, 'through Redis');
      await redis.close();
      const before = epsCalls(stack).length;
      const started = performance.now();
      const res = await stack.post(paymentA(), { 'idempotency-key': randomUUID() });
      assert.ok(performance.now() - started < 3_000, 'no wait for a Redis that is away');
      assert.equal(res.status, 503);
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
      assert.equal(epsCalls(stack).length, before, 'without the store, nothing is sent to the billing');
      // The rate limits go on in memory.
      assert.equal((await stack.post(paymentA())).status, 201);
    } finally {
      await redis.close();
      await stack.close();
    }
  });

  it('an answer that could not be stored while Redis was away is stored once it is back: the retry replays it', async () => {
    const redis = await tcpProxy(REDIS_URL); // Redis that the test can cut, and bring back
    const stack = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${redis.port}` } });
    try {
      const key = randomUUID();
      const before = epsCalls(stack).length;
      stack.sandbox.faults.epsPayments = { delayMs: 500, times: 1 };
      const paying = stack.post(paymentA(), { 'idempotency-key': key });
      // The key is claimed and the billing is answering (waited for, not guessed: a busy machine is slow).
      for (let i = 0; i < 200 && epsCalls(stack).length === before; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await redis.close();
      const first = await paying;
      assert.equal(first.status, 201, 'the billing’s answer reaches the client');
      await redis.open();
      let retry: Response | undefined;
      for (let i = 0; i < 40 && retry?.status !== 201; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        retry = await stack.post(paymentA(), { 'idempotency-key': key });
        assert.ok([201, 409, 503].includes(retry.status), `retry: ${retry.status}`);
      }
      assert.equal(retry?.status, 201);
      assert.equal(retry?.headers.get('idempotent-replayed'), 'true');
      assert.equal(epsCalls(stack).length, before + 1, 'one payment');
    } finally {
      await redis.close();
      await stack.close();
    }
  });
});

/** `GET /readyz`'s status and how long it took. */
async function readyz(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/readyz`);
  await res.body?.cancel();
  return { status: res.status, ms: performance.now() - started };
}

/** Asks `/readyz` until it answers 200, for at most `ms`. */
async function readyAgain(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while ((await readyz(url)).status !== 200) {
    if (Date.now() > until) assert.fail(`/readyz not 200 within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('relay: a Redis that may forget a key', () => {
  it('maxmemory-policy volatile-lru: keyed payments refused (503, nothing sent), /readyz 503, the fix logged; served once noeviction', async () => {
    const evicting = await startRedisServer(['--maxmemory', '8mb', '--maxmemory-policy', 'volatile-lru']);
    const stack = await startStack({ env: { REDIS_URL: evicting.url } });
    const admin = createClient({ url: evicting.url });
    try {
      const before = epsCalls(stack).length;
      const res = await stack.post(paymentA(), { 'idempotency-key': randomUUID() });
      assert.equal(res.status, 503);
      assert.equal(await errorCode(res), 'store_unavailable');
      assert.equal(epsCalls(stack).length, before, 'nothing sent to the billing');
      assert.equal((await readyz(stack.relay.url)).status, 503);
      const logged = stack.logLines.filter((line) => line.includes('maxmemory-policy is volatile-lru'));
      assert.ok(
        logged.some((line) => line.includes('CONFIG SET maxmemory-policy noeviction')),
        'a log line names the policy and the fix',
      );
      // Without a key, nothing to forget: served.
      assert.equal((await stack.post(paymentA())).status, 201);

      await admin.connect();
      await admin.configSet('maxmemory-policy', 'noeviction');
      assert.equal((await readyz(stack.relay.url)).status, 200, 'readiness reads the policy again');
      assert.equal((await stack.post(paymentA(), { 'idempotency-key': randomUUID() })).status, 201);
    } finally {
      admin.destroy();
      await stack.close();
      await evicting.stop();
    }
  });

  it('noeviction at maxmemory (Redis refuses writes): a fresh key is a 503 with nothing sent, /readyz 503; an answered key replays', async () => {
    const full = await startRedisServer(['--maxmemory', '8mb', '--maxmemory-policy', 'noeviction']);
    const stack = await startStack({ env: { REDIS_URL: full.url } });
    const admin = createClient({ url: full.url });
    try {
      const answered = randomUUID();
      assert.equal((await stack.post(paymentA(), { 'idempotency-key': answered })).status, 201);
      await admin.connect();
      // Past maxmemory: 5 MB held, then the limit lowered below it (filling up to the limit leaves a few bytes free).
      const chunk = 'x'.repeat(256 * 1024);
      for (let i = 0; i < 20; i += 1) await admin.set(`filler:${i}`, chunk);
      await admin.configSet('maxmemory', '2mb');
      await assert.rejects(admin.set('filler:more', 'x'), /OOM/, 'Redis refuses writes');
      const before = epsCalls(stack).length;
      const res = await stack.post(paymentA(), { 'idempotency-key': randomUUID() });
      assert.equal(res.status, 503);
      assert.equal(await errorCode(res), 'store_unavailable');
      assert.equal(epsCalls(stack).length, before, 'the claim was refused: nothing sent to the billing');
      assert.equal((await readyz(stack.relay.url)).status, 503, 'readiness tries a write');
      const replay = await stack.post(paymentA(), { 'idempotency-key': answered });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(epsCalls(stack).length, before);

      await admin.flushAll();
      assert.equal((await readyz(stack.relay.url)).status, 200);
    } finally {
      admin.destroy();
      await stack.close();
      await full.stop();
    }
  });
});

describe('relay: a managed Redis that hides CONFIG', () => {
  const keyed = async (url: string) => {
    const stack = await startStack({ env: { REDIS_URL: url } });
    try {
      const res = await stack.post(paymentA(), { 'idempotency-key': randomUUID() });
      return { status: res.status, ready: (await readyz(stack.relay.url)).status, log: stack.logLines.join('') };
    } finally {
      await stack.close();
    }
  };

  it('the policy is read from INFO memory: volatile-lru is refused all the same', async () => {
    const hidden = await startRedisServer(['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'volatile-lru']);
    try {
      const { status, ready, log } = await keyed(hidden.url);
      assert.deepEqual({ status, ready }, { status: 503, ready: 503 });
      assert.match(log, /maxmemory-policy is volatile-lru/);
    } finally {
      await hidden.stop();
    }
  });

  it('neither CONFIG nor INFO readable: a warning is logged, and keyed payments are served', async () => {
    const hidden = await startRedisServer(['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', '']);
    try {
      const { status, ready, log } = await keyed(hidden.url);
      assert.deepEqual({ status, ready }, { status: 201, ready: 200 });
      assert.match(log, /maxmemory-policy cannot be read/);
    } finally {
      await hidden.stop();
    }
  });
});

describe('relay: /readyz tells whether Redis serves now', () => {
  it('503 within the store’s deadline while Redis is frozen (SIGSTOP) or unreachable; 200 again by itself', async (t) => {
    const own = await startRedisServer();
    const proxy = await tcpProxy(own.url);
    const stack = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` } });
    try {
      assert.equal((await readyz(stack.relay.url)).status, 200);
      own.freeze();
      let frozen: { status: number; ms: number };
      try {
        frozen = await readyz(stack.relay.url);
        assert.equal(frozen.status, 503, 'frozen');
        assert.ok(frozen.ms < 1_500, `answered in ${Math.round(frozen.ms)} ms`);
      } finally {
        own.thaw();
      }
      await readyAgain(stack.relay.url, 5_000);

      await proxy.close();
      const away = await readyz(stack.relay.url);
      assert.equal(away.status, 503, 'unreachable');
      assert.ok(away.ms < 1_500, `answered in ${Math.round(away.ms)} ms`);
      await proxy.open();
      await readyAgain(stack.relay.url, 10_000);
      t.diagnostic(`/readyz 503 in ${Math.round(frozen.ms)} ms frozen, ${Math.round(away.ms)} ms unreachable`);
    } finally {
      await stack.close();
      await proxy.close();
      await own.stop();
    }
  });
});

describe('relay: REDIS_KEY_PREFIX', () => {
  it('every key the relay writes starts with it', async () => {
    const own = await startRedisServer();
    const stack = await startStack({ env: { REDIS_URL: own.url, REDIS_KEY_PREFIX: 'shop-7:' } });
    const admin = createClient({ url: own.url });
    try {
      assert.equal((await stack.post(paymentA(), { 'idempotency-key': randomUUID() })).status, 201);
      assert.equal((await readyz(stack.relay.url)).status, 200);
      await admin.connect();
      const keys = await admin.keys('*');
      assert.ok(
        keys.some((k) => k.startsWith('shop-7:idem:')),
        'an idempotency key',
      );
      assert.ok(
        keys.some((k) => k.startsWith('shop-7:rl:')),
        'a rate-limit counter',
      );
      assert.ok(keys.includes('shop-7:billing-token'), 'the fleet token');
      assert.deepEqual(
        keys.filter((k) => !k.startsWith('shop-7:')),
        [],
      );
    } finally {
      admin.destroy();
      await stack.close();
      await own.stop();
    }
  });
});
