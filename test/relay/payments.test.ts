import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_LOOKUPS, CREDENTIALS, SHOP, epsCalls, params, paymentA, startStack, type Stack } from './harness.js';

/** A POST whose body streams in chunks, without a Content-Length. */
function postChunked(url: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
      controller.close();
    },
  });
  return fetch(url, {
    method: 'POST',
    headers: { origin: SHOP, 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('relay → sandbox: payments', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { ALLOWED_LOOKUPS: ALL_LOOKUPS } });
  });
  after(() => stack.close());

  it('GET /config tells the widget what to draw, and nothing secret', async () => {
    const res = await fetch(`${stack.relay.url}/config`, { headers: { origin: SHOP } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), SHOP);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), {
      systems: [
        { id: 'A', canSave: true, linkOnly: true },
        { id: 'B', canSave: true, linkOnly: false },
        { id: 'C', canSave: false, linkOnly: false },
      ],
      lookups: [1, 4, 5, 6, 7, 8, 10, 11, 14, 15],
      maxAmount: '100000.00',
      autopayLeadDays: 1,
    });
    assert.doesNotMatch(text, /sandbox-eps|relay-test-user|relay-test-password/);
  });

  it('GET /config carries N of the autopayments as configured, and the sandbox hands its own N to a relay', async () => {
    const configured = await startStack({ env: { AUTOPAYMENT_LEAD_DAYS: '7' } });
    const sandboxN = await startStack({ sandbox: { autopaymentLeadDays: 3 } });
    try {
      const read = async (s: Stack) =>
        (
          (await (await fetch(`${s.relay.url}/config`, { headers: { origin: SHOP } })).json()) as Record<
            string,
            unknown
          >
        ).autopayLeadDays;
      assert.equal(await read(configured), 7);
      assert.equal(await read(sandboxN), 3);
    } finally {
      await configured.close();
      await sandboxN.close();
    }
  });

  it('A with a saved method: the billing receives exactly the validated request with its eps_uuid', async () => {
    const before = epsCalls(stack).length;
    const res = await stack.post(
      paymentA({
        email: 'client@example.com',
        save_payment_method: true,
        enable_autopayments: true,
        preferred_method: true,
      }),
    );
    assert.equal(res.status, 201);
    const body = (await res.json()) as { redirect_url: string; payment: Record<string, unknown> };
    assert.match(body.redirect_url, new RegExp(`^${stack.sandbox.url}/pay/${body.payment.payment_id}$`));
    assert.deepEqual(Object.keys(body.payment), ['payment_id'], 'only the payment id of the billing’s object');
    const calls = epsCalls(stack);
    assert.equal(calls.length, before + 1);
    assert.deepEqual(calls.at(-1), {
      eps_uuid: 'sandbox-eps-a',
      amount: 1500.5,
      agreement_param_id: 5,
      agreement_param_value: 'AG-1001',
      eps_params: params({
        confirmation_type: 'redirect',
        confirmation_return_url: `${SHOP}/paid`,
        email: 'client@example.com',
        save_payment_method: true,
        enable_autopayments: true,
        preferred_method: true,
      }),
    });
  });

  it('B with autopayment and C plain: each reaches the billing with its own uuid and parameters', async () => {
    const b = await stack.post({
      system: 'B',
      amount: 99.9,
      agreement_param_id: 7,
      agreement_param_value: 'client@example.com',
      eps_params: params({
        confirmation_return_url: `${SHOP}/ok`,
        return_url_fail: `${SHOP}/fail`,
        name: 'Ivan Petrov',
        is_autopayment: true,
      }),
    });
    assert.equal(b.status, 201);
    assert.deepEqual(epsCalls(stack).at(-1), {
      eps_uuid: 'sandbox-eps-b',
      amount: 99.9,
      agreement_param_id: 7,
      agreement_param_value: 'client@example.com',
      eps_params: params({
        confirmation_return_url: `${SHOP}/ok`,
        return_url_fail: `${SHOP}/fail`,
        name: 'Ivan Petrov',
        is_autopayment: true,
      }),
    });
    const c = await stack.post({
      system: 'C',
      amount: '10',
      agreement_param_id: 11,
      agreement_param_value: '1001',
      eps_params: params({ return_url: `${SHOP}/back`, comment: 'June' }),
    });
    assert.equal(c.status, 201);
    assert.deepEqual(epsCalls(stack).at(-1), {
      eps_uuid: 'sandbox-eps-c',
      amount: 10,
      agreement_param_id: 11,
      agreement_param_value: '1001',
      eps_params: params({ return_url: `${SHOP}/back`, comment: 'June' }),
    });
  });

  it('finds the agreement by every lookup kind', async () => {
    const values: Record<number, string> = {
      1: 'demo',
      4: 'Ivan Petrov',
      5: 'AG-1001',
      6: '1C-0001',
      7: 'client@example.com',
      8: '40817810099910004312',
      10: '1',
      11: '1001',
      14: '501',
      15: '7707083893',
    };
    for (const [kind, value] of Object.entries(values)) {
      const res = await stack.post({ ...paymentA(), agreement_param_id: Number(kind), agreement_param_value: value });
      assert.equal(res.status, 201, `kind ${kind}: ${await res.clone().text()}`);
    }
  });

  it('the autopayment rule is enforced before the billing is asked', async () => {
    const before = epsCalls(stack).length;
    const res = await stack.post(paymentA({ save_payment_method: true }));
    assert.equal(res.status, 422);
    const { error } = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(Object.keys(error.fields).sort(), [
      'eps_params.enable_autopayments',
      'eps_params.preferred_method',
    ]);
    assert.equal(epsCalls(stack).length, before);
  });

  it('a body too large that streams in chunks (no Content-Length) is a 413 in the error shape, never sent', async () => {
    const before = epsCalls(stack).length;
    const res = await postChunked(
      `${stack.relay.url}/payments`,
      JSON.stringify({ ...paymentA(), padding: 'x'.repeat(20_000) }),
    );
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'payload_too_large');
    assert.equal(epsCalls(stack).length, before);
  });

  it('no credential or token ever reaches a response or a log line', async () => {
    const token = stack.sandbox.calls.find((c) => c.authorization?.startsWith('Bearer '))?.authorization?.slice(7);
    assert.ok(token, 'the relay used a bearer token');
    const res = await stack.post(paymentA({ email: 'secret.client@example.com', phone: '+7 900 123-45-67' }));
    const text = await res.text();
    const logs = stack.logLines.join('');
    assert.ok(stack.logLines.length > 5, 'requests are logged');
    for (const secret of [
      CREDENTIALS.password,
      token,
      Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64'),
    ]) {
      assert.ok(!text.includes(secret!), 'response');
      assert.ok(!logs.includes(secret!), 'logs');
    }
    assert.ok(!logs.includes('secret.client@example.com'), 'e-mails are not logged');
    const bundle = await fetch(`${stack.relay.url}/billing-pay.js`, { headers: { origin: SHOP } });
    assert.equal(bundle.status, 200, 'the widget is built before the node tests (npm test builds first)');
    assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
    assert.equal(
      bundle.headers.get('access-control-allow-origin'),
      '*',
      'a module script from the relay needs CORS: any page',
    );
    assert.equal(bundle.headers.get('cache-control'), 'public, max-age=300');
    assert.equal(bundle.headers.get('x-content-type-options'), 'nosniff');
    const served = await bundle.text();
    assert.match(served, /billing-pay/);
    for (const secret of [CREDENTIALS.password, CREDENTIALS.username, token!, 'sandbox-eps-a'])
      assert.ok(!served.includes(secret), 'served file');
    assert.ok(
      logs
        .split('\n')
        .filter(Boolean)
        .every((line) => JSON.parse(line).reqId || JSON.parse(line).msg !== 'request'),
      'request lines carry the request id',
    );
  });
});

describe('relay → sandbox: a system without its EPS_UUID', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { EPS_UUID_B: '', ALLOWED_LOOKUPS: ALL_LOOKUPS } });
  });
  after(() => stack.close());

  it('is not offered: /config omits it, and a payment with it is a 422 naming system, with no billing call', async () => {
    const config = (await (await fetch(`${stack.relay.url}/config`, { headers: { origin: SHOP } })).json()) as {
      systems: { id: string }[];
    };
    assert.deepEqual(
      config.systems.map((s) => s.id),
      ['A', 'C'],
    );
    const res = await stack.post({
      system: 'B',
      amount: '99.90',
      agreement_param_id: 7,
      agreement_param_value: 'client@example.com',
      eps_params: params({ confirmation_return_url: `${SHOP}/ok` }),
    });
    assert.equal(res.status, 422);
    const { error } = (await res.json()) as { error: { code: string; fields?: Record<string, string> } };
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(Object.keys(error.fields ?? {}), ['system']);
    assert.deepEqual(stack.sandbox.calls, [], 'the billing was not called at all');
    // The other systems still work.
    assert.equal((await stack.post(paymentA())).status, 201);
  });
});
