import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IMPERSONAL_LOOKUP_KINDS, lookupValueKey } from '../../src/eps/lookup-key.js';

describe('lookup value keys', () => {
  it('one value however spaced or cased: trimmed, spaces folded, lower case', () => {
    const key = lookupValueKey(4, 'Ivan Petrov');
    for (const value of ['Ivan  Petrov', ' Ivan Petrov ', 'ivan\tPETROV', 'Ivan\u00a0Petrov', 'Ivan \u3000 Petrov'])
      assert.equal(lookupValueKey(4, value), key, JSON.stringify(value));
    assert.equal(lookupValueKey(7, ' Client@Example.COM '), 'client@example.com');
  });

  it('keeps the case of a login, which the billing may tell apart', () => {
    assert.notEqual(lookupValueKey(1, 'Ivan'), lookupValueKey(1, 'ivan'));
    assert.equal(lookupValueKey(1, ' Ivan '), 'Ivan');
  });

  it('offers by default only kinds that are not about a person', () => {
    assert.deepEqual(IMPERSONAL_LOOKUP_KINDS, [5, 6, 8, 10, 11, 14]);
  });
});
