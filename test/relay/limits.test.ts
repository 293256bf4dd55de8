/**
 * Over real HTTP against the sandbox (and a real redis-server where Redis is involved): the per-address limits count an
 * IPv6 client by its /64, a full limiter table never refuses a client it has not seen, a lookup value counts once
 * however it is spaced, lookups that find nothing are limited far more tightly than payments, nothing personal is a
 * key or a value in clear in Redis, and a replayed answer passes the check its fresh answer passed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { checkPayment } from '../../src/eps/request.js';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { ALL_LOOKUPS, SHOP, epsCalls, paymentA, startStack, type Stack } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

type ErrorAnswer = { error: { code: string; fields?: Record<string, unknown> } };
const code = async (res: Response) => ((await res.json()) as ErrorAnswer).error.code;
const from = (address: string) => ({ 'x-forwarded-for': address });
const lookup = (kind: number, value: string) => ({
  ...paymentA(),
  agreement_param_id: kind,
  agreement_param_value: value,
});

/** Runs `send` for 0…count-1, `width` at a time; counts the statuses. */
async function flood(count: number, width: number, send: (i: number) => Promise<Response>) {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const res = await send(next++);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        await res.body?.cancel();
      }
    }),
  );
  return statuses;
}

describe('relay: IPv6 clients count by their /64', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: {
        RATE_LIMIT_IP: '30/60',
        RATE_LIMIT_SESSION_IP: '5/60',
        RATE_LIMIT_MAX_KEYS: '1000',
        TRUST_PROXY: 'x-forwarded-for',
      },
    });
  });
  after(() => stack.close());

  it('5,000 addresses of one /64 are one client: 30 payments, then 429; a new payer still pays', async () => {
    const sent = epsCalls(stack).length;
    const statuses = await flood(5_000, 16, (i) =>
      stack.post(paymentA(), from(`2001:db8:7:7:${(i >> 8).toString(16)}:${(i & 0xff).toString(16)}:0:1`)),
    );
    assert.deepEqual(statuses, { 201: 30, 429: 4_970 });
    assert.equal(epsCalls(stack).length - sent, 30);
    for (const address of ['2001:db8:7:8::1', '198.51.100.20'])
      assert.equal((await stack.post(paymentA(), from(address))).status, 201, address);
    assert.equal((await stack.post(paymentA(), from('2001:db8:7:7:abcd::1'))).status, 429);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    for (let i = 0; i < 30; i += 1) {
      const address = i % 2 ? '::ffff:198.51.100.30' : '198.51.100.30';
      assert.equal((await stack.post(paymentA(), from(address))).status, 201, `payment ${i + 1}`);
    }
    assert.equal((await stack.post(paymentA(), from('::ffff:c633:641e'))).status, 429);
  });

  it('/session and /payment-methods count one /64 as one client too', async () => {
    const statuses = await flood(12, 1, (i) =>
      fetch(`${stack.relay.url}/${i % 2 ? 'session' : 'payment-methods'}`, {
        headers: { origin: SHOP, ...from(`2001:db8:9:9::${(i + 1).toString(16)}`) },
      }),
    );
    assert.deepEqual(statuses, { 404: 5, 429: 7 }, 'sessions are off: 404 sessions_disabled until the limit');
  });
});

describe('relay: a full limiter table forgets its oldest key rather than refuse a new client', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: { RATE_LIMIT_MAX_KEYS: '30', RATE_LIMIT_IP: '3/60', TRUST_PROXY: 'x-forwarded-for' },
    });
  });
  after(() => stack.close());

  it('past RATE_LIMIT_MAX_KEYS addresses a new one pays; the newest keep their counts', async () => {
    for (let i = 0; i < 30; i += 1)
      assert.equal((await stack.post(paymentA(), from(`203.0.113.${i}`))).status, 201, `address ${i}`);
    assert.equal((await stack.post(paymentA(), from('192.0.2.99'))).status, 201, 'a new client is served');
    // 203.0.113.29 is among the newest: its count is kept (two more, then refused).
    assert.equal((await stack.post(paymentA(), from('203.0.113.29'))).status, 201);
    assert.equal((await stack.post(paymentA(), from('203.0.113.29'))).status, 201);
    assert.equal((await stack.post(paymentA(), from('203.0.113.29'))).status, 429);
  });
});

describe('relay: a lookup value counts once however it is written', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { ALLOWED_LOOKUPS: ALL_LOOKUPS, RATE_LIMIT_AGREEMENT: '3/60' } });
  });
  after(() => stack.close());

  it('"Ivan  Petrov" with any spacing or case is one value against RATE_LIMIT_AGREEMENT', async () => {
    for (const value of ['Ivan Petrov', ' Ivan  Petrov ', 'IVAN PETROV']) {
      const res = await stack.post(lookup(4, value));
      assert.notEqual(res.status, 429, JSON.stringify(value));
      await res.body?.cancel();
    }
    const fourth = await stack.post(lookup(4, 'ivan    petrov'));
    assert.equal(fourth.status, 429);
    assert.equal(await code(fourth), 'rate_limited');
    assert.equal((await stack.post(lookup(4, 'Anna Smirnova'))).status, 201, 'another value is not limited');
  });
});

describe('relay: no customer oracle by default', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { RATE_LIMIT_NOT_FOUND: '5/600', TRUST_PROXY: 'x-forwarded-for' } });
  });
  after(() => stack.close());

  it('offers only the lookup kinds printed on a bill, and refuses the personal ones', async () => {
    const config = (await (await fetch(`${stack.relay.url}/config`, { headers: { origin: SHOP } })).json()) as {
      lookups: number[];
    };
    assert.deepEqual(config.lookups, [5, 6, 8, 10, 11, 14]);
    const sent = epsCalls(stack).length;
    for (const [kind, value] of [
      [7, 'client@example.com'],
      [4, 'Ivan Petrov'],
      [1, 'demo'],
      [15, '7707083893'],
    ] as const) {
      const res = await stack.post(lookup(kind, value), from('198.51.100.1'));
      assert.equal(res.status, 422, `kind ${kind}`);
      const answer = (await res.json()) as ErrorAnswer;
      assert.equal(answer.error.code, 'validation_failed');
      assert.ok(answer.error.fields?.agreement_param_id, `kind ${kind}`);
    }
    assert.equal(epsCalls(stack).length, sent, 'the billing was not asked');
  });

  it('an address probing values is refused after 5 that found nothing, a right value included', async () => {
    const sent = epsCalls(stack).length;
    for (let i = 1; i <= 5; i += 1) {
      const res = await stack.post(lookup(5, `AG-90${i}`), from('203.0.113.50'));
      assert.equal(res.status, 422);
      assert.equal(await code(res), 'agreement_not_found');
    }
    for (const value of ['AG-906', 'AG-1001']) {
      const res = await stack.post(lookup(5, value), from('203.0.113.50'));
      assert.equal(res.status, 429, value);
      assert.equal(await code(res), 'rate_limited');
      assert.ok(Number(res.headers.get('retry-after')) > 60, 'until the window ends');
    }
    assert.equal(epsCalls(stack).length - sent, 5, 'the refused probes never reach the billing');
    // Every address of one /64 is one prober.
    for (let i = 1; i <= 5; i += 1)
      assert.equal((await stack.post(lookup(5, `AG-91${i}`), from(`2001:db8:5:5::${i}`))).status, 422);
    assert.equal((await stack.post(lookup(5, 'AG-920'), from('2001:db8:5:5::99'))).status, 429);
    assert.equal((await stack.post(paymentA(), from('203.0.113.51'))).status, 201, 'another address pays');
  });

  it('a payer who mistypes twice then pays is not slowed', async () => {
    for (const typo of ['AG-100l', 'AG-1O01'])
      assert.equal((await stack.post(lookup(5, typo), from('203.0.113.60'))).status, 422, typo);
    assert.equal((await stack.post(lookup(5, 'AG-1001'), from('203.0.113.60'))).status, 201);
  });
});

describe('relay with Redis: nothing personal in clear, and a replay is checked', () => {
  const SESSION_SECRET = 'a-session-secret-of-at-least-32-bytes-for-tests';
  let redis: RedisServer;
  let stack: Stack;
  let client: ReturnType<typeof createClient>;
  before(async () => {
    redis = await startRedisServer();
    stack = await startStack({
      env: { REDIS_URL: redis.url, ALLOWED_LOOKUPS: ALL_LOOKUPS, TRUST_PROXY: 'x-forwarded-for', SESSION_SECRET },
    });
    client = createClient({ url: redis.url });
    await client.connect();
  });
  after(async () => {
    await client.quit();
    await stack.close();
    await redis.stop();
  });

  /** Every key and every value in Redis, as text. */
  async function everything(): Promise<{ keys: string[]; values: string[] }> {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ COUNT: 1000 })) keys.push(...batch);
    const values: string[] = [];
    for (const key of keys) {
      const type = await client.type(key);
      if (type === 'string') values.push((await client.get(key)) ?? '');
      else if (type === 'hash') values.push(JSON.stringify(await client.hGetAll(key)));
      else if (type === 'list') values.push(JSON.stringify(await client.lRange(key, 0, -1)));
      else if (type === 'set') values.push(JSON.stringify(await client.sMembers(key)));
      else if (type === 'zset') values.push(JSON.stringify(await client.zRange(key, 0, -1)));
    }
    return { keys, values };
  }

  /**
   * Whether a key or value holds a needle. A short one ("demo") turns up by chance in a sealed blob's base64 every few
   * hundred runs, so it counts only where it stands apart from such characters; a long one counts anywhere.
   */
  function holds(text: string, needle: string): boolean {
    if (needle.length >= 8) return text.toLowerCase().includes(needle);
    const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i').test(text);
  }

  it('SCAN finds no e-mail, name, login, taxpayer number, agreement or address; fingerprints are keyed', async () => {
    const people = [
      [7, 'client@example.com'],
      [4, 'Ivan Petrov'],
      [1, 'demo'],
      [15, '7707083893'],
      [5, 'AG-1001'],
      [7, 'nobody@example.org'],
    ] as const;
    const addresses = ['203.0.113.77', '2001:db8:77:77::77'];
    for (const address of addresses) {
      for (const [kind, value] of people) {
        const res = await stack.post(lookup(kind, value), { ...from(address), 'idempotency-key': randomUUID() });
        assert.ok([201, 422].includes(res.status), `${value}: ${res.status}`);
        await res.body?.cancel();
      }
      const session = await createClientSession({ agreementId: 1001 }, SESSION_SECRET);
      const res = await fetch(`${stack.relay.url}/session`, {
        headers: { origin: SHOP, authorization: `Bearer ${session}`, ...from(address) },
      });
      assert.equal(res.status, 200);
    }

    const { keys, values } = await everything();
    assert.ok(
      keys.some((key) => key.includes(':rl:')),
      'rate-limit keys are in Redis',
    );
    assert.ok(
      values.some((value) => value.includes('fingerprint')),
      'idempotency records are in Redis',
    );
    // The session's agreement id, 1001, is too short to look for anywhere: only as a key's last segment.
    const needles = ['client@example.com', 'nobody@example.org', 'ivan', 'petrov', 'ivanpetrov', 'demo', '7707083893'];
    needles.push('ag-1001', '203.0.113.77', '2001:db8:77');
    for (const key of keys) {
      for (const needle of needles) assert.ok(!holds(key, needle), `key ${key} holds ${needle}`);
      assert.doesNotMatch(key, /[:/]1001$/, `key ${key} names the session's agreement`);
    }
    for (const value of values)
      for (const needle of needles) assert.ok(!holds(value, needle), `a value holds ${needle}: ${value}`);
    // The fingerprint a plain SHA-256 of the request would be (what a leak could be matched against).
    const checked = checkPayment(lookup(5, 'AG-1001'), { maxAmount: 10n ** 12n, lookups: [5] });
    assert.ok(checked.ok);
    const p = checked.value;
    const params = Object.entries(p.params).sort(([a], [b]) => (a < b ? -1 : 1));
    const canonical = JSON.stringify([p.system, p.amount, p.agreement_param_id, p.agreement_param_value, params]);
    const plain = createHash('sha256').update(canonical).digest('hex');
    assert.ok(!values.some((value) => value.includes(plain)), 'fingerprints are not the plain SHA-256');
  });

  it('a stored answer altered to send the client elsewhere is not replayed', async () => {
    const key = randomUUID();
    const first = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(first.status, 201);
    const page = ((await first.json()) as { redirect_url: string }).redirect_url;
    const replay = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(((await replay.json()) as { redirect_url: string }).redirect_url, page);

    const { keys } = await everything();
    let altered = 0;
    for (const stored of keys.filter((k) => k.includes(key))) {
      const value = await client.get(stored);
      if (!value?.includes(page)) continue;
      await client.set(stored, value.replaceAll(page, 'http://evil.example/pay'), { KEEPTTL: true });
      altered += 1;
    }
    assert.equal(altered, 1, 'the stored answer was found');
    const sent = epsCalls(stack).length;
    const tampered = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(tampered.status, 502);
    assert.equal(tampered.headers.get('idempotent-replayed'), null);
    const text = await tampered.text();
    assert.equal((JSON.parse(text) as ErrorAnswer).error.code, 'billing_error');
    assert.doesNotMatch(text, /evil/);
    assert.equal(epsCalls(stack).length, sent, 'nothing sent to the billing');
  });
});

describe('relay fleet on one Redis: the not-found budget is the fleet’s', () => {
  const HASH_SECRET = 'a-hash-secret-shared-by-the-fleet-0123456789';
  let redis: RedisServer;
  let one: Stack;
  let two: Stack;
  before(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, RATE_LIMIT_NOT_FOUND: '5/600', TRUST_PROXY: 'x-forwarded-for', HASH_SECRET };
    // Two sandboxes, so two billing URLs: only the shared HASH_SECRET makes their keys the same.
    [one, two] = await Promise.all([startStack({ env }), startStack({ env })]);
  });
  after(async () => {
    await Promise.all([one.close(), two.close()]);
    await redis.stop();
  });

  it('misses spread over two instances spend one budget; the next is a 429 on either', async () => {
    for (let i = 1; i <= 5; i += 1) {
      const res = await (i % 2 ? one : two).post(lookup(5, `AG-93${i}`), from('203.0.113.90'));
      assert.equal(res.status, 422, `miss ${i}`);
      await res.body?.cancel();
    }
    for (const stack of [one, two]) {
      const res = await stack.post(paymentA(), from('203.0.113.90'));
      assert.equal(res.status, 429);
      assert.equal(await code(res), 'rate_limited');
    }
    assert.equal((await two.post(paymentA(), from('203.0.113.91'))).status, 201);
  });
});
