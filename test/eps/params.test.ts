import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BILLING_POLICY,
  MAX_EPS_PARAMS,
  PRODUCT_POLICY,
  paramProblems,
  readBooleans,
  readEpsParams,
  type ParamPolicy,
} from '../../src/eps/params.js';
import { canSaveMethod, savesMethod, type SystemId } from '../../src/eps/systems.js';

/** The problems of `given` (an object without prototype), as `[name, problem]` in the order found. */
const found = (system: SystemId, given: Record<string, unknown>, policy: ParamPolicy = PRODUCT_POLICY) => [
  ...paramProblems(system, Object.assign(Object.create(null), given) as Record<string, unknown>, policy),
];

describe('paramProblems: each value by its kind', () => {
  const back = { confirmation_return_url: 'https://shop.example/' };

  it("a missing required value is `required`, a value of the wrong type gets its kind's key", () => {
    assert.deepEqual(found('C', { email: 'a@b.example' }), [['return_url', 'required']]);
    assert.deepEqual(found('C', { return_url: 5, phone: null, comment: ['x'] }), [
      ['return_url', 'url'],
      ['phone', 'phone'],
      ['comment', 'text'],
    ]);
    assert.deepEqual(found('A', { confirmation_type: true, ...back, save_payment_method: 'true' }), [
      ['confirmation_type', 'token'],
      ['save_payment_method', 'boolean'],
    ]);
    assert.deepEqual(found('B', { ...back, email: {}, is_autopayment: 1 }), [
      ['email', 'email'],
      ['is_autopayment', 'boolean'],
    ]);
  });

  it('text that is not clean is `text` whatever its kind, before its format', () => {
    for (const name of ['confirmation_return_url', 'email', 'phone', 'comment', 'confirmation_type']) {
      const given: Record<string, unknown> = {
        confirmation_type: 'redirect',
        ...back,
        [name]: name === 'confirmation_return_url' ? 'https://shop.example/\u200b' : 'a\nb',
      };
      assert.deepEqual(found('A', given), [[name, 'text']], name);
    }
  });

  it('each format: url, email, phone, text and token, lengths counted in characters', () => {
    assert.deepEqual(found('B', { ...back, return_url_fail: 'ftp://x', name: '', email: 'a@b', phone: '12' }), [
      ['return_url_fail', 'url'],
      ['email', 'email'],
      ['phone', 'phone'],
      ['name', 'required'],
    ]);
    assert.deepEqual(
      found('B', {
        ...back,
        name: 'x'.repeat(501),
        comment: '😀'.repeat(500),
        phone: '+7 (900) 123',
        email: `${'x'.repeat(250)}@b.example`,
      }),
      [
        ['email', 'too_long'],
        ['name', 'too_long'],
      ],
    );
    assert.deepEqual(found('C', { return_url: `https://s.example/${'😀'.repeat(2031)}` }), [['return_url', 'url']]);
    assert.deepEqual(found('C', { return_url: `https://s.example/${'😀'.repeat(2030)}` }), []);
    assert.deepEqual(found('A', { confirmation_type: 'Redirect' }), [['confirmation_type', 'token']]);
    assert.deepEqual(
      found('A', { confirmation_type: 'embedded', phone: '+7 900 123-45-67', comment: 'ООО Ромашка' }),
      [],
    );
  });

  it('names the system does not take are `unknown_param`, after the known ones', () => {
    assert.deepEqual(found('C', { extra: 1, return_url: 'x', ['__proto__']: 'y' }), [
      ['return_url', 'url'],
      ['extra', 'unknown_param'],
      ['__proto__', 'unknown_param'],
    ]);
  });
});

describe('paramProblems: the cross-parameter rules of each system', () => {
  const back = { confirmation_return_url: 'https://shop.example/' };

  it('A: the return URL is required when confirmation_type is redirect, and only then', () => {
    assert.deepEqual(found('A', { confirmation_type: 'redirect' }), [['confirmation_return_url', 'required']]);
    assert.deepEqual(found('A', { confirmation_type: 'embedded' }), []);
    assert.deepEqual(found('A', { confirmation_type: 'redirect', email: 'a\nb@c.example' }), [
      ['email', 'text'],
      ['confirmation_return_url', 'required'],
    ]);
  });

  it('a value of the wrong type stops the rules; a bad format does not', () => {
    assert.deepEqual(
      found('A', { confirmation_type: 'redirect', save_payment_method: 'yes', enable_autopayments: true }),
      [['save_payment_method', 'boolean']],
    );
    assert.deepEqual(found('A', { confirmation_type: 'redirect', ...back, email: 'nope', save_payment_method: true }), [
      ['email', 'email'],
      ['enable_autopayments', 'autopay_rule'],
      ['preferred_method', 'autopay_rule'],
    ]);
  });

  it('this product: the save flag and its autopayment companions all or none; link-only needs saving', () => {
    const all = {
      confirmation_type: 'redirect',
      ...back,
      save_payment_method: true,
      enable_autopayments: true,
      preferred_method: true,
    };
    assert.deepEqual(found('A', all), []);
    assert.deepEqual(found('A', { ...all, cancel_payment: true }), []);
    assert.deepEqual(found('A', { ...all, preferred_method: false }), [['preferred_method', 'autopay_rule']]);
    assert.deepEqual(
      found('A', { confirmation_type: 'redirect', ...back, preferred_method: true, cancel_payment: true }),
      [
        ['preferred_method', 'autopay_rule'],
        ['cancel_payment', 'link_rule'],
      ],
    );
    // B saves with its one flag: nothing goes with it.
    assert.deepEqual(found('B', { ...back, is_autopayment: true }), []);
    assert.deepEqual(found('C', { return_url: 'https://s.example/', is_autopayment: true }), [
      ['is_autopayment', 'unknown_param'],
    ]);
  });

  it('which systems save a method, and when a request does', () => {
    assert.deepEqual((['A', 'B', 'C'] as const).map(canSaveMethod), [true, true, false]);
    assert.equal(savesMethod('A', { save_payment_method: true, is_autopayment: true }), true);
    assert.equal(savesMethod('A', { save_payment_method: 'true', enable_autopayments: true }), false);
    assert.equal(savesMethod('B', { is_autopayment: true }), true);
    assert.equal(savesMethod('C', { save_payment_method: true, is_autopayment: true }), false);
  });
});

describe('readEpsParams: the list as a record', () => {
  it('the last value of a name wins; each repeat is named', () => {
    const { params, duplicates } = readEpsParams([
      { name: 'a', value: 1 },
      { name: 'b' },
      { name: 'a', value: 2 },
      { name: 'a', value: 3 },
    ]);
    assert.deepEqual({ ...params }, { a: 3, b: undefined });
    assert.deepEqual(duplicates, ['a', 'a']);
  });

  it('a parameter named __proto__ is an own field, not a prototype', () => {
    const { params, duplicates } = readEpsParams([
      { name: '__proto__', value: { return_url: 'https://evil.example/' } },
    ]);
    assert.equal(Object.getPrototypeOf(params), null);
    assert.deepEqual(Object.keys(params), ['__proto__']);
    assert.equal(params.return_url, undefined);
    assert.deepEqual(duplicates, []);
  });

  it('one limit on their number', () => {
    assert.equal(MAX_EPS_PARAMS, 32);
  });
});

describe("the billing's rules (the sandbox) beside this product's (the widget and the relay)", () => {
  const back = { confirmation_type: 'redirect', confirmation_return_url: 'https://shop.example/' };
  const problems = (given: Record<string, unknown>, policy: ParamPolicy) =>
    Object.fromEntries(paramProblems('A', readBooleans('A', given, policy), policy));

  it('saving alone, cancel_payment alone and "true" as text: the billing takes them, this product does not', () => {
    for (const given of [
      { ...back, save_payment_method: true },
      { ...back, cancel_payment: true },
      { ...back, preferred_method: true },
    ]) {
      assert.deepEqual(problems(given, BILLING_POLICY), {}, JSON.stringify(given));
      assert.notDeepEqual(problems(given, PRODUCT_POLICY), {}, JSON.stringify(given));
    }
    const text = { ...back, save_payment_method: 'true', enable_autopayments: 'true', preferred_method: 'true' };
    assert.deepEqual(problems(text, BILLING_POLICY), {});
    assert.deepEqual(readBooleans('A', text, BILLING_POLICY).save_payment_method, true);
    assert.equal(problems(text, PRODUCT_POLICY).save_payment_method, 'boolean');
  });

  it('both refuse enable_autopayments without save_payment_method', () => {
    assert.deepEqual(problems({ ...back, enable_autopayments: true }, BILLING_POLICY), {
      enable_autopayments: 'link_rule',
    });
    assert.deepEqual(problems({ ...back, enable_autopayments: 'true', save_payment_method: 'false' }, BILLING_POLICY), {
      enable_autopayments: 'link_rule',
    });
    assert.equal(problems({ ...back, enable_autopayments: true }, PRODUCT_POLICY).enable_autopayments, 'autopay_rule');
  });
});
