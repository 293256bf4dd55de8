import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/relay/config.js';
import { createLogger } from '../../src/relay/logger.js';
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

const env = () => ({ REDIS_URL, RATE_LIMIT_IP: '100000/60', RATE_LIMIT_AGREEMENT: '100000/60' });

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
