import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { paramProblems, SYSTEM_IDS, SYSTEMS, systemParamsSchema, type SystemId } from '../../src/eps/systems.js';

/** What the strict zod object of a system answers, as `[name, problem]` in order, first problem per name. */
function viaZodObject(system: SystemId, params: Record<string, unknown>): [string, string][] {
  const found = new Map<string, string>();
  const result = systemParamsSchema(system).safeParse(params);
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
