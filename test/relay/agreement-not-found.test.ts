import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAgreementNotFound } from '../../src/relay/billing/agreement-not-found.js';
import { loadConfig } from '../../src/relay/config/load.js';
import { SHOP, epsCalls, params, paymentA, startStack, type Stack } from './harness.js';

type ErrorAnswer = {
  error: { code: string; message: string; fields?: Record<string, { problem: string; message: string }> };
};

const payments = {
  A: (value: string) => ({ ...paymentA(), agreement_param_value: value }),
  B: (value: string) => ({
    system: 'B',
    amount: '99.90',
    agreement_param_id: 5,
    agreement_param_value: value,
    eps_params: params({ confirmation_return_url: `${SHOP}/ok` }),
  }),
  C: (value: string) => ({
    system: 'C',
    amount: '10',
    agreement_param_id: 5,
    agreement_param_value: value,
    eps_params: params({ return_url: `${SHOP}/back` }),
  }),
};

describe('relay → sandbox: an agreement the billing cannot find', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('is a 422 agreement_not_found on agreement_param_value, as a problem key with its English text, for A, B and C', async () => {
    for (const [system, payment] of Object.entries(payments)) {
      const res = await stack.post(payment('AG-9999'));
      assert.equal(res.status, 422, system);
      const { error } = (await res.json()) as ErrorAnswer;
      assert.equal(error.code, 'agreement_not_found', system);
      assert.deepEqual(error.fields, {
        agreement_param_value: { problem: 'agreement_not_found', message: 'No agreement was found by this value.' },
      });
    }
  });

  it('frees the Idempotency-Key: the same request goes to the billing again, a corrected one with that key goes through', async () => {
    const key = 'not-found-then-fixed';
    const before = epsCalls(stack).length;
    const first = await stack.post(payments.A('AG-9999'), { 'idempotency-key': key });
    assert.equal(((await first.json()) as ErrorAnswer).error.code, 'agreement_not_found');
    const again = await stack.post(payments.A('AG-9999'), { 'idempotency-key': key });
    assert.equal(again.status, 422);
    assert.equal(again.headers.get('idempotent-replayed'), null, 'the failure is not replayed');
    assert.equal(epsCalls(stack).length, before + 2, 'the billing was asked again');

    const fixed = await stack.post(payments.A('AG-1001'), { 'idempotency-key': key });
    assert.equal(fixed.status, 201, await fixed.clone().text());
    // …and from then on that key is the payment's: a retry replays it, no second payment.
    const replay = await stack.post(payments.A('AG-1001'), { 'idempotency-key': key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(epsCalls(stack).length, before + 3);
  });

  it('a billing that answers 404, whatever its words, is read as no agreement found (AGREEMENT_NOT_FOUND_STATUS)', async () => {
    stack.sandbox.faults.epsPayments = { status: 404, times: 1 };
    const res = await stack.post(payments.B('AG-1001'));
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as ErrorAnswer).error.code, 'agreement_not_found');
  });

  it('with AGREEMENT_NOT_FOUND_STATUS empty, a 404 is read by its words only', async () => {
    const other = await startStack({ env: { AGREEMENT_NOT_FOUND_STATUS: '' } });
    try {
      other.sandbox.faults.epsPayments = { status: 404, times: 1 };
      const injected = await other.post(payments.A('AG-1001'));
      assert.equal(((await injected.json()) as ErrorAnswer).error.code, 'billing_rejected', 'a 404 without the words');
      const real = await other.post(payments.A('AG-9999'));
      assert.equal(
        ((await real.json()) as ErrorAnswer).error.code,
        'agreement_not_found',
        'the sandbox says "agreement not found"',
      );
    } finally {
      await other.close();
    }
  });
});

describe('isAgreementNotFound', () => {
  const rule = loadConfig({
    BILLING_BASE_URL: 'https://billing.example/api/rest/v1',
    BILLING_USERNAME: 'u',
    BILLING_PASSWORD: 'p',
    EPS_UUID_A: 'a',
    ALLOWED_ORIGINS: 'https://shop.example',
  }).agreementNotFound;

  it('reads the default statuses and the words of the usual error shapes', () => {
    assert.equal(isAgreementNotFound(404, undefined, rule), true, 'a 404 with no body');
    assert.equal(isAgreementNotFound(400, { code: 400, error: { message: 'Agreement not found' } }, rule), true);
    assert.equal(isAgreementNotFound(422, { error: 'No such agreement' }, rule), true);
    assert.equal(
      isAgreementNotFound(400, { message: 'agreement with agreement_param_value AG-9 was not found' }, rule),
      true,
    );
    assert.equal(isAgreementNotFound(400, { error: { code: 'NO_AGREEMENT' } }, rule), true);
  });

  it('leaves other refusals and non-4xx answers alone', () => {
    assert.equal(isAgreementNotFound(400, { error: { message: 'amount: too many decimals' } }, rule), false);
    assert.equal(isAgreementNotFound(409, 'agreement not found', rule), false, 'a bare string body has no error field');
    assert.equal(isAgreementNotFound(500, { error: { message: 'agreement not found' } }, rule), false);
    assert.equal(isAgreementNotFound(200, {}, rule), false);
  });

  it('is configured from the environment, and a bad value stops the start', () => {
    const env = {
      BILLING_BASE_URL: 'https://b.example/api/rest/v1',
      BILLING_USERNAME: 'u',
      BILLING_PASSWORD: 'p',
      EPS_UUID_A: 'a',
      ALLOWED_ORIGINS: 'https://s.example',
    };
    const custom = loadConfig({
      ...env,
      AGREEMENT_NOT_FOUND_STATUS: '404 410',
      AGREEMENT_NOT_FOUND_TEXT: '^E_LOOKUP$',
    }).agreementNotFound;
    assert.equal(isAgreementNotFound(410, {}, custom), true);
    assert.equal(isAgreementNotFound(400, { error: { code: 'e_lookup' } }, custom), true);
    assert.equal(isAgreementNotFound(400, { error: { message: 'agreement not found' } }, custom), false);
    assert.throws(() => loadConfig({ ...env, AGREEMENT_NOT_FOUND_STATUS: '429' }), /AGREEMENT_NOT_FOUND_STATUS/);
    assert.throws(() => loadConfig({ ...env, AGREEMENT_NOT_FOUND_TEXT: '(' }), /AGREEMENT_NOT_FOUND_TEXT/);
  });
});
