/**
 * `POST /payments` refused before the billing, through the relay's app: every bad input is a clear 4xx in the one
 * error shape, a foreign return URL names its field, and CORS answers the merchant's origins only. The billing is
 * never asked. (Payments that reach the billing, and a body streamed without Content-Length: ../payments.test.ts.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_LOOKUPS, params } from '../harness.js';
import { SHOP, paymentA, relayApp, type RelayApp } from './app.js';

describe('relay app: a payment refused before the billing', () => {
  let relay: RelayApp;
  before(async () => {
    relay = await relayApp({ ALLOWED_LOOKUPS: ALL_LOOKUPS });
  });
  after(() => relay.close());

  it('every bad input is a clear 4xx in one shape, and never reaches the billing', async () => {
    const cases: [string, () => Response | Promise<Response>, number, string, string?][] = [
      ['foreign origin', () => relay.post(paymentA(), { origin: 'https://evil.example' }), 403, 'origin_not_allowed'],
      [
        'no origin',
        () =>
          relay.app.request('/payments', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(paymentA()),
          }),
        403,
        'origin_not_allowed',
      ],
      [
        'foreign return URL',
        () => relay.post(paymentA({ confirmation_return_url: 'https://evil.example/phish' })),
        422,
        'validation_failed',
        'eps_params.confirmation_return_url',
      ],
      [
        'unknown parameter',
        () => relay.post(paymentA({ eps_uuid: 'other' })),
        422,
        'validation_failed',
        'eps_params.eps_uuid',
      ],
      ['amount 0', () => relay.post({ ...paymentA(), amount: '0' }), 422, 'validation_failed', 'amount'],
      ['negative amount', () => relay.post({ ...paymentA(), amount: -5 }), 422, 'validation_failed', 'amount'],
      ['three decimals', () => relay.post({ ...paymentA(), amount: '10.005' }), 422, 'validation_failed', 'amount'],
      ['above max', () => relay.post({ ...paymentA(), amount: '100000.01' }), 422, 'validation_failed', 'amount'],
      ['not a number', () => relay.post({ ...paymentA(), amount: 'ten' }), 422, 'validation_failed', 'amount'],
      [
        'huge',
        () =>
          relay.post(
            `{"system":"A","amount":1e400,"agreement_param_id":5,"agreement_param_value":"AG-1001","eps_params":[]}`,
          ),
        422,
        'validation_failed',
        'amount',
      ],
      // JSON numbers that a float would silently change: the amount is checked as written.
      [
        'more decimals than a float keeps',
        () => relay.post(JSON.stringify(paymentA()).replace('"amount":"1500.50"', '"amount":10.0000000000000001')),
        422,
        'validation_failed',
        'amount',
      ],
      [
        'a number under an escaped key',
        () => relay.post(JSON.stringify(paymentA()).replace('"amount":"1500.50"', '"\\u0061mount":1e2')),
        422,
        'validation_failed',
        'amount',
      ],
      [
        'exponent',
        () => relay.post(JSON.stringify(paymentA()).replace('"amount":"1500.50"', '"amount":1e2')),
        422,
        'validation_failed',
        'amount',
      ],
      ['huge text', () => relay.post({ ...paymentA(), amount: '9'.repeat(5000) }), 422, 'validation_failed', 'amount'],
      [
        'bad lookup value',
        () => relay.post({ ...paymentA(), agreement_param_id: 15, agreement_param_value: '1234567890' }),
        422,
        'validation_failed',
        'agreement_param_value',
      ],
      ['unknown system', () => relay.post({ ...paymentA(), system: 'D' }), 422, 'validation_failed', 'system'],
      ['malformed JSON', () => relay.post('{"system": "A",'), 400, 'invalid_json'],
      [
        'wrong content type',
        () => relay.post(JSON.stringify(paymentA()), { 'content-type': 'text/plain' }),
        415,
        'unsupported_media_type',
      ],
      ['too large', () => relay.post({ ...paymentA(), padding: 'x'.repeat(20_000) }), 413, 'payload_too_large'],
      ['array body', () => relay.post([]), 422, 'validation_failed', 'body'],
    ];
    for (const [name, send, status, code, field] of cases) {
      const res = await send();
      assert.equal(res.status, status, name);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, name);
      const body = (await res.json()) as { error: { code: string; message: string; fields?: Record<string, string> } };
      assert.equal(body.error.code, code, name);
      assert.ok(body.error.message.length > 10, name);
      if (field) assert.ok(body.error.fields?.[field], `${name}: ${JSON.stringify(body.error.fields)}`);
    }
    assert.deepEqual(relay.billingCalls, [], 'no bad request reached the billing');
  });

  it('a foreign return URL of B or C is a 422 naming the field, and the billing is not asked', async () => {
    const b = (extra: Record<string, unknown>) => ({
      system: 'B',
      amount: '99.90',
      agreement_param_id: 7,
      agreement_param_value: 'client@example.com',
      eps_params: params({ confirmation_return_url: `${SHOP}/ok`, return_url_fail: `${SHOP}/fail`, ...extra }),
    });
    const c = (returnUrl: string) => ({
      system: 'C',
      amount: '10',
      agreement_param_id: 11,
      agreement_param_value: '1001',
      eps_params: params({ return_url: returnUrl }),
    });
    const cases: [string, unknown, string][] = [
      [
        'B confirmation_return_url',
        b({ confirmation_return_url: 'https://evil.example/ok' }),
        'eps_params.confirmation_return_url',
      ],
      ['B return_url_fail', b({ return_url_fail: 'https://evil.example/fail' }), 'eps_params.return_url_fail'],
      [
        'B return_url_fail on another port',
        b({ return_url_fail: 'http://shop.test:8081/fail' }),
        'eps_params.return_url_fail',
      ],
      ['C return_url', c('https://evil.example/back'), 'eps_params.return_url'],
      ['C return_url on a look-alike host', c('http://shop.test.evil.example:8080/back'), 'eps_params.return_url'],
    ];
    for (const [name, body, field] of cases) {
      const res = await relay.post(body);
      assert.equal(res.status, 422, name);
      const { error } = (await res.json()) as { error: { code: string; fields?: Record<string, string> } };
      assert.equal(error.code, 'validation_failed', name);
      assert.deepEqual(Object.keys(error.fields ?? {}), [field], name);
    }
    assert.deepEqual(relay.billingCalls, [], 'no foreign return URL reached the billing');
  });

  it('CORS answers the merchant’s origins only', async () => {
    const preflight = (origin: string) =>
      relay.app.request('/payments', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,idempotency-key',
        },
      });
    const ok = await preflight(SHOP);
    assert.equal(ok.headers.get('access-control-allow-origin'), SHOP);
    assert.match(ok.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/i);
    const foreign = await preflight('https://evil.example');
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
  });

  it('a valid payment does reach the billing: the refusals above are the relay’s', async () => {
    const res = await relay.post(paymentA());
    assert.equal(res.status, 500, 'this billing refuses every call');
    assert.deepEqual(relay.billingCalls.splice(0), ['createPayment']);
  });
});
