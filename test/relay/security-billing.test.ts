/**
 * Issue 12, points 3, 5, 6 and the payment page of 8, against a billing written to misbehave (fake-billing.ts), over
 * real HTTP: saved-method ownership fails closed, the billing's answer is bounded, only what the widget needs reaches
 * the browser, and no unsafe payment page is handed on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createClientSession } from '../../src/relay/session/client-session.js';
import type { Relay } from '../../src/relay/server.js';
import { json, startFakeBilling } from './fake-billing.js';
import { SHOP, paymentA, waitFor } from './harness.js';

const SECRET = 'a-session-secret-of-at-least-32-bytes-for-tests';
type Fake = Awaited<ReturnType<typeof startFakeBilling>>;

const pay = (relay: Relay, body: unknown = paymentA()) =>
  fetch(`${relay.url}/payments`, {
    method: 'POST',
    headers: { origin: SHOP, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Writes JSON-looking bytes for as long as the reader takes them; counts what it wrote and when the reader hung up. */
function endless(res: ServerResponse, stats: { written: number; closed: number }) {
  res.on('close', () => (stats.closed += 1));
  res.writeHead(201, { 'content-type': 'application/json' });
  res.write('{"code":201,"response":{"pad":"');
  const chunk = 'x'.repeat(64 * 1024);
  const more = () => {
    while (!res.destroyed) {
      stats.written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
  };
  more();
}

describe('relay: the billing’s answer is bounded (issue 12.5)', () => {
  let fake: Fake;
  let relay: Relay;
  const stats = { written: 0, closed: 0 };
  before(async () => {
    fake = await startFakeBilling((req, res) => endless(res, stats));
    relay = await fake.relay({ SESSION_SECRET: SECRET });
  });
  after(async () => {
    await relay.close();
    await fake.close();
  });

  it('an endless answer is a 502 at once, its connection dropped, and relay memory stays flat', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      const res = await pay(relay);
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(res.status, 502, JSON.stringify(body));
      assert.equal(body.error.code, 'billing_error');
      assert.ok(performance.now() - started < 4_000, 'not read until the time limit (5 s)');
    }
    await waitFor(() => stats.closed === 20, 5_000).catch(() =>
      assert.fail(`${stats.closed} of 20 connections dropped`),
    );
    assert.ok(
      stats.written < 20 * 8 * 1024 * 1024,
      `the billing wrote ${stats.written} bytes: reading stopped near the limit`,
    );
    global.gc?.();
    const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    assert.ok(growthMb < 64, `RSS grew by ${growthMb.toFixed(1)} MB`);
  });

  it('so is a finite answer over BILLING_MAX_RESPONSE_BYTES, on every billing call', async () => {
    const big = JSON.stringify({
      code: 200,
      response: { payment_id: 1, confirmation_url: 'https://pay.example/1', pad: 'x'.repeat(2 * 1024 * 1024) },
    });
    fake.state.handle = (req, res) => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(big);
    };
    assert.equal((await pay(relay)).status, 502, 'POST /eps_payments');
    const session = await createClientSession({ agreementId: 1 }, SECRET);
    const list = await fetch(`${relay.url}/payment-methods`, { headers: { authorization: `Bearer ${session}` } });
    assert.equal(list.status, 502, 'GET /payment_methods');
    // Under the limit, the same answer is read.
    const small = await fake.relay({ BILLING_MAX_RESPONSE_BYTES: String(4 * 1024 * 1024) });
    try {
      assert.equal((await pay(small)).status, 201);
    } finally {
      await small.close();
    }
  });

  it('so is an endless GET /auth: no token, a 502, nothing paid', async () => {
    const authStats = { written: 0, closed: 0 };
    const { createServer } = await import('node:http');
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      endless(res, authStats);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const other = await fake.relay({ BILLING_BASE_URL: `http://127.0.0.1:${port}/api/rest/v1` });
    try {
      const res = await pay(other);
      assert.equal(res.status, 502);
      await waitFor(() => authStats.closed >= 1, 5_000);
      assert.ok(
        asked.length >= 1 && asked.every((call) => call === 'GET /api/rest/v1/auth'),
        `asked: ${asked.join(', ')}`,
      );
    } finally {
      await other.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('relay: only what the widget needs goes to the browser (issue 12.6)', () => {
  let fake: Fake;
  let relay: Relay;
  const answer = {
    payment_id: 7,
    status: 'pending',
    confirmation_url: 'https://pay.example/7',
    owner: { email: 'owner@example.com', phone: '+7 900 000-00-00' },
    owner_email: 'owner@example.com',
  };
  before(async () => {
    fake = await startFakeBilling((req, res) => json(res, 201, { code: 201, response: answer }));
    relay = await fake.relay();
  });
  after(async () => {
    await relay.close();
    await fake.close();
  });

  it('the 201 carries redirect_url and the payment id, nothing else of the billing’s object', async () => {
    const res = await pay(relay);
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { redirect_url: 'https://pay.example/7', payment: { payment_id: 7 } });
  });

  it('PAYMENT_ANSWER_FIELDS adds the fields it lists (scalars only)', async () => {
    const listed = await fake.relay({ PAYMENT_ANSWER_FIELDS: 'status,owner' });
    try {
      assert.deepEqual(await (await pay(listed)).json(), {
        redirect_url: 'https://pay.example/7',
        payment: { payment_id: 7, status: 'pending' },
      });
    } finally {
      await listed.close();
    }
  });

  it('a billing 4xx is the relay’s own code and message; the billing’s text is not passed on', async () => {
    fake.state.handle = (req, res) =>
      json(res, 400, { error: { message: '<b>owner@example.com</b> is blocked: internal rule 17' } });
    const res = await pay(relay);
    assert.equal(res.status, 422);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), {
      error: { code: 'billing_rejected', message: 'The billing service refused this payment.' },
    });
    assert.doesNotMatch(text, /owner|rule 17/);
    fake.state.handle = (req, res) => json(res, 201, { code: 201, response: answer });
  });
});

describe('relay: no unsafe payment page is handed on (issue 12.8)', () => {
  let fake: Fake;
  let relay: Relay;
  let page: string | undefined = '';
  before(async () => {
    fake = await startFakeBilling((req, res) =>
      json(res, 201, { code: 201, response: { payment_id: 9, confirmation_url: page } }),
    );
    relay = await fake.relay();
  });
  after(async () => {
    await relay.close();
    await fake.close();
  });

  it('plain http (but to this machine), user info and other schemes are a 502; a safe page goes out serialised', async () => {
    const answers: Record<string, number> = {
      'http://pay.example/9': 502,
      'https://user:pw@pay.example/9': 502,
      'https://@pay.example/9': 502,
      'https://pay.example\\@evil.example/': 502,
      'javascript:alert(1)': 502,
      'data:text/html,hi': 502,
      'https://pay.example/9\r\nSet-Cookie: x=1': 502,
      // The widget's rule too (isPaymentPage): loopback is 127.0.0.1, not any 127.x.y.z.
      'http://127.0.0.2:9/pay/9': 502,
      'http://127.0.0.1:9/pay/9': 201,
      'http://localhost:9/pay/9': 201,
      'HTTPS://PAY.example/9': 201,
    };
    for (const [url, status] of Object.entries(answers)) {
      page = url;
      const res = await pay(relay);
      const body = (await res.json()) as { redirect_url?: string; error?: { code: string } };
      assert.equal(res.status, status, `${JSON.stringify(url)}: ${JSON.stringify(body)}`);
      if (status === 502) assert.equal(body.error?.code, 'billing_error');
    }
    page = 'HTTPS://PAY.example/9';
    assert.equal(((await (await pay(relay)).json()) as { redirect_url: string }).redirect_url, 'https://pay.example/9');
  });

  it("no page in the billing's answer: a 201 with the payment and no redirect_url (the widget calls it a bad answer)", async () => {
    page = undefined; // JSON leaves the key out
    const res = await pay(relay);
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { payment: { payment_id: 9 } });
  });
});

describe('relay: saved-method ownership fails closed (issue 12.3)', () => {
  let fake: Fake;
  /** What the billing lists, whatever agreement it is asked for (a billing that ignores the scope parameter). */
  let records: Record<string, unknown>[] = [];
  before(async () => {
    fake = await startFakeBilling((req, res) => {
      if (req.method === 'GET') return json(res, 200, { code: 200, response: { payment_methods: records } });
      json(res, 200, { code: 200, response: { payment_method_id: 1, status: 3 } });
    });
  });
  after(() => fake.close());

  const call = async (relay: Relay, method: string, path: string, agreementId = 1001) =>
    fetch(`${relay.url}${path}`, {
      method,
      headers: { origin: SHOP, authorization: `Bearer ${await createClientSession({ agreementId }, SECRET)}` },
    });
  const deletes = () => fake.calls.filter((c) => c.method === 'DELETE').length;
  /** The ids of the methods the relay lists for the session's agreement. */
  const listedIds = async (relay: Relay) =>
    (
      (await (await call(relay, 'GET', '/payment-methods')).json()) as { payment_methods: { id: number }[] }
    ).payment_methods.map((m) => m.id);

  it('a method that names no agreement is neither listed nor disabled: 404, nothing reaches the billing', async () => {
    records = [{ payment_method_id: 41, enable_auto_payments: true, title: 'Someone’s card' }];
    const relay = await fake.relay({ SESSION_SECRET: SECRET });
    try {
      assert.deepEqual(await (await call(relay, 'GET', '/payment-methods')).json(), { payment_methods: [] });
      const before = deletes();
      const res = await call(relay, 'DELETE', '/payment-methods/41');
      assert.equal(res.status, 404);
      assert.equal(deletes(), before, 'no DELETE reached the billing');
    } finally {
      await relay.close();
    }
  });

  it('a method is proved the session’s by its agreement field (its name configurable), another agreement’s is not', async () => {
    records = [
      { payment_method_id: 41, agreement_id: 1001, enable_auto_payments: true },
      { payment_method_id: 42, agreement_id: '1002', enable_auto_payments: true },
      { payment_method_id: 43, agreement_id: '01001', enable_auto_payments: true },
    ];
    const relay = await fake.relay({ SESSION_SECRET: SECRET });
    try {
      assert.deepEqual(await listedIds(relay), [41]);
      assert.equal((await call(relay, 'DELETE', '/payment-methods/42')).status, 404);
      assert.equal((await call(relay, 'DELETE', '/payment-methods/41')).status, 200);
    } finally {
      await relay.close();
    }
    records = [{ payment_method_id: 44, contract: 1001 }];
    const named = await fake.relay({ SESSION_SECRET: SECRET, PAYMENT_METHODS_AGREEMENT_FIELD: 'contract' });
    try {
      assert.deepEqual(await listedIds(named), [44]);
    } finally {
      await named.close();
    }
  });

  it('PAYMENT_METHODS_TRUST_BILLING_SCOPE=true takes the billing’s scoped list as proof', async () => {
    records = [{ payment_method_id: 41, enable_auto_payments: true }];
    const relay = await fake.relay({ SESSION_SECRET: SECRET, PAYMENT_METHODS_TRUST_BILLING_SCOPE: 'true' });
    try {
      assert.deepEqual(await listedIds(relay), [41]);
      assert.equal((await call(relay, 'DELETE', '/payment-methods/41')).status, 200);
    } finally {
      await relay.close();
    }
  });
});
