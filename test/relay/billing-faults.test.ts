import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { epsCalls, paymentA, startStack, type Stack } from './harness.js';

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe('relay → sandbox: tokens', () => {
  let stack: Stack;
  let shortLived: Stack;
  before(async () => {
    stack = await startStack();
    shortLived = await startStack({ sandbox: { tokenTtlSeconds: 1 } });
  });
  after(async () => {
    await stack.close();
    await shortLived.close();
  });

  it('one GET /auth serves many concurrent payments', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => stack.post(paymentA())));
    assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([201]));
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
    assert.equal(epsCalls(stack).length, before + 1, 'the billing answered (it may have acted): sent once, never again');
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
