import { expect } from '@open-wc/testing';
import { LOOKUPS } from '../../src/eps/lookup.js';
import { FORM_PROBLEM_TEXTS_EN, PROBLEM_TEXTS_EN } from '../../src/eps/messages.js';
import { langOf, langTagOf, problemIn, problemOf, resolveTexts, TEXTS } from '../../src/widget/i18n.js';

describe('texts', () => {
  it('has every label, lookup kind, problem key, error and not-found text in English and Russian', () => {
    const kinds = [...new Set(Object.values(LOOKUPS).map((l) => l.key))].sort();
    for (const lang of ['en', 'ru'] as const) {
      const t = TEXTS[lang];
      expect(Object.keys(t.labels).sort()).to.deep.equal(Object.keys(TEXTS.en.labels).sort());
      expect(Object.keys(t.problems).sort()).to.deep.equal(Object.keys(FORM_PROBLEM_TEXTS_EN).sort());
      expect(Object.keys(t.errors).sort()).to.deep.equal(Object.keys(TEXTS.en.errors).sort());
      expect(Object.keys(t.kinds).sort()).to.deep.equal(kinds);
      expect(Object.keys(t.missing).sort()).to.deep.equal(kinds);
      for (const text of [t.labels, t.kinds, t.problems, t.errors, t.missing].flatMap(Object.values)) {
        expect(text.trim(), lang).to.not.equal('');
      }
    }
  });

  it('translates a problem key; a sentence is not a key', () => {
    expect(problemIn('ru', 'amount_max')).to.equal('Сумма больше допустимой.');
    expect(problemIn('en', 'email')).to.equal(PROBLEM_TEXTS_EN.email);
    expect(problemIn('ru', PROBLEM_TEXTS_EN.email), 'no English sentence is mapped back').to.equal(
      TEXTS.ru.errors.validation_failed,
    );
    expect(problemIn('ru', 'a_key_of_a_newer_relay')).to.equal('Исправьте отмеченные поля.');
    // A problem only a hand-made request can have is not in the widget's bundle: the general text stands for it.
    expect(problemIn('en', 'duplicate_param')).to.equal(TEXTS.en.errors.validation_failed);
    expect(problemOf(TEXTS.ru, 'agreement_not_found', 'email')).to.equal('Клиент с таким e-mail не найден.');
    expect(problemOf(TEXTS.en, 'agreement_not_found', 'agreement_number')).to.equal('No agreement with this number.');
  });

  it('takes the language from the element, its ancestors through shadow roots, or the page', () => {
    const outer = document.createElement('div');
    outer.lang = 'ru-RU';
    const host = document.createElement('div');
    outer.append(host);
    const inner = document.createElement('span');
    host.attachShadow({ mode: 'open' }).append(inner);
    document.body.append(outer);
    try {
      expect(langOf(inner)).to.equal('ru');
      host.lang = 'en-GB';
      expect(langOf(inner)).to.equal('en');
      inner.lang = 'ru';
      expect(langOf(inner)).to.equal('ru');
      const loose = document.createElement('span');
      document.body.append(loose);
      expect(langOf(loose)).to.equal(document.documentElement.lang.startsWith('ru') ? 'ru' : 'en');
      loose.remove();
    } finally {
      outer.remove();
    }
  });

  it('resolves the texts and the locale of a tag, with a page’s overrides on top', () => {
    expect(resolveTexts('ru-RU')).to.deep.equal({ locale: 'ru-RU', t: TEXTS.ru });
    expect(resolveTexts('')).to.deep.equal({ locale: 'en', t: TEXTS.en });
    expect(resolveTexts('fr-CA').locale, 'no texts: English').to.equal('en');
    // A tag Intl refuses would throw wherever a number is written: its language, else English.
    expect(resolveTexts('ru-RU-')).to.deep.equal({ locale: 'ru', t: TEXTS.ru });
    expect(resolveTexts('en-x').locale).to.equal('en');

    const flat = resolveTexts('ru', { labels: { pay: 'Pay now' }, problems: { required: 'Needed.' } });
    expect(flat.t.labels.pay).to.equal('Pay now');
    expect(flat.t.labels.amount).to.equal(TEXTS.ru.labels.amount);
    expect(problemOf(flat.t, 'required')).to.equal('Needed.');

    const de = resolveTexts('de-AT', { de: { labels: { pay: 'Bezahlen' } }, 'de-at': { labels: { amount: 'Summe' } } });
    expect(de.locale).to.equal('de-AT');
    expect([de.t.labels.pay, de.t.labels.amount, de.t.labels.contact]).to.deep.equal([
      'Bezahlen',
      'Summe',
      TEXTS.en.labels.contact,
    ]);
    expect(TEXTS.en.labels.pay, 'the built-in texts are never changed').to.equal('Pay');
  });

  it('reads the whole language tag for Intl', () => {
    const outer = document.createElement('div');
    outer.lang = 'de-CH';
    const inner = document.createElement('span');
    outer.append(inner);
    expect(langTagOf(inner)).to.equal('de-CH');
    expect(langOf(inner)).to.equal('en');
  });
});
