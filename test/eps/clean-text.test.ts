import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanText } from '../../src/eps/clean-text.js';
import { lookupProblem } from '../../src/eps/lookup.js';

const cp = (n: number) => String.fromCodePoint(n);

describe('clean text', () => {
  it('takes what a person reads as itself: letters of any script, marks, emoji, punctuation', () => {
    for (const value of ['Иванов Иван', 'José Ñúñez', '김민준', '山田 太郎', 'Ω≈ç√', 'a😀b', 'O’Neil', 'नमस्ते'])
      assert.ok(isCleanText(value), value);
  });

  it('refuses the invisible default-ignorable code points (Hangul fillers, variation selectors, CGJ, zero-width)', () => {
    for (const n of [0x3164, 0x115f, 0x1160, 0xffa0, 0x034f, 0xfe0f, 0xfe00, 0x180b, 0xe0100, 0x200b, 0x200d, 0x2060])
      assert.ok(!isCleanText(`Ivan${cp(n)}Petrov`), n.toString(16));
  });

  it('refuses private-use, unassigned and noncharacter code points', () => {
    for (const n of [0xe000, 0xf8ff, 0xf0000, 0x10fffd, 0x0378, 0x0ffff, 0xfdd0, 0xfffe, 0x1fffe, 0x10ffff, 0xe0080])
      assert.ok(!isCleanText(`Ivan${cp(n)}`), n.toString(16));
  });

  it('a lookup value with a Hangul filler is a text problem, whatever its kind', () => {
    assert.equal(lookupProblem(4, `Ivan${cp(0x3164)}Petrov`), 'text');
    assert.equal(lookupProblem(1, `ivan${cp(0xffa0)}`), 'text');
    assert.equal(lookupProblem(5, `AG-1001${cp(0xe000)}`), 'text');
  });
});
