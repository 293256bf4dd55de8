/**
 * `<billing-pay>` in any language (issue 5): Russian and English complete, the language taken from `lang` or the page,
 * amounts read and written with `Intl`, and a page's own texts through the `texts` property — any text, or a whole
 * language the widget does not ship.
 */
import { expect, html, oneEvent } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import { TEXTS, type TextsOption } from '../../src/widget/i18n.js';
import { PAYMENT_METHODS_TEXTS } from '../../src/widget/i18n.js';
import {
  control,
  cyrillicShare,
  errorOf,
  field,
  labels,
  mount,
  pay,
  payButton,
  status,
  stubRelay,
  type,
  untranslated,
  type RelayStub,
  stubNavigate,
} from './helpers.js';

const RELAY = 'http://relay.test';

/** Every piece of text a person can see or hear: text nodes, and the accessible names set by attribute. */
function texts(el: BillingPay): string[] {
  const root = el.shadowRoot!;
  const found: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent!.trim();
    if (text) found.push(text);
  }
  for (const node of root.querySelectorAll('[aria-label]')) found.push(node.getAttribute('aria-label')!);
  return found;
}

/** German, as a merchant would add it: no fork, only the `texts` property. */
const GERMAN: TextsOption = {
  de: {
    labels: { form: 'Zahlung', system: 'Zahlungssystem', amount: 'Betrag', pay: 'Bezahlen' },
    errors: { validation_failed: 'Bitte die markierten Felder korrigieren.' },
    kinds: { agreement_number: 'Vertragsnummer' },
    problems: { required: 'Pflichtfeld.' },
  },
};

describe('<billing-pay> languages and texts', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;

  beforeEach(() => {
    relay = stubRelay();
    navigate = stubNavigate();
  });

  afterEach(() => {
    relay.restore();
    navigate.restore();
  });

  it('Russian is complete: every visible and spoken text, in every state, differs from English and is Cyrillic', async () => {
    /** The form in one language, in the state that shows the most: save and link-only ticked, submitted invalid. */
    async function shown(lang: string): Promise<BillingPay> {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang=${lang} lookup="5 7 15" allow-link-only></billing-pay>`,
      );
      for (const id of ['f-save', 'f-link-only']) {
        el.shadowRoot!.getElementById(id)!.click();
        await el.updateComplete;
      }
      const email = el.shadowRoot!.getElementById('f-contact') as HTMLInputElement;
      email.value = 'x';
      email.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await pay(el);
      return el;
    }
    const en = texts(await shown('en')).filter((t) => /\p{L}/u.test(t));
    const el = await shown('ru');
    const ru = texts(el).filter((t) => /\p{L}/u.test(t));
    expect(ru.length, 'the same texts in both languages').to.equal(en.length);
    expect(ru.length).to.be.greaterThan(20);
    expect(untranslated(ru.map((text, i) => [`shown #${i}`, text, en[i]!]))).to.deep.equal([]);
    expect(ru).to.include.members([
      'Платёжная система',
      'Сумма',
      'Найти договор по',
      'Номер договора',
      'Привязать карту',
    ]);
    expect([...el.shadowRoot!.querySelectorAll('option')].map((o) => o.textContent)).to.deep.equal([
      'Номер договора',
      'E-mail',
      'ИНН',
    ]);
    expect(el.shadowRoot!.querySelector('form')!.lang).to.equal('ru');
  });

  it('Russian is complete in the tables too: every text of both elements, shown or not, differs from English and is Cyrillic', () => {
    const pairs: [string, string, string][] = [];
    for (const part of ['labels', 'kinds', 'problems', 'errors', 'missing'] as const) {
      const ru = TEXTS.ru[part] as Record<string, string>;
      const en = TEXTS.en[part] as Record<string, string>;
      expect(Object.keys(ru).sort(), part).to.deep.equal(Object.keys(en).sort());
      for (const key of Object.keys(en)) pairs.push([`${part}.${key}`, ru[key]!, en[key]!]);
    }
    const { ru, en } = PAYMENT_METHODS_TEXTS as unknown as Record<'ru' | 'en', Record<string, string>>;
    expect(Object.keys(ru).sort(), 'methods').to.deep.equal(Object.keys(en).sort());
    for (const key of Object.keys(en)) pairs.push([`methods.${key}`, ru[key]!, en[key]!]);
    expect(pairs.length).to.be.greaterThan(80);
    expect(untranslated(pairs)).to.deep.equal([]);
  });

  it('judges a text as a person reads it', () => {
    expect(cyrillicShare('Сумма, {currency}')).to.equal(1);
    expect(cyrillicShare('Введите адрес эл. почты, например name@example.com.')).to.equal(1);
    expect(cyrillicShare('Loading…')).to.equal(0);
    expect(cyrillicShare('Загрузка payment options')).to.be.below(0.8);
    expect(
      untranslated([
        ['a', 'Pay', 'Pay'],
        ['b', 'Оплатить now, please', 'Pay'],
        ['c', 'E-mail', 'E-mail'],
        ['d', 'Оплатить', 'Pay'],
      ]),
    ).to.deep.equal(['a: "Pay" is the English text', 'b: "Оплатить now, please" is 47 % Cyrillic']);
  });

  it('takes the language from the page when the element has none, and the page’s regional tag', async () => {
    document.documentElement.lang = 'ru-RU';
    try {
      const el = await mount(html`<billing-pay relay=${RELAY} amount="1234.5"></billing-pay>`);
      expect(control(el, 'Сумма')).to.exist;
      expect(field(el, 'Сумма').value).to.equal('1\u00a0234,50');
      expect(el.shadowRoot!.querySelector('form')!.lang).to.equal('ru-RU');
    } finally {
      document.documentElement.lang = 'en';
    }
  });

  it('overrides any text for every language with a flat `texts`', async () => {
    const el = await mount(
      html`<billing-pay relay=${RELAY} lang="en" .texts=${{ labels: { pay: 'Pay now' }, kinds: { agreement_number: 'Contract' } }}></billing-pay>`,
    );
    expect(payButton(el).textContent!.trim()).to.equal('Pay now');
    expect(control(el, 'Contract')).to.exist;
    el.lang = 'ru';
    await el.updateComplete;
    expect(payButton(el).textContent!.trim()).to.equal('Pay now');
    expect(control(el, 'Сумма')).to.exist;
  });

  it('overrides texts per language, case-insensitively, the exact tag over its language', async () => {
    const option: TextsOption = { RU: { labels: { pay: 'Внести' } }, 'ru-by': { labels: { pay: 'Заплатить' } } };
    const el = await mount(html`<billing-pay relay=${RELAY} lang="en" .texts=${option}></billing-pay>`);
    expect(payButton(el).textContent!.trim()).to.equal('Pay');
    el.lang = 'ru';
    await el.updateComplete;
    expect(payButton(el).textContent!.trim()).to.equal('Внести');
    el.lang = 'ru-BY';
    await el.updateComplete;
    expect(payButton(el).textContent!.trim()).to.equal('Заплатить');
    expect(field(el, 'Сумма')).to.exist;
  });

  it('names the systems per language through `texts.systems`; `label-a` stays the name for every other language', async () => {
    const texts = JSON.stringify({ ru: { systems: { A: 'Банковская карта', C: 'Карта, разово' } } });
    const el = await mount(
      html`<billing-pay relay=${RELAY} lang="ru" label-a="Bank card" texts=${texts}></billing-pay>`,
    );
    const systems = () => labels(el).slice(0, 3);
    expect(systems()).to.deep.equal(['Банковская карта', 'Система B', 'Карта, разово']);
    el.setAttribute('lang', 'en');
    await el.updateComplete;
    expect(systems()).to.deep.equal(['Bank card', 'System B', 'System C']);
  });

  it('reads `texts` from a JSON attribute (plain HTML)', async () => {
    const el = await mount(
      html`<billing-pay relay=${RELAY} lang="ru" texts='{"ru": {"labels": {"pay": "Оплатить счёт"}}}'></billing-pay>`,
    );
    expect(payButton(el).textContent!.trim()).to.equal('Оплатить счёт');
  });

  it('speaks a language it does not ship, given its texts: German labels, German numbers, English for the rest', async () => {
    const el = await mount(
      html`<billing-pay relay=${RELAY} lang="de-DE" amount="1500.5" .texts=${GERMAN}></billing-pay>`,
    );
    expect(labels(el)).to.include.members(['Betrag', 'Vertragsnummer']);
    expect(el.shadowRoot!.querySelector('legend')!.textContent).to.equal('Zahlungssystem');
    expect(el.shadowRoot!.querySelector('form')!.lang).to.equal('de-DE');
    expect(el.shadowRoot!.querySelector('form')!.getAttribute('aria-label')).to.equal('Zahlung');
    expect(field(el, 'Betrag').value).to.equal('1.500,50');
    expect(control(el, 'E-mail or phone for the receipt'), 'what the page did not translate stays English').to.exist;

    await pay(el);
    expect(errorOf(el, 'Vertragsnummer')).to.equal('Pflichtfeld.');
    expect(status(el)).to.equal('Bitte die markierten Felder korrigieren.');

    await type(el, 'Betrag', '12.345,6');
    await type(el, 'Vertragsnummer', 'AG-1001');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    expect(relay.payments()[0]!.body).to.include({ amount: '12345.60' });
  });

  it('falls back to English, with English numbers, for a language it has no texts for', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="fr" amount="1500.5"></billing-pay>`);
    expect(field(el, 'Amount').value).to.equal('1,500.50');
    expect(el.shadowRoot!.querySelector('form')!.lang).to.equal('en');
  });

  it('rewrites a typed amount in the new language’s format when the language changes', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="en" .texts=${GERMAN}></billing-pay>`);
    await type(el, 'Amount', '1,234,567.8');
    el.lang = 'ru';
    await el.updateComplete;
    expect(field(el, 'Сумма').value).to.equal('1\u00a0234\u00a0567,80');
    el.lang = 'de';
    await el.updateComplete;
    expect(field(el, 'Betrag').value).to.equal('1.234.567,80');
  });
});
