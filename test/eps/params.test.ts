import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BILLING_POLICY, PRODUCT_POLICY, paramProblems, readBooleans, SYSTEM_IDS, SYSTEMS, systemParamsSchema, type ParamPolicy, type SystemId } from '../../src/eps/systems.js';

/** What the strict zod object of a system answers, as `[name, problem]` in order, first problem per name. */
function viaZodObject(system: SystemId, params: Record<string, unknown>, policy: ParamPolicy = PRODUCT_POLICY): [string, string][] {
  const found = new Map<string, string>();
  const result = systemParamsSchema(system, policy).safeParse(params);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
      for (const key of keys) if (!found.has(key)) found.set(key, issue.message);
    }
  }
  return [...found];
}

const known = [...new Set(SYSTEM_IDS.flatMap((id) => Object.keys(SYSTEMS[id].params)))];
const name = fc.oneof(fc.constantFrom(...known), fc.constantFrom(...known), fc.constantFrom('__proto__', 'constructor', 'toString', 'x'), fc.string({ maxLength: 8 }));
const text = fc.oneof(
  fc.constantFrom('redirect', 'embedded', 'Redirect', '', '  ', 'https://shop.example/back', 'http://localhost:8080/', 'javascript:alert(1)', 'https://u:p@x.example/'),
  fc.constantFrom('client@example.com', 'no-at', 'a@b', '+7 900 123-45-67', '12', '(123) 456-78', 'x'.repeat(600), 'line\nbreak'),
  fc.string({ maxLength: 30 }),
);
const value = fc.oneof(fc.boolean(), text, text, fc.integer(), fc.constant(null), fc.constant(undefined), fc.array(fc.boolean(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
const params = fc.array(fc.tuple(name, value), { maxLength: 12 }).map((pairs) => {
  const record: Record<string, unknown> = Object.create(null);
  for (const [k, v] of pairs) record[k] = v;
  return record;
});

describe('paramProblems (the widget’s check) and the strict zod object of each system', () => {
  it('agree on every set of parameters', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYSTEM_IDS), params, (system, record) => {
        assert.deepEqual([...paramProblems(system, record)], viaZodObject(system, record));
      }),
      { numRuns: 5000 },
    );
  });

  it('agree on the payments the widget builds, valid and not', () => {
    const back = { confirmation_return_url: 'https://shop.example/' };
    const cases: [SystemId, Record<string, unknown>][] = [
      ['A', { confirmation_type: 'redirect', ...back }],
      ['A', { confirmation_type: 'redirect', ...back, save_payment_method: true, enable_autopayments: true, preferred_method: true, cancel_payment: true }],
      ['A', { confirmation_type: 'redirect', ...back, save_payment_method: true }],
      ['A', { confirmation_type: 'redirect', ...back, email: 'nope', save_payment_method: true }],
      ['A', { confirmation_type: 'redirect', save_payment_method: 'yes', enable_autopayments: true }],
      ['B', { ...back, return_url_fail: 'ftp://x', name: '', is_autopayment: true, extra: 1 }],
      ['C', { email: 'a@b.example' }],
      ['C', { return_url: 'https://s.example/', __proto__: { return_url: 'x' } }],
    ];
    for (const [system, given] of cases) {
      const record = Object.assign(Object.create(null), given) as Record<string, unknown>;
      assert.deepEqual([...paramProblems(system, record)], viaZodObject(system, record), `${system} ${JSON.stringify(given)}`);
    }
  });
});

describe('the billing\'s rules (the sandbox) beside this product\'s (the widget and the relay)', () => {
  const back = { confirmation_type: 'redirect', confirmation_return_url: 'https://shop.example/' };
  const problems = (given: Record<string, unknown>, policy: ParamPolicy) => Object.fromEntries(paramProblems('A', readBooleans('A', given, policy), policy));

  it('both engines agree under the billing\'s rules too', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYSTEM_IDS), params, (system, record) => {
        assert.deepEqual([...paramProblems(system, record, BILLING_POLICY)], viaZodObject(system, record, BILLING_POLICY));
      }),
      { numRuns: 2000 },
    );
  });

  it('saving alone, cancel_payment alone and "true" as text: the billing takes them, this product does not', () => {
    for (const given of [{ ...back, save_payment_method: true }, { ...back, cancel_payment: true }, { ...back, preferred_method: true }]) {
      assert.deepEqual(problems(given, BILLING_POLICY), {}, JSON.stringify(given));
      assert.notDeepEqual(problems(given, PRODUCT_POLICY), {}, JSON.stringify(given));
    }
    const text = { ...back, save_payment_method: 'true', enable_autopayments: 'true', preferred_method: 'true' };
    assert.deepEqual(problems(text, BILLING_POLICY), {});
    assert.deepEqual(readBooleans('A', text, BILLING_POLICY).save_payment_method, true);
    assert.equal(problems(text, PRODUCT_POLICY).save_payment_method, 'boolean');
  });

  it('both refuse enable_autopayments without save_payment_method', () => {
    assert.deepEqual(problems({ ...back, enable_autopayments: true }, BILLING_POLICY), { enable_autopayments: 'link_rule' });
    assert.deepEqual(problems({ ...back, enable_autopayments: 'true', save_payment_method: 'false' }, BILLING_POLICY), { enable_autopayments: 'link_rule' });
    assert.equal(problems({ ...back, enable_autopayments: true }, PRODUCT_POLICY).enable_autopayments, 'autopay_rule');
  });
});
