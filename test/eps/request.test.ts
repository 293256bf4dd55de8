import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkPayment, type PaymentRequest } from '../../src/eps/request.js';

const rules = { maxAmount: 10_000_000n };
const base = { amount: '1500.50', agreement_param_id: 5, agreement_param_value: 'AG-1001' };
const p = (params: Record<string, unknown>) => Object.entries(params).map(([name, value]) => ({ name, value }));
const check = (req: Partial<PaymentRequest> & Record<string, unknown>) => checkPayment({ ...base, ...req }, rules);
const fieldsOf = (req: Partial<PaymentRequest>) => {
  const r = check(req);
  assert.equal(r.ok, false);
  return r.ok ? {} : r.fields;
};

describe('payment request model', () => {
  it('accepts a payment of each system and returns canonical values', () => {
    const a = check({
      system: 'A',
      eps_params: p({ confirmation_type: 'redirect', confirmation_return_url: 'https://shop.example/back' }),
    });
    assert.deepEqual(a, {
      ok: true,
      value: {
        system: 'A',
        amount: '1500.50',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
        params: { confirmation_type: 'redirect', confirmation_return_url: 'https://shop.example/back' },
      },
    });
    assert.ok(check({ system: 'B', eps_params: p({ is_autopayment: true, name: 'ООО Ромашка' }) }).ok);
    assert.ok(check({ system: 'C', eps_params: p({ return_url: 'https://shop.example/back' }) }).ok);
  });

  it('A: confirmation_type is required, and the return URL when it is redirect', () => {
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: [] }), { 'eps_params.confirmation_type': 'required' });
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: p({ confirmation_type: 'redirect' }) }), {
      'eps_params.confirmation_return_url': 'required',
    });
    assert.ok(check({ system: 'A', eps_params: p({ confirmation_type: 'embedded' }) }).ok);
  });

  it('A: saving a method connects autopayments with all three flags, and only then', () => {
    const back = { confirmation_type: 'redirect', confirmation_return_url: 'https://shop.example/' };
    assert.ok(
      check({
        system: 'A',
        eps_params: p({ ...back, save_payment_method: true, enable_autopayments: true, preferred_method: true }),
      }).ok,
    );
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: p({ ...back, save_payment_method: true }) }), {
      'eps_params.enable_autopayments': 'autopay_rule',
      'eps_params.preferred_method': 'autopay_rule',
    });
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: p({ ...back, enable_autopayments: true }) }), {
      'eps_params.enable_autopayments': 'autopay_rule',
    });
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: p({ ...back, cancel_payment: true }) }), {
      'eps_params.cancel_payment': 'link_rule',
    });
    assert.ok(
      check({
        system: 'A',
        eps_params: p({
          ...back,
          save_payment_method: true,
          enable_autopayments: true,
          preferred_method: true,
          cancel_payment: true,
        }),
      }).ok,
    );
    assert.deepEqual(fieldsOf({ system: 'A', eps_params: p({ ...back, save_payment_method: 'yes' }) }), {
      'eps_params.save_payment_method': 'boolean',
    });
  });

  it('C: payments only — return_url required, nothing that saves a method', () => {
    assert.deepEqual(fieldsOf({ system: 'C', eps_params: [] }), { 'eps_params.return_url': 'required' });
    assert.deepEqual(
      fieldsOf({
        system: 'C',
        eps_params: p({ return_url: 'https://s.example/', save_payment_method: true, is_autopayment: true }),
      }),
      {
        'eps_params.save_payment_method': 'unknown_param',
        'eps_params.is_autopayment': 'unknown_param',
      },
    );
  });

  it('refuses unknown, duplicate and malformed parameters, each by name', () => {
    assert.deepEqual(fieldsOf({ system: 'B', eps_params: [...p({ email: 'a@b.co' }), ...p({ email: 'c@d.co' })] }), {
      'eps_params.email': 'duplicate_param',
    });
    assert.deepEqual(
      fieldsOf({
        system: 'B',
        eps_params: p({ email: 'nope', phone: '12', confirmation_return_url: 'javascript:alert(1)' }),
      }),
      {
        'eps_params.email': 'email',
        'eps_params.phone': 'phone',
        'eps_params.confirmation_return_url': 'url',
      },
    );
  });

  it('a parameter named __proto__ is refused, not inherited', () => {
    const r = check({
      system: 'C',
      eps_params: [{ name: '__proto__', value: { return_url: 'https://evil.example/' } }],
    });
    assert.deepEqual(r, {
      ok: false,
      fields: { 'eps_params.__proto__': 'unknown_param', 'eps_params.return_url': 'required' },
    });
  });

  it('applies the merchant rules: offered systems, lookup kinds and maximum', () => {
    const r = checkPayment(
      { system: 'B', amount: '100000.01', agreement_param_id: 7, agreement_param_value: 'a@b.co', eps_params: [] },
      { maxAmount: 10_000_000n, systems: ['A'], lookups: [5] },
    );
    assert.deepEqual(r, {
      ok: false,
      fields: { system: 'system', amount: 'amount_max', agreement_param_id: 'lookup_kind' },
    });
  });

  it('reports a wrong envelope without throwing', () => {
    assert.deepEqual(checkPayment(null, rules), { ok: false, fields: { body: 'body' } });
    assert.deepEqual(checkPayment('x', rules), { ok: false, fields: { body: 'body' } });
    const r = checkPayment(
      { system: 'A', amount: [], agreement_param_id: '5', agreement_param_value: 5, eps_params: {} },
      rules,
    );
    assert.deepEqual(r, {
      ok: false,
      fields: {
        amount: 'amount_format',
        agreement_param_id: 'lookup_kind',
        agreement_param_value: 'required',
        eps_params: 'eps_params',
      },
    });
  });
});
