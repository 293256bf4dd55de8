import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { amountProblem, canonicalAmount, formatMinorUnits, toMinorUnits } from '../../src/eps/amount.js';

const MAX = 10_000_000n; // 100 000.00

describe('amounts', () => {
  it('reads decimal text and JSON numbers into exact minor units', () => {
    assert.equal(toMinorUnits('1500'), 150000n);
    assert.equal(toMinorUnits('1500.5'), 150050n);
    assert.equal(toMinorUnits(' 0.01 '), 1n);
    assert.equal(toMinorUnits(1500.5), 150050n);
    assert.equal(toMinorUnits(0.1), 10n);
    assert.equal(toMinorUnits(19.99), 1999n);
  });

  it('refuses what is not a plain two-decimal amount', () => {
    for (const bad of ['', '1e3', '1,5', '-1', '+1', '1.', '.5', '1.005', 'abc', NaN, Infinity, 1e21, null, {}, true]) {
      assert.equal(toMinorUnits(bad), null, String(bad));
    }
  });

  it('names the problem of each bad amount', () => {
    assert.equal(amountProblem('0', MAX), 'amount_positive');
    assert.equal(amountProblem(0, MAX), 'amount_positive');
    assert.equal(amountProblem('-5', MAX), 'amount_positive');
    assert.equal(amountProblem(-5, MAX), 'amount_positive');
    assert.equal(amountProblem('1.005', MAX), 'amount_decimals');
    assert.equal(amountProblem(1.005, MAX), 'amount_decimals');
    assert.equal(amountProblem('100000.01', MAX), 'amount_max');
    assert.equal(amountProblem('9'.repeat(400), MAX), 'amount_format');
    assert.equal(amountProblem('ten', MAX), 'amount_format');
    assert.equal(amountProblem('100000.00', MAX), null);
    assert.equal(amountProblem('0.01', MAX), null);
  });

  it('round-trips every amount of up to 15 digits exactly, text or number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), (minor) => {
        const text = formatMinorUnits(minor);
        assert.equal(toMinorUnits(text), minor);
        assert.equal(toMinorUnits(Number(text)), minor);
        assert.equal(canonicalAmount(text), text);
      }),
    );
  });
});
