import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findRedirectUrl } from '../../src/relay/routes/payments.js';
import { billingPaymentJson } from '../../src/relay/billing/client.js';

describe('the billing request body', () => {
  it('writes the amount as an exact two-decimal JSON number and only validated fields', () => {
    const json = billingPaymentJson(
      {
        system: 'A',
        amount: '1500.50',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1',
        params: { confirmation_type: 'redirect' },
      },
      'uuid-a',
    );
    assert.equal(
      json,
      '{"eps_uuid":"uuid-a","amount":1500.50,"agreement_param_id":5,"agreement_param_value":"AG-1","eps_params":[{"name":"confirmation_type","value":"redirect"}]}',
    );
    assert.equal(JSON.parse(json).amount, 1500.5);
  });

  it('refuses an amount that is not canonical text', () => {
    assert.throws(() =>
      billingPaymentJson(
        { system: 'C', amount: '1e3', agreement_param_id: 5, agreement_param_value: 'x', params: {} },
        'u',
      ),
    );
  });

  it('finds the payment page address under the configured keys, http(s) only', () => {
    const keys = ['confirmation_url', 'payment_url', 'url'];
    assert.equal(
      findRedirectUrl({ payment_url: 'https://pay.example/1', url: 'https://other.example' }, keys),
      'https://pay.example/1',
    );
    assert.equal(
      findRedirectUrl({ confirmation_url: 'javascript:alert(1)', url: 'https://pay.example/2' }, keys),
      'https://pay.example/2',
    );
    assert.equal(findRedirectUrl({ confirmation_url: 42 }, keys), undefined);
  });
});
