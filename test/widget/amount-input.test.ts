import { expect } from '@open-wc/testing';
import { formatAmount, parseAmountInput } from '../../src/widget/amount-input.js';

describe('amount input', () => {
  const reads = {
    en: [
      ['1500', '1500.00'],
      ['1500.5', '1500.50'],
      ['1500.50', '1500.50'],
      ['1,500.50', '1500.50'],
      ['1,234,567', '1234567.00'],
      [' 0.01 ', '0.01'],
      ['007', '7.00'],
      ['999999999999999.99', '999999999999999.99'],
    ],
    ru: [
      ['1500', '1500.00'],
      ['1500,5', '1500.50'],
      ['1500.5', '1500.50'],
      ['1 500,50', '1500.50'],
      ['1\u00a0500,50', '1500.50'],
      ['1\u202f500,50', '1500.50'],
      ['12 345 678,9', '12345678.90'],
    ],
  } as const;

  for (const [lang, cases] of Object.entries(reads) as ['en' | 'ru', readonly (readonly [string, string])[]][]) {
    for (const [text, amount] of cases) {
      it(`reads ${JSON.stringify(text)} in ${lang} as ${amount}`, () => {
        expect(parseAmountInput(text, lang)).to.deep.equal({ ok: true, amount });
      });
    }
  }

  const refuses = [
    ['', 'en', 'required'],
    ['   ', 'ru', 'required'],
    ['-5', 'en', 'amount_positive'],
    ['−5', 'ru', 'amount_positive'],
    ['0', 'en', 'amount_positive'],
    ['0,00', 'ru', 'amount_positive'],
    ['1.555', 'en', 'amount_decimals'],
    ['1,555', 'ru', 'amount_decimals'],
    ['1500,50', 'en', 'amount_format'],
    ['1,500.50', 'ru', 'amount_format'],
    ['15 00', 'ru', 'amount_format'],
    ['1,5000', 'en', 'amount_format'],
    ['1 500,000.5', 'en', 'amount_format'],
    ['1500.', 'en', 'amount_format'],
    ['.5', 'en', 'amount_format'],
    ['1e3', 'en', 'amount_format'],
    ['+5', 'en', 'amount_format'],
    ['5 ₽', 'ru', 'amount_format'],
    ['NaN', 'en', 'amount_format'],
    ['1234567890123456', 'en', 'amount_format'],
  ] as const;

  for (const [text, lang, problem] of refuses) {
    it(`refuses ${JSON.stringify(text)} in ${lang}: ${problem}`, () => {
      expect(parseAmountInput(text, lang)).to.deep.equal({ ok: false, problem });
    });
  }

  it('shows a canonical amount the way each language writes it, and reads it back', () => {
    expect(formatAmount('1234567.50', 'en')).to.equal('1,234,567.50');
    expect(formatAmount('1234567.50', 'ru')).to.equal('1\u00a0234\u00a0567,50');
    expect(formatAmount('999.00', 'ru')).to.equal('999,00');
    for (const lang of ['en', 'ru'] as const) {
      expect(parseAmountInput(formatAmount('1234567.50', lang), lang)).to.deep.equal({
        ok: true,
        amount: '1234567.50',
      });
    }
  });

  it('takes the marks of any locale from Intl, and writes exactly (no float) in it', () => {
    const cases = [
      ['de', '1.234.567,50'],
      ['en-IN', '12,34,567.50'],
      ['es', '1.234.567,50'],
      ['de-CH', /^1.234.567\.50$/], // an apostrophe, straight or curly with the ICU version
      ['fr', /^1\s234\s567,50$/], // a narrow or a plain no-break space, with the ICU version
    ] as const;
    for (const [locale, text] of cases) {
      const written = formatAmount('1234567.50', locale);
      if (typeof text === 'string') expect(written, locale).to.equal(text);
      else expect(written, locale).to.match(text);
      expect(parseAmountInput(written, locale), locale).to.deep.equal({ ok: true, amount: '1234567.50' });
    }
    expect(formatAmount('999999999999999.99', 'en'), 'beyond a float’s precision').to.equal('999,999,999,999,999.99');
    expect(formatAmount('1500.00', 'es'), 'Spanish groups from five digits').to.equal('1500,00');
    expect(parseAmountInput('1500.50', 'de'), 'a point groups in German').to.deep.equal({
      ok: false,
      problem: 'amount_format',
    });
    expect(parseAmountInput('1 500,5', 'de')).to.deep.equal({ ok: true, amount: '1500.50' });
    expect(formatAmount('1.50', 'not a tag!')).to.equal('1.50');
  });
});
