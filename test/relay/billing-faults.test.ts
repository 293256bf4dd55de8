import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer } from 'node:net';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { startFakeBilling } from './fake-billing.js';
import { CREDENTIALS, SHOP, epsCalls, paymentA, startStack, waitFor, type Stack } from './harness.js';
import { tcpProxy, type TcpProxy } from './tcp-proxy.js';

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records the relay's refused connections to `port` (undici's diagnostics channel) and calls `onRefused` on each. */
function watchRefusals(port: () => number, onRefused: (count: number) => void = () => {}) {
  const refused: string[] = [];
  const listener = (message: unknown) => {
    const { connectParams, error } = message as { connectParams: { port: string | number }; error: { code?: string } };
    if (Number(connectParams.port) !== port()) return;
    refused.push(error.code ?? String(error));
    onRefused(refused.length);
  };
  diagnosticsChannel.subscribe('undici:client:connectError', listener);
  return { refused, stop: () => diagnosticsChannel.unsubscribe('undici:client:connectError', listener) };
}

describe('relay → sandbox: tokens', () => {
  let stack: Stack;
  let shortLived: Stack;
  before(async () => {
    // The production deadline, not the harness's 2 s: 40 payments at once on a loaded CI machine took longer once.
    const env = { BILLING_TIMEOUT_MS: '10000' };
    stack = await startStack({ env });
    shortLived = await startStack({ sandbox: { tokenTtlSeconds: 1 }, env });
  });
  after(async () => {
    await stack.close();
    await shortLived.close();
  });

  it('one GET /auth serves many concurrent payments', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => stack.post(paymentA())));
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([201]), 'every payment made');
    assert.equal(stack.sandbox.counts.auth, 1);
  });

  it('refreshes the token before it expires', async () => {
    const stack = shortLived;
    assert.equal((await stack.post(paymentA())).status, 201);
    const authBefore = stack.sandbox.counts.auth;
    await new Promise((r) => setTimeout(r, 1100));
    const res = await stack.post(paymentA());
    assert.equal(res.status, 201);
    assert.equal(stack.sandbox.counts.auth, authBefore + 1);
  });

  it('on a 401 refreshes once and retries once', async () => {
    const authBefore = stack.sandbox.counts.auth;
    const callsBefore = epsCalls(stack).length;
    stack.sandbox.revokeTokens();
    const res = await stack.post(paymentA());
    assert.equal(res.status, 201);
    assert.equal(stack.sandbox.counts.auth, authBefore + 1);
    assert.equal(epsCalls(stack).length, callsBefore + 2, 'the refused call and its one retry');
  });
});

describe('relay → sandbox: GET /auth is retried with backoff', () => {
  let stack: Stack;
  beforeEach(async () => {
    stack = await startStack(); // a relay without a token yet
  });
  afterEach(() => stack.close());

  it('/auth answering 503 twice, then a token: the payment goes through (3 /auth calls, 1 POST /eps_payments)', async () => {
    stack.sandbox.faults.auth = { status: 503, times: 2 };
    const res = await stack.post(paymentA());
    assert.equal(res.status, 201);
    assert.equal(stack.sandbox.counts.auth, 3);
    assert.equal(epsCalls(stack).length, 1);
  });

  it('/auth answering 503 three times: a 502 after three tries with pauses between them, and no POST /eps_payments', async () => {
    stack.sandbox.faults.auth = { status: 503, times: 3 };
    const started = performance.now();
    const res = await stack.post(paymentA());
    assert.equal(res.status, 502);
    assert.equal((await errorOf(res)).code, 'billing_error');
    assert.ok(performance.now() - started >= 300, 'backs off between the tries (100 ms, then 300 ms)');
    assert.equal(stack.sandbox.counts.auth, 3, 'three tries, not more');
    assert.equal(epsCalls(stack).length, 0);
    assert.equal(stack.sandbox.calls.filter((c) => c.path.endsWith('/eps_payments')).length, 0);
  });
});

describe('relay → billing: a connection refused before anything was sent', () => {
  let stack: Stack;
  let proxy: TcpProxy;
  before(async () => {
    proxy = await tcpProxy();
    stack = await startStack({ env: { BILLING_BASE_URL: `http://127.0.0.1:${proxy.port}/api/rest/v1` } });
    proxy.target = stack.sandbox.url;
  });
  after(async () => {
    await stack.close();
    await proxy.close();
  });

  /** A token in the relay's cache (through the proxy), then the proxy stops listening. */
  async function tokenThenRefuse() {
    await proxy.open();
    assert.equal((await fetch(`${stack.relay.url}/readyz`)).status, 200);
    await proxy.close();
    await sleep(30); // the relay's pool sees its keep-alive connection closed
  }

  it('POST /eps_payments is sent once more after a refused connection, and the payment is made once', async () => {
    await tokenThenRefuse();
    const before = epsCalls(stack).length;
    // Listening again as soon as the first attempt is refused, well before the relay's second attempt (100 ms later).
    const watch = watchRefusals(
      () => proxy.port,
      (count) => count === 1 && void proxy.open().catch(() => {}),
    );
    try {
      const res = await stack.post(paymentA());
      assert.equal(res.status, 201, await res.clone().text());
      assert.deepEqual(watch.refused, ['ECONNREFUSED'], 'the first attempt was refused');
      assert.equal(epsCalls(stack).length, before + 1);
    } finally {
      watch.stop();
    }
  });

  it('refused twice: a 502 billing_unavailable, nothing paid, and the Idempotency-Key is free for a retry', async () => {
    await tokenThenRefuse();
    const before = epsCalls(stack).length;
    const paymentsBefore = stack.sandbox.store.payments.size;
    const key = randomUUID();
    const watch = watchRefusals(() => proxy.port);
    try {
      const res = await stack.post(paymentA(), { 'idempotency-key': key });
      assert.equal(res.status, 502);
      assert.equal((await errorOf(res)).code, 'billing_unavailable');
      assert.deepEqual(watch.refused, ['ECONNREFUSED', 'ECONNREFUSED'], 'one more attempt, then it gives up');
    } finally {
      watch.stop();
    }
    assert.equal(epsCalls(stack).length, before);
    assert.equal(stack.sandbox.store.payments.size, paymentsBefore, 'nothing was paid');
    await proxy.open();
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.status, 201, 'the request never reached the billing: the key was not kept');
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(epsCalls(stack).length, before + 1);
  });
});

describe('relay → sandbox: billing failures', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { BILLING_TIMEOUT_MS: '300' } });
  });
  after(() => stack.close());

  it('a billing that answers 500 is a 502', async () => {
    stack.sandbox.faults.epsPayments = { status: 500, times: 1 };
    const res = await stack.post(paymentA());
    assert.equal(res.status, 502);
    assert.equal((await errorOf(res)).code, 'billing_error');
  });

  it('a billing that refuses the relay (403) or is busy (429) is the billing’s problem, not the client’s: 502 and 503', async () => {
    stack.sandbox.faults.epsPayments = { status: 403, times: 1 };
    const forbidden = await stack.post(paymentA());
    assert.equal(forbidden.status, 502);
    assert.equal((await errorOf(forbidden)).code, 'billing_error');
    stack.sandbox.faults.epsPayments = { status: 429, times: 1 };
    const key = randomUUID();
    const busy = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(busy.status, 503);
    assert.ok(Number(busy.headers.get('retry-after')) >= 1, 'says when to try again');
    assert.equal((await errorOf(busy)).code, 'billing_unavailable');
    // Refused unread: the key stays free, and the retry pays.
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    stack.sandbox.faults.epsPayments = { status: 400, times: 1 };
    const refused = await stack.post(paymentA());
    assert.equal(refused.status, 422, 'any other 4xx refuses the payment itself');
    assert.equal((await errorOf(refused)).code, 'billing_rejected');
  });

  it('a billing that is too slow is a 504, within the timeout; sent once, and a retry replays the 504', async () => {
    const before = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { delayMs: 4000, times: 1 };
    const key = randomUUID();
    const started = Date.now();
    const res = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(res.status, 504);
    assert.equal((await errorOf(res)).code, 'billing_timeout');
    assert.ok(Date.now() - started < 3000, 'answered at the timeout (300 ms), not when the billing finished (4 s)');
    assert.equal(epsCalls(stack).length, before + 1, 'it may have reached the billing: sent once, never again');
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.status, 504);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true', 'the client’s retry replays, it does not pay twice');
    assert.equal((await errorOf(retry)).code, 'billing_timeout');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('a billing that drops the connection mid-request is a 502, and the request is not sent again', async () => {
    const before = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { drop: true, times: 1 };
    const key = randomUUID();
    const res = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(res.status, 502);
    assert.equal((await errorOf(res)).code, 'billing_unavailable');
    assert.equal(epsCalls(stack).length, before + 1, 'it may have reached the billing: no blind retry');
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.headers.get('idempotent-replayed'), 'true', 'the client’s retry replays, it does not pay twice');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('a billing that returns garbage is a 502; sent once, and a retry replays the 502', async () => {
    const before = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { garbage: '<html>502 Bad Gateway</html>', times: 1 };
    const key = randomUUID();
    const res = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(res.status, 502);
    assert.equal((await errorOf(res)).code, 'billing_error');
    assert.equal(
      epsCalls(stack).length,
      before + 1,
      'the billing answered (it may have acted): sent once, never again',
    );
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.status, 502);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true', 'the client’s retry replays, it does not pay twice');
    assert.equal((await errorOf(retry)).code, 'billing_error');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('a billing that answers 401 even to a token it just issued: one refresh, one retry, then a 502', async () => {
    await stack.post(paymentA()); // a token in the cache
    const authBefore = stack.sandbox.counts.auth;
    const before = epsCalls(stack).length;
    const paymentsBefore = stack.sandbox.store.payments.size;
    stack.sandbox.faults.epsPayments = { status: 401, times: 2 };
    const res = await stack.post(paymentA());
    assert.equal(res.status, 502);
    assert.equal((await errorOf(res)).code, 'billing_error');
    assert.equal(stack.sandbox.counts.auth, authBefore + 1);
    assert.equal(epsCalls(stack).length, before + 2);
    assert.equal(stack.sandbox.store.payments.size, paymentsBefore, 'no payment was created');
  });

  it('a billing whose /auth fails is a 502 and nothing is paid', async () => {
    const relayWithoutToken = await startStack({ sandbox: { password: 'another-password' } });
    try {
      const res = await relayWithoutToken.post(paymentA());
      assert.equal(res.status, 502);
      assert.equal((await errorOf(res)).code, 'billing_error');
      assert.equal(epsCalls(relayWithoutToken).length, 0);
    } finally {
      await relayWithoutToken.close();
    }
  });

  it('a billing that is down is a 502', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const down = await startStack({ env: { BILLING_BASE_URL: `http://127.0.0.1:${closedPort}/api/rest/v1` } });
    try {
      const res = await down.post(paymentA());
      assert.equal(res.status, 502);
      assert.equal((await errorOf(res)).code, 'billing_unavailable');
    } finally {
      await down.close();
    }
  });
});

describe('relay → sandbox: no secret in error answers or logs', () => {
  const SESSION_SECRET = 'a-session-secret-of-at-least-32-bytes-for-tests';
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { BILLING_TIMEOUT_MS: '300', SESSION_SECRET } });
  });
  after(() => stack.close());

  it('with the billing failing (500, too slow, 401 on every call), no answer or log line holds the password, the Basic credentials or a token', async () => {
    const answers: string[] = [];
    const keep = async (res: Response) => {
      answers.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
      return res.status;
    };
    const pay = () => stack.post(paymentA()).then(keep);
    const { faults } = stack.sandbox;

    assert.equal(await pay(), 201); // a token in use
    faults.epsPayments = { status: 500, times: 1 };
    assert.equal(await pay(), 502);
    faults.epsPayments = { delayMs: 2000, times: 1 };
    assert.equal(await pay(), 504);
    faults.epsPayments = { status: 401 }; // every call: the token is refused, a fresh one too
    assert.equal(await pay(), 502);
    delete faults.epsPayments;
    faults.auth = { status: 401 }; // the credentials refused: no token can be had
    stack.sandbox.revokeTokens();
    assert.equal(await pay(), 502);
    assert.equal(await keep(await fetch(`${stack.relay.url}/readyz`)), 503);
    const session = await createClientSession({ agreementId: 1001 }, SESSION_SECRET);
    assert.equal(
      await keep(
        await fetch(`${stack.relay.url}/payment-methods`, {
          headers: { origin: SHOP, authorization: `Bearer ${session}` },
        }),
      ),
      502,
    );
    delete faults.auth;

    const tokens = [
      ...new Set(
        stack.sandbox.calls.flatMap((c) => (c.authorization?.startsWith('Bearer ') ? [c.authorization.slice(7)] : [])),
      ),
    ];
    assert.ok(tokens.length >= 2, 'the relay was issued a second token after the 401');
    const basic = Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64');
    assert.ok(
      stack.sandbox.calls.some((c) => c.authorization === `Basic ${basic}`),
      'the relay sent these Basic credentials',
    );
    const logs = stack.logLines.join('');
    assert.ok(
      stack.logLines.filter((line) => JSON.parse(line).level >= 50).length >= 6,
      'the failures are logged as errors, with their causes',
    );
    for (const secret of [CREDENTIALS.password, basic, ...tokens]) {
      for (const answer of answers) assert.ok(!answer.includes(secret), `an answer holds a secret: ${answer}`);
      assert.ok(!logs.includes(secret), 'a log line holds a secret');
    }
  });
});

describe('relay → billing: one time limit for the whole call', () => {
  it('an answer dripped a byte at a time (each within the body timeout) is cut at BILLING_TIMEOUT_MS: a 504, the connection dropped', async () => {
    let dropped = 0;
    const body = JSON.stringify({ code: 201, response: { payment_id: 1, confirmation_url: 'https://pay.example/1' } });
    const fake = await startFakeBilling((req, res) => {
      res.on('close', () => (dropped += res.writableFinished ? 0 : 1));
      res.writeHead(201, { 'content-type': 'application/json' });
      let sent = 0;
      // 100 ms between bytes: under the body timeout (the 600 ms of BILLING_TIMEOUT_MS), the whole answer about 9 s.
      const drip = setInterval(() => {
        if (res.destroyed) return clearInterval(drip);
        res.write(body[sent]);
        sent += 1;
        if (sent === body.length) {
          clearInterval(drip);
          res.end();
        }
      }, 100);
    });
    const relay = await fake.relay({ BILLING_TIMEOUT_MS: '600' });
    try {
      const started = performance.now();
      const res = await fetch(`${relay.url}/payments`, {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json' },
        body: JSON.stringify(paymentA()),
      });
      assert.equal(res.status, 504);
      assert.equal((await errorOf(res)).code, 'billing_timeout');
      assert.ok(
        performance.now() - started < 3_000,
        `answered after ${Math.round(performance.now() - started)} ms, not at the time limit (600 ms)`,
      );
      await waitFor(() => dropped === 1, 2_000).catch(() => assert.fail('the billing connection was not dropped'));
    } finally {
      await relay.close();
      await fake.close();
    }
  });
});
