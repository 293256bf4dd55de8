import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOOKUP_KINDS, isTaxpayerNumber, lookupProblem } from '../../src/eps/lookup.js';
import { paramProblems } from '../../src/eps/params.js';

describe('agreement lookup kinds', () => {
  it('covers exactly the kinds of the spec', () => {
    assert.deepEqual([...LOOKUP_KINDS], [1, 4, 5, 6, 7, 8, 10, 11, 14, 15]);
  });

  it('checks the taxpayer number with its check digits', () => {
    assert.ok(isTaxpayerNumber('7707083893')); // 10 digits, an organisation
    assert.ok(isTaxpayerNumber('500100732259')); // 12 digits, a person
    assert.ok(!isTaxpayerNumber('7707083894'));
    assert.ok(!isTaxpayerNumber('500100732258'));
    assert.ok(!isTaxpayerNumber('77070838'));
  });

  it('gives each kind a sensible check', () => {
    const ok: [number, string][] = [
      [1, 'ivan.petrov'],
      [4, 'Иванов Иван Иванович'],
      [4, "Mary O'Neil-Smith"],
      [5, 'AG-2024/001'],
      [6, '1C.000123'],
      [7, 'client@example.com'],
      [8, '40817810099910004312'],
      [10, '42'],
      [11, '1001'],
      [14, '77'],
      [15, '7707083893'],
    ];
    for (const [kind, value] of ok) assert.equal(lookupProblem(kind as never, value), null, `${kind} ${value}`);
    assert.equal(lookupProblem(7, 'not-an-email'), 'email');
    assert.equal(lookupProblem(10, '12a'), 'digits');
    assert.equal(lookupProblem(11, '0'), 'digits');
    assert.equal(lookupProblem(15, '1234567890'), 'inn');
    assert.equal(lookupProblem(4, 'R2-D2'), 'full_name');
    assert.equal(lookupProblem(1, 'two words'), 'code');
    assert.equal(lookupProblem(5, '   '), 'required');
    assert.equal(lookupProblem(5, 'x'.repeat(65)), 'too_long');
  });

  it('counts a length in characters, as the parameter rules do: an address the model takes as `email` is found by e-mail', () => {
    const address = `${'😀'.repeat(130)}@a.bc`; // 135 characters, 265 UTF-16 units
    assert.equal(paramProblems('C', { return_url: 'https://shop.example/', email: address }).size, 0);
    assert.equal(lookupProblem(7, address), null);
    assert.equal(lookupProblem(7, `${'😀'.repeat(250)}@a.bc`), 'too_long');
  });
});
