import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createClient } from 'redis';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import { ALL_LOOKUPS, CREDENTIALS, epsCalls, paymentA, SHOP, startStack, type Stack } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

type Answer = { error: { code: string; message: string; earlier_at?: string; fields?: Record<string, unknown> } };

/** A payment of its own amount: each test's payments are apart from the others'. */
let amounts = 100;
const payment = (extra: Record<string, unknown> = {}) => ({ ...paymentA(), amount: `${amounts++}.00`, ...extra });
const key = () => ({ 'idempotency-key': randomUUID() });

const postTo = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/payments`, {
    method: 'POST',
    headers: { origin: SHOP, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('relay: the same payment twice within DUPLICATE_WINDOW_SECONDS (SQLite)', () => {
  let stack: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'relay-duplicates-'));
  const file = join(dir, 'keys.sqlite');
  before(async () => {
    stack = await startStack({
      env: { DUPLICATE_WINDOW_SECONDS: '900', STORE_FILE: file, ALLOWED_LOOKUPS: ALL_LOOKUPS },
    });
  });
  after(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the second one 409 duplicate_payment with when the first was sent, and does not pay it', async () => {
    const body = payment();
    const sentAt = Date.now();
    assert.equal((await stack.post(body, key())).status, 201);
    const calls = epsCalls(stack).length;
    const again = await stack.post(body, key());
    assert.equal(again.status, 409);
    assert.equal(again.headers.get('access-control-allow-origin'), SHOP);
    const answer = (await again.json()) as Answer;
    assert.equal(answer.error.code, 'duplicate_payment');
    assert.match(answer.error.message, /confirm_duplicate/);
    assert.match(answer.error.earlier_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const earlier = Date.parse(answer.error.earlier_at!);
    assert.ok(earlier >= sentAt - 5 && earlier <= Date.now(), answer.error.earlier_at);
    assert.equal(epsCalls(stack).length, calls);
  });

  it('a merchant backend calling without an Idempotency-Key is asked the same', async () => {
    const body = payment();
    assert.equal((await stack.post(body)).status, 201);
    const again = await stack.post(body);
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as Answer).error.code, 'duplicate_payment');
  });

  it('a retry with the first payment’s Idempotency-Key replays it: it is not a duplicate', async () => {
    const body = payment();
    const first = key();
    const answer = await stack.post(body, first);
    assert.equal(answer.status, 201);
    const calls = epsCalls(stack).length;
    const retry = await stack.post(body, first);
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(await retry.text(), await answer.text());
    assert.equal(epsCalls(stack).length, calls);
  });

  it('"confirm_duplicate": true with a new key pays again; the mark moves to the new payment', async () => {
    const body = payment();
    assert.equal((await stack.post(body, key())).status, 201);
    const calls = epsCalls(stack).length;
    const confirmed = await stack.post({ ...body, confirm_duplicate: true }, key());
    assert.equal(confirmed.status, 201);
    assert.equal(epsCalls(stack).length, calls + 1);
    // The billing never sees the flag.
    assert.equal('confirm_duplicate' in epsCalls(stack).at(-1)!, false);
    const third = await stack.post(body, key());
    assert.equal(third.status, 409);
    const earlier = Date.parse(((await third.json()) as Answer).error.earlier_at!);
    assert.ok(Date.now() - earlier < 2_000);
  });

  it('confirm_duplicate must be exactly true', async () => {
    for (const value of ['true', 1, false, null]) {
      const res = await stack.post(payment({ confirm_duplicate: value }), key());
      assert.equal(res.status, 422, String(value));
      const answer = (await res.json()) as Answer;
      assert.equal(answer.error.code, 'validation_failed');
      assert.deepEqual(Object.keys(answer.error.fields!), ['confirm_duplicate']);
    }
  });

  it('the agreement is compared as the billing finds it: case and spaces aside', async () => {
    const body = payment();
    assert.equal((await stack.post(body, key())).status, 201);
    const res = await stack.post({ ...body, agreement_param_value: ' ag-1001 ' }, key());
    assert.equal(res.status, 409);
  });

  it('another amount, system or agreement is another payment', async () => {
    const body = payment();
    assert.equal((await stack.post(body, key())).status, 201);
    assert.equal((await stack.post({ ...body, amount: `${body.amount.slice(0, -1)}1` }, key())).status, 201);
    assert.equal((await stack.post({ ...body, agreement_param_value: 'AG-1002' }, key())).status, 201);
    const c = { ...body, system: 'C', eps_params: [{ name: 'return_url', value: `${SHOP}/paid` }] };
    assert.equal((await stack.post(c, key())).status, 201);
  });

  it('a payment the billing refused leaves no mark; one whose outcome is unknown does', async () => {
    const refused = payment();
    stack.sandbox.faults.epsPayments = { status: 400, times: 1 };
    assert.equal((await stack.post(refused, key())).status, 422);
    assert.equal((await stack.post(refused, key())).status, 201);

    const failed = payment();
    stack.sandbox.faults.epsPayments = { status: 500, times: 1 };
    assert.equal((await stack.post(failed, key())).status, 502);
    const again = await stack.post(failed, key());
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as Answer).error.code, 'duplicate_payment');
  });

  it('of many at once with different keys, one is paid and the others are duplicates', async () => {
    const body = payment();
    const calls = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { delayMs: 150, times: 1 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => stack.post(body, key())));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409]);
    assert.equal(epsCalls(stack).length, calls + 1);
  });

  it('keeps no agreement in clear in the file', async () => {
    const email = payment({ agreement_param_id: 7, agreement_param_value: 'client@example.com' });
    assert.equal((await stack.post(email, key())).status, 201);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const rows = db.prepare('SELECT * FROM recent_payments').all();
      assert.ok(rows.length > 0);
      const text = JSON.stringify(rows);
      for (const value of ['client@example.com', 'AG-1001', 'ag-1001']) assert.equal(text.includes(value), false);
    } finally {
      db.close();
    }
  });
});

describe('relay: the duplicate window', () => {
  it('ends after DUPLICATE_WINDOW_SECONDS', async () => {
    const stack = await startStack({ env: { DUPLICATE_WINDOW_SECONDS: '1' } });
    try {
      const body = payment();
      assert.equal((await stack.post(body, key())).status, 201);
      assert.equal((await stack.post(body, key())).status, 409);
      await new Promise((r) => setTimeout(r, 1_100));
      assert.equal((await stack.post(body, key())).status, 201);
    } finally {
      await stack.close();
    }
  });

  it('0 turns the check off', async () => {
    const stack = await startStack({ env: { DUPLICATE_WINDOW_SECONDS: '0' } });
    try {
      const body = payment();
      assert.equal((await stack.post(body, key())).status, 201);
      assert.equal((await stack.post(body, key())).status, 201);
    } finally {
      await stack.close();
    }
  });

  it('is 900 s unless set', () => {
    const config = loadConfig({
      BILLING_BASE_URL: 'http://127.0.0.1:1/api/rest/v1',
      BILLING_USERNAME: 'u',
      BILLING_PASSWORD: 'p',
      EPS_UUID_A: 'a',
      ALLOWED_ORIGINS: SHOP,
    });
    assert.equal(config.duplicateWindowSeconds, 900);
  });
});

describe('relay: a fleet on one Redis asks the same', () => {
  let server: RedisServer;
  let stack: Stack;
  let second: Relay;
  before(async () => {
    server = await startRedisServer();
    const env = { REDIS_URL: server.url, DUPLICATE_WINDOW_SECONDS: '900' };
    stack = await startStack({ env });
    second = await startRelay(
      loadConfig({
        BILLING_BASE_URL: stack.sandbox.baseUrl,
        BILLING_USERNAME: CREDENTIALS.username,
        BILLING_PASSWORD: CREDENTIALS.password,
        EPS_UUID_A: 'sandbox-eps-a',
        ALLOWED_ORIGINS: SHOP,
        PORT: '0',
        RATE_LIMIT_IP: '100000/60',
        RATE_LIMIT_AGREEMENT: '100000/60',
        ...env,
      }),
      createLogger('silent'),
    );
  });
  after(async () => {
    await second?.close();
    await stack?.close();
    await server?.stop();
  });

  it('a payment on one relay is a duplicate on the other', async () => {
    const body = payment();
    assert.equal((await postTo(stack.relay.url, body, key())).status, 201);
    const again = await postTo(second.url, body, key());
    assert.equal(again.status, 409);
    const answer = (await again.json()) as Answer;
    assert.equal(answer.error.code, 'duplicate_payment');
    assert.ok(answer.error.earlier_at);
    assert.equal((await postTo(second.url, { ...body, confirm_duplicate: true }, key())).status, 201);
  });

  it('of the same payment sent to both at once, one is paid', async () => {
    const body = payment();
    const calls = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { delayMs: 150, times: 1 };
    const answers = await Promise.all(
      [stack.relay.url, second.url, stack.relay.url, second.url].map((url) => postTo(url, body, key())),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409]);
    assert.equal(epsCalls(stack).length, calls + 1);
  });

  it('a retry with the first key replays on the other relay too', async () => {
    const body = payment();
    const first = key();
    assert.equal((await postTo(stack.relay.url, body, first)).status, 201);
    const retry = await postTo(second.url, body, first);
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  });

  it('keeps no agreement in clear in Redis, and each mark expires with its window', async () => {
    assert.equal((await postTo(second.url, payment({ agreement_param_value: 'AG-1001' }), key())).status, 201);
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      const keys = await client.keys('billing-pay:recent:*');
      assert.ok(keys.length > 0);
      for (const k of keys) {
        const value = (await client.get(k)) ?? '';
        assert.doesNotMatch(`${k} ${value}`, /AG-1001|ag-1001/i);
        const ttl = await client.pTTL(k);
        assert.ok(ttl > 0 && ttl <= 900_000, String(ttl));
      }
    } finally {
      await client.close();
    }
  });
});
