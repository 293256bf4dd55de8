import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { epsCalls, paymentA, startStack, type Stack } from './harness.js';

describe('relay: operations', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { RATE_LIMIT_IP: '2/60', TRUST_PROXY: 'x-forwarded-for' } });
  });
  after(() => stack.close());

  it('GET /healthz and GET /readyz', async () => {
    const health = await fetch(`${stack.relay.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ready = await fetch(`${stack.relay.url}/readyz`);
    assert.equal(ready.status, 200);
    const down = await startStack({ sandbox: { password: 'not-the-relay-password' } });
    try {
      const notReady = await fetch(`${down.relay.url}/readyz`);
      assert.equal(notReady.status, 503);
      assert.equal(((await notReady.json()) as { error: { code: string } }).error.code, 'not_ready');
    } finally {
      await down.close();
    }
  });

  it('GET /readyz asks the billing now with the token in use, and never asks for a token of its own', async () => {
    const flaky = await startStack();
    try {
      assert.equal((await flaky.post(paymentA())).status, 201, 'the relay holds a token');
      const callsTo = (path: string) => flaky.sandbox.calls.filter((c) => c.path.endsWith(path)).length;
      const auth = callsTo('/auth');
      // A cached token does not make an unreachable billing ready.
      flaky.sandbox.faults.any = { status: 503 };
      const res = await fetch(`${flaky.relay.url}/readyz`);
      assert.equal(res.status, 503);
      assert.equal(callsTo('/tariffs'), 1, 'the probe reached the billing');
      // Probes a moment apart share one answer: a load balancer's probes cannot flood the billing.
      assert.equal((await fetch(`${flaky.relay.url}/readyz`)).status, 503);
      assert.equal(callsTo('/tariffs'), 1);
      // A billing that keeps one live token per credential would revoke the fleet's on a new GET /auth.
      assert.equal(callsTo('/auth'), auth, 'no GET /auth for a probe');
    } finally {
      await flaky.close();
    }
  });

  it('limits payments per client address, taken from the trusted proxy header', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await stack.post(paymentA(), { 'x-forwarded-for': `10.0.0.1, ${ip}` })).status);
    assert.deepEqual(statuses, [201, 201, 429]);
    // Another address is not affected; a client cannot pick its key by adding addresses on the left.
    assert.equal((await stack.post(paymentA(), { 'x-forwarded-for': `${ip}, 198.51.100.251` })).status, 201);
  });

  it('every answer has a request id and the security headers; API answers are not cached', async () => {
    const res = await stack.post(paymentA(), { 'x-forwarded-for': '192.0.2.77', 'idempotency-key': randomUUID() });
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('strict-transport-security'), null, 'no HSTS over plain HTTP');
    const tls = await fetch(`${stack.relay.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(tls.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
    const own = await fetch(`${stack.relay.url}/healthz`, { headers: { 'x-request-id': 'trace-abc-123' } });
    assert.equal(own.headers.get('x-request-id'), 'trace-abc-123');
  });

  it('GET /metrics exposes requests, billing latency, token refreshes, replays and rate-limit rejections', async () => {
    const key = randomUUID();
    await stack.post(paymentA(), { 'x-forwarded-for': '192.0.2.10', 'idempotency-key': key });
    await stack.post(paymentA(), { 'x-forwarded-for': '192.0.2.10', 'idempotency-key': key });
    const text = await (await fetch(`${stack.relay.metricsUrl}/metrics`)).text();
    assert.match(text, /relay_http_requests_total\{route="\/payments",method="POST",status="201"\} \d+/);
    assert.match(text, /relay_billing_request_duration_seconds_count\{operation="eps_payments",outcome="201"\} \d+/);
    assert.match(text, /relay_billing_token_refreshes_total \d+/);
    assert.match(text, /relay_idempotent_replays_total [1-9]/);
    assert.match(text, /relay_rate_limit_rejections_total\{limit="ip"\} [1-9]/);
    assert.doesNotMatch(text, /relay-test-password/);
  });
});

describe('relay: operations without TRUST_PROXY', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { RATE_LIMIT_IP: '2/60' } });
  });
  after(() => stack.close());

  it('X-Forwarded-For and X-Real-IP are ignored: a client cannot pick its own rate-limit key', async () => {
    const statuses = [];
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      statuses.push((await stack.post(paymentA(), { 'x-forwarded-for': ip, 'x-real-ip': ip })).status);
    }
    assert.deepEqual(statuses, [201, 201, 429], 'one socket address, one key, whatever the headers say');
    assert.equal(epsCalls(stack).length, 2);
  });
});
