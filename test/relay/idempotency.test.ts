import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { epsCalls, paymentA, SHOP, startStack, type Stack } from './harness.js';

describe('relay: Idempotency-Key', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('the same key and request replays the first answer without calling the billing again', async () => {
    const key = randomUUID();
    const before = epsCalls(stack).length;
    const first = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(first.status, 201);
    const firstBody = await first.text();
    // The same payment written differently (other key order, amount as a number) is the same request.
    const { eps_params, ...rest } = paymentA();
    const again = await stack.post(
      { eps_params: [...eps_params].reverse(), ...rest, amount: 1500.5 },
      { 'idempotency-key': key },
    );
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(await again.text(), firstBody);
    // A replay answers a browser like the first answer did: CORS, its own request id, the security headers.
    assert.equal(again.headers.get('access-control-allow-origin'), SHOP);
    assert.match(again.headers.get('x-request-id') ?? '', /^[\w-]+$/);
    assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
    assert.equal(again.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(again.headers.get('cache-control'), 'no-store');
    assert.match(again.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('the same key with another request is a 422 and nothing is paid', async () => {
    const key = randomUUID();
    assert.equal((await stack.post(paymentA(), { 'idempotency-key': key })).status, 201);
    const before = epsCalls(stack).length;
    const res = await stack.post({ ...paymentA(), amount: '1.00' }, { 'idempotency-key': key });
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'idempotency_key_reused');
    assert.equal(epsCalls(stack).length, before);
  });

  it('concurrent requests with one key create one payment; the others wait their turn with 409 or replay', async () => {
    const key = randomUUID();
    const before = epsCalls(stack).length;
    stack.sandbox.faults.epsPayments = { delayMs: 150, times: 1 };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => stack.post(paymentA(), { 'idempotency-key': key })),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length >= 1, true);
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      String(statuses),
    );
    for (const r of answers.filter((a) => a.status === 409)) assert.equal(r.headers.get('retry-after'), '1');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('a refused request is not stored: the key stays free for the corrected one', async () => {
    const key = randomUUID();
    const bad = await stack.post({ ...paymentA(), amount: '-1' }, { 'idempotency-key': key });
    assert.equal(bad.status, 422);
    const good = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(good.status, 201);
  });

  it('a billing failure after sending is kept: the retry replays it and cannot pay twice', async () => {
    const key = randomUUID();
    stack.sandbox.faults.epsPayments = { status: 500, times: 1 };
    const before = epsCalls(stack).length;
    const first = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(first.status, 502);
    const retry = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(retry.status, 502);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(epsCalls(stack).length, before + 1);
  });

  it('refuses a malformed key', async () => {
    const res = await stack.post(paymentA(), { 'idempotency-key': 'x'.repeat(300) });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_idempotency_key');
  });

  it('a retry of an answered payment gets its answer even when the agreement’s limit is spent; a refused attempt is not stored', async () => {
    const limited = await startStack({ env: { RATE_LIMIT_AGREEMENT: '1/60' } });
    try {
      const key = randomUUID();
      assert.equal((await limited.post(paymentA(), { 'idempotency-key': key })).status, 201);
      const retry = await limited.post(paymentA(), { 'idempotency-key': key });
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      const other = randomUUID();
      for (let i = 0; i < 2; i += 1) {
        const refused = await limited.post(paymentA(), { 'idempotency-key': other });
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get('idempotent-replayed'), null, 'a 429 is never replayed: the key stays free');
      }
      assert.equal(epsCalls(limited).length, 1);
    } finally {
      await limited.close();
    }
  });
});

describe('relay: IDEMPOTENCY_TTL_SECONDS', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { IDEMPOTENCY_TTL_SECONDS: '1' } });
  });
  after(() => stack.close());

  it('an answer is replayed within the TTL; after it, the same key is a new payment', async () => {
    const key = randomUUID();
    const before = epsCalls(stack).length;
    const first = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(first.status, 201);
    const firstPayment = ((await first.json()) as { payment: { payment_id: number } }).payment.payment_id;
    const again = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(epsCalls(stack).length, before + 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await stack.post(paymentA(), { 'idempotency-key': key });
    assert.equal(later.status, 201);
    assert.equal(later.headers.get('idempotent-replayed'), null);
    const laterPayment = ((await later.json()) as { payment: { payment_id: number } }).payment.payment_id;
    assert.notEqual(laterPayment, firstPayment, 'a new payment');
    assert.equal(epsCalls(stack).length, before + 2);
  });
});
