import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AUTOPAY_A, errorMessage, params, payment, start, type Client } from './helpers.js';

describe('sandbox: POST /eps_payments', () => {
  let client: Client;
  before(async () => {
    client = await start();
  });
  after(() => client.close());

  const agreementOf = (paymentId: number) => client.sandbox.store.payments.get(paymentId)?.agreement_id;

  it('creates a pending payment and answers 201 with its hosted page', async () => {
    const answer = await client.api('POST', '/eps_payments', payment('A'));
    assert.equal(answer.status, 201);
    const response = (answer.body as { response: Record<string, unknown> }).response;
    assert.deepEqual(Object.keys(response).sort(), ['amount', 'confirmation_url', 'payment_id', 'status']);
    assert.equal(response.status, 'pending');
    assert.equal(response.amount, '1500.50');
    assert.equal(response.confirmation_url, `${client.sandbox.url}/pay/${response.payment_id}`);
    const stored = client.sandbox.store.payments.get(response.payment_id as number)!;
    assert.equal(stored.amount, 150050n);
    assert.equal(stored.system, 'A');
    assert.equal(stored.status, 'pending');
  });

  it('reads the amount exactly as the relay writes it: the JSON number 1500.50, and 0.10, 0.20, 99999.99', async () => {
    const send = async (literal: string) => {
      const body = JSON.stringify({ ...payment('C'), amount: 0 }).replace('"amount":0', `"amount":${literal}`);
      assert.ok(body.includes(`"amount":${literal}`));
      const answer = await client.api('POST', '/eps_payments', body);
      assert.equal(answer.status, 201, literal);
      const response = (answer.body as { response: { payment_id: number; amount: string } }).response;
      return { text: response.amount, minor: client.sandbox.store.payments.get(response.payment_id)!.amount };
    };
    assert.deepEqual(await send('1500.50'), { text: '1500.50', minor: 150050n });
    assert.deepEqual(await send('0.10'), { text: '0.10', minor: 10n });
    assert.deepEqual(await send('0.2'), { text: '0.20', minor: 20n });
    assert.deepEqual(await send('99999.99'), { text: '99999.99', minor: 9999999n });
    assert.deepEqual(await send('7'), { text: '7.00', minor: 700n });
    const last = client.sandbox.calls.at(-1)!;
    assert.match(last.rawBody, /"amount":7,/);
    assert.equal((last.body as { amount: number }).amount, 7);
  });

  it('finds agreement 1001 by every lookup kind', async () => {
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
      const created = await client.pay(
        payment('C', {}, { agreement_param_id: Number(kind), agreement_param_value: value }),
      );
      assert.equal(agreementOf(created.payment_id), 1001, `kind ${kind} = ${value}`);
    }
  });

  it('scopes lookups: values of the other client find agreement 1002, and a client-level kind takes the first agreement', async () => {
    const other: Array<[number, string]> = [
      [5, 'AG-1002'],
      [1, 'other'],
      [7, 'other@example.com'],
      [10, '2'],
      [15, '7728168971'],
      [11, '1002'],
    ];
    for (const [kind, value] of other) {
      const created = await client.pay(payment('C', {}, { agreement_param_id: kind, agreement_param_value: value }));
      assert.equal(agreementOf(created.payment_id), 1002, `kind ${kind} = ${value}`);
    }
    // The demo client also holds offer agreement 1003; by id it is found directly.
    const offer = await client.pay(payment('C', {}, { agreement_param_id: 11, agreement_param_value: '1003' }));
    assert.equal(agreementOf(offer.payment_id), 1003);
    // E-mail and full name ignore case and extra spaces.
    const email = await client.pay(
      payment('C', {}, { agreement_param_id: 7, agreement_param_value: ' Client@Example.COM ' }),
    );
    assert.equal(agreementOf(email.payment_id), 1001);
    const name = await client.pay(payment('C', {}, { agreement_param_id: 4, agreement_param_value: 'ivan   petrov' }));
    assert.equal(agreementOf(name.payment_id), 1001);
  });

  it('answers 404 "agreement not found" when the lookup finds nothing, and stores no payment', async () => {
    const before = client.sandbox.store.payments.size;
    const misses: Array<[number, string]> = [
      [5, 'AG-9999'],
      [1, 'nobody'],
      [7, 'x@example.com'],
      [10, '99'],
      [11, '1'],
      [14, '1001'],
      [15, '500100732259'],
      [11, 'abc'],
    ];
    for (const [kind, value] of misses) {
      const answer = await client.api(
        'POST',
        '/eps_payments',
        payment('C', {}, { agreement_param_id: kind, agreement_param_value: value }),
      );
      assert.equal(answer.status, 404, `kind ${kind} = ${value}`);
      assert.deepEqual(answer.body, { code: 404, error: { message: 'agreement not found' } });
    }
    assert.equal(client.sandbox.store.payments.size, before);
  });

  it('refuses an eps_uuid that is not one of the three systems', async () => {
    const answer = await client.api('POST', '/eps_payments', payment('A', {}, { eps_uuid: 'sandbox-eps-d' }));
    assert.equal(answer.status, 400);
    assert.match(errorMessage(answer), /^eps_uuid: /);
  });

  it('refuses amounts that are not a JSON number > 0 with at most two decimals', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['1500.50', /^amount: expected number, received string/],
      [0, /\(amount_positive\)$/],
      [-5, /\(amount_positive\)$/],
      [10.005, /\(amount_decimals\)$/],
      [1e-7, /\(amount_format\)$/],
      [1e21, /\(amount_format\)$/],
      [10_000_000_000_000, /\(amount_max\)$/],
      [null, /^amount: expected number/],
    ];
    for (const [amount, expected] of cases) {
      const answer = await client.api('POST', '/eps_payments', payment('C', {}, { amount }));
      assert.equal(answer.status, 400, String(amount));
      assert.match(errorMessage(answer), expected, String(amount));
    }
  });

  it('refuses a lookup kind outside the spec and a blank or non-text value', async () => {
    const kind = await client.api('POST', '/eps_payments', payment('C', {}, { agreement_param_id: 3 }));
    assert.equal(kind.status, 400);
    assert.equal(errorMessage(kind), 'agreement_param_id: 3 is not one of 1, 4, 5, 6, 7, 8, 10, 11, 14, 15');
    const blank = await client.api('POST', '/eps_payments', payment('C', {}, { agreement_param_value: '  ' }));
    assert.equal(blank.status, 400);
    assert.match(errorMessage(blank), /^agreement_param_value: must not be empty/);
    const number = await client.api('POST', '/eps_payments', payment('C', {}, { agreement_param_value: 1001 }));
    assert.equal(number.status, 400);
    assert.match(errorMessage(number), /^agreement_param_value: expected string/);
  });

  it("validates eps_params with the shared model and the billing's rules: unknown names, missing required ones, enable_autopayments only with saving", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [payment('C', { is_autopayment: true }), /eps_params\.is_autopayment: .*\(unknown_param\)/],
      [payment('A', { enable_autopayments: true }), /eps_params\.enable_autopayments: .*\(link_rule\)/],
      [
        payment('A', { enable_autopayments: 'true', save_payment_method: 'false' }),
        /eps_params\.enable_autopayments: .*\(link_rule\)/,
      ],
      [payment('A', { save_payment_method: 'yes' }), /eps_params\.save_payment_method: .*\(boolean\)/],
      [{ ...payment('C'), eps_params: [] }, /eps_params\.return_url: .*\(required\)/],
      [
        payment('A', { confirmation_return_url: 'javascript:alert(1)' }),
        /eps_params\.confirmation_return_url: .*\(url\)/,
      ],
      [payment('B', { is_autopayment: 'yes' }), /eps_params\.is_autopayment: .*\(boolean\)/],
      [
        {
          ...payment('C'),
          eps_params: [
            ...params({ return_url: 'https://a.example/' }),
            ...params({ return_url: 'https://b.example/' }),
          ],
        },
        /duplicate_param/,
      ],
      [{ ...payment('C'), eps_params: [{ name: 'return_url' }] }, /^eps_params\[0\]\.value: required$/],
      [
        { ...payment('C'), eps_params: [{ name: '__proto__', value: { return_url: 'https://evil.example/' } }] },
        /eps_params\.__proto__: .*\(unknown_param\)/,
      ],
    ];
    for (const [body, expected] of cases) {
      const answer = await client.api('POST', '/eps_payments', body);
      assert.equal(answer.status, 400, JSON.stringify(body.eps_params));
      assert.match(errorMessage(answer), expected);
    }
    assert.equal((await client.api('POST', '/eps_payments', payment('A', AUTOPAY_A))).status, 201);
  });

  it('refuses a body that is not JSON, not a JSON object, not labelled JSON, or has unknown fields', async () => {
    const invalid = await client.api('POST', '/eps_payments', '{"eps_uuid": ');
    assert.equal(invalid.status, 400);
    assert.equal(errorMessage(invalid), 'the body is not valid JSON');
    const array = await client.api('POST', '/eps_payments', '[]');
    assert.equal(array.status, 400);
    assert.match(errorMessage(array), /^body: expected object/);
    const extra = await client.api('POST', '/eps_payments', payment('C', {}, { currency: 'RUB' }));
    assert.equal(extra.status, 400);
    assert.equal(errorMessage(extra), 'currency: not a field of this request');
    const token = await client.token();
    const text = await fetch(`${client.sandbox.baseUrl}/eps_payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: JSON.stringify(payment('C')),
    });
    assert.equal(text.status, 415);
    const empty = await fetch(`${client.sandbox.baseUrl}/eps_payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(empty.status, 400);
    assert.deepEqual(await empty.json(), { code: 400, error: { message: 'a JSON body is required' } });
    const huge = await client.api('POST', '/eps_payments', { ...payment('C'), pad: 'x'.repeat(70_000) });
    assert.equal(huge.status, 413);
  });

  it('logs every API request as received, including refused ones', async () => {
    const before = client.sandbox.calls.length;
    const body = payment('B', { is_autopayment: true });
    const token = await client.token();
    await client.api('POST', '/eps_payments?trace=1', body, token);
    await client.api('POST', '/eps_payments', body, 'stale');
    const [authCall, ok, refused] = client.sandbox.calls.slice(before);
    assert.deepEqual(
      { ...authCall, authorization: authCall?.authorization?.slice(0, 6) },
      {
        method: 'GET',
        path: '/auth',
        query: '',
        authorization: 'Basic ',
        traceparent: null,
        body: undefined,
        rawBody: '',
        status: 200,
      },
    );
    assert.deepEqual(ok, {
      method: 'POST',
      path: '/eps_payments',
      query: 'trace=1',
      authorization: `Bearer ${token}`,
      traceparent: null,
      body,
      rawBody: JSON.stringify(body),
      status: 201,
    });
    assert.equal(refused?.status, 401);
    assert.equal(refused?.authorization, 'Bearer stale');
    assert.deepEqual(refused?.body, body);
  });
});

describe('sandbox: options', () => {
  it('takes its own eps_uuid values and builds hosted-page links on publicUrl', async () => {
    const client = await start({
      epsUuids: { A: 'uuid-a', B: 'uuid-b', C: 'uuid-c' },
      publicUrl: 'https://sandbox.example/',
    });
    try {
      const created = await client.pay(payment('C', {}, { eps_uuid: 'uuid-c' }));
      assert.equal(created.confirmation_url, `https://sandbox.example/pay/${created.payment_id}`);
      assert.equal(client.sandbox.store.payments.get(created.payment_id)?.system, 'C');
      assert.equal(
        (await client.api('POST', '/eps_payments', payment('C'))).status,
        400,
        'the default sandbox-eps-c is not one of them',
      );
    } finally {
      await client.close();
    }
  });
});
