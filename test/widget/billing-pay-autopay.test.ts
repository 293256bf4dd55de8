/**
 * `<billing-pay>`'s autopayment disclosure: while "Save payment method" is on (which connects autopayments), the text
 * beside "Connect autopayments" (its `aria-describedby`) says what is charged, when — N from the relay's `/config` —
 * and how to switch it off (`methods-url`), with the merchant's terms (`autopay-terms-url`); in English and Russian,
 * replaceable through `texts`, and accessible whether it is shown or not. Through the stub relay, and once through the
 * real relay and sandbox.
 */
import { expect, html } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import { expectContrast } from './contrast.js';
import {
  CONFIG,
  click,
  control,
  e2e,
  field,
  mount,
  stubRelay,
  type E2eStack,
  type RelayStub,
  stubNavigate,
} from './helpers.js';

const RELAY = 'http://relay.test';
const TERMS = 'https://shop.example/autopay-terms';

const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The text that describes the labelled control, through its `aria-describedby` ('' when nothing does). */
function description(el: BillingPay, label: string): string {
  const ids = field(el, label).getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return norm(ids.map((id) => el.shadowRoot!.getElementById(id)?.textContent).join(' '));
}

/** The disclosure's links: text, address, target. */
function links(el: BillingPay): string[][] {
  return [...el.shadowRoot!.querySelectorAll('a')].map((a) => [norm(a.textContent), a.href, a.target]);
}

const EN_WHEN =
  'Autopayments will charge the agreement’s recommended payment: 3 days before each new period, when a subscription is blocked for non-payment, and every hour at :30 while the balance is negative or a subscription awaits activation.';
const RU_WHEN =
  'Автоплатежи спишут рекомендуемый платёж по договору: за 3 дня до каждого нового периода, при блокировке подписки за неуплату и каждый час в :30, пока баланс отрицательный или подписка ждёт активации.';

describe('<billing-pay> autopayment disclosure', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;

  beforeEach(() => {
    relay = stubRelay({ config: { ...CONFIG, autopayLeadDays: 3 } });
    navigate = stubNavigate();
  });

  afterEach(() => {
    relay.restore();
    navigate.restore();
  });

  const widget = (lang: string) =>
    mount(
      html`<billing-pay relay=${RELAY} lang=${lang} methods-url="/account#methods" autopay-terms-url=${TERMS}></billing-pay>`,
    );

  it('shows while saving is on and goes when it is off; aria-describedby points at it only while it exists', async () => {
    const el = await widget('en');
    const save = field(el, 'Save payment method');
    expect(control(el, 'Connect autopayments')).to.equal(null);
    expect(save.hasAttribute('aria-describedby')).to.be.false;
    expect(el.shadowRoot!.querySelector('.hint, a')).to.equal(null);

    for (let round = 0; round < 2; round++) {
      await click(el, 'Save payment method');
      const said = `${EN_WHEN} You can switch them off at any time on your payment methods page. Autopayment terms`;
      expect(description(el, 'Connect autopayments')).to.equal(said);
      expect(field(el, 'Connect autopayments').getAttribute('aria-describedby')).to.equal('f-autopay-hint');
      // The consent itself is described by what it connects.
      expect(save.getAttribute('aria-describedby')).to.equal('f-autopay-hint');
      expect(links(el)).to.deep.equal([
        ['your payment methods page', `${location.origin}/account#methods`, '_top'],
        ['Autopayment terms', TERMS, '_top'],
      ]);

      await click(el, 'Save payment method');
      expect(control(el, 'Connect autopayments')).to.equal(null);
      expect(el.shadowRoot!.getElementById('f-autopay-hint')).to.equal(null);
      expect(links(el)).to.deep.equal([]);
      expect(save.hasAttribute('aria-describedby'), 'no reference to a text that is gone').to.be.false;
    }
  });

  it('in Russian, with N in the language’s own words', async () => {
    const el = await widget('ru');
    await click(el, 'Сохранить способ оплаты');
    expect(description(el, 'Подключить автоплатежи')).to.equal(
      `${RU_WHEN} Отключить их можно в любой момент на странице способов оплаты. Условия автоплатежей`,
    );
    expect(links(el).map(([text]) => text)).to.deep.equal(['странице способов оплаты', 'Условия автоплатежей']);
  });

  for (const [days, en, ru] of [
    [1, '1 day before', 'за 1 день до'],
    [2, '2 days before', 'за 2 дня до'],
    [5, '5 days before', 'за 5 дней до'],
    [21, '21 days before', 'за 21 день до'],
  ] as const) {
    it(`N comes from /config: ${days}`, async () => {
      relay.restore();
      relay = stubRelay({ config: { ...CONFIG, autopayLeadDays: days } });
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      await click(el, 'Save payment method');
      expect(description(el, 'Connect autopayments')).to.contain(`: ${en} each new period`);
      el.lang = 'ru';
      await el.updateComplete;
      expect(description(el, 'Подключить автоплатежи')).to.contain(`: ${ru} каждого нового периода`);
    });
  }

  it('without methods-url it says to contact the shop; without autopay-terms-url it links no terms', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
    await click(el, 'Save payment method');
    expect(description(el, 'Connect autopayments')).to.equal(`${EN_WHEN} To switch them off, contact the shop.`);
    expect(links(el)).to.deep.equal([]);
    el.lang = 'ru';
    await el.updateComplete;
    expect(description(el, 'Подключить автоплатежи')).to.equal(`${RU_WHEN} Чтобы отключить их, обратитесь в магазин.`);
  });

  it('links only http(s) addresses: javascript:, data: and the like give no link', async () => {
    const el = await widget('en');
    await click(el, 'Save payment method');
    for (const bad of [
      'javascript:alert(document.domain)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://shop.example/terms',
      'https://user:pw@shop.example/terms',
      ' ',
    ]) {
      el.setAttribute('methods-url', bad);
      el.setAttribute('autopay-terms-url', bad);
      await el.updateComplete;
      expect(links(el), bad).to.deep.equal([]);
      expect(description(el, 'Connect autopayments'), bad).to.equal(`${EN_WHEN} To switch them off, contact the shop.`);
    }
    // Relative to the page, as any link.
    el.setAttribute('methods-url', 'account.html');
    el.setAttribute('autopay-terms-url', 'https://terms.example/autopay');
    await el.updateComplete;
    expect(links(el)).to.deep.equal([
      ['your payment methods page', new URL('account.html', document.baseURI).href, '_top'],
      ['Autopayment terms', 'https://terms.example/autopay', '_top'],
    ]);
  });

  it('its texts are replaced through `texts`, for every language or per language', async () => {
    const el = await widget('en');
    el.texts = { labels: { autopay_terms: 'Terms of autopayment' } };
    await click(el, 'Save payment method');
    expect(links(el).map(([text]) => text)).to.deep.equal(['your payment methods page', 'Terms of autopayment']);
    el.texts = { ru: { labels: { autopay_off: 'Отключить: {link}.', autopay_methods: 'мои способы оплаты' } } };
    el.lang = 'ru';
    await el.updateComplete;
    expect(description(el, 'Подключить автоплатежи')).to.equal(
      `${RU_WHEN} Отключить: мои способы оплаты. Условия автоплатежей`,
    );
  });

  it('a language tag Intl refuses (ru-RU-) still tells N, in its language', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="ru-RU-"></billing-pay>`);
    await click(el, 'Система A');
    await click(el, 'Сохранить способ оплаты');
    expect(description(el, 'Подключить автоплатежи')).to.contain('за 3 дня до');
  });

  it('a /config without a whole N (an older relay) offers no saving: the payer is never told a guess, and pays', async () => {
    for (const autopayLeadDays of [undefined, 0, 1.5, '1', 366, null]) {
      relay.restore();
      relay = stubRelay({ config: { ...CONFIG, autopayLeadDays } });
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      expect(el.state, String(autopayLeadDays)).to.equal('ready');
      await click(el, 'System A');
      expect(control(el, 'Save payment method'), String(autopayLeadDays)).to.equal(null);
      el.remove();
    }
  });

  for (const lang of ['en', 'ru']) {
    for (const theme of ['light', 'dark']) {
      it(`axe finds nothing with the disclosure and its links shown, and after it goes (${lang}, ${theme})`, async () => {
        const el = await widget(lang);
        el.theme = theme as BillingPay['theme'];
        el.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
        await el.updateComplete;
        expect(links(el)).to.have.length(2);
        await expect(el).to.be.accessible();
        expectContrast(el);
        el.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
        await el.updateComplete;
        expect(el.shadowRoot!.getElementById('f-autopay-hint')).to.equal(null);
        await expect(el).to.be.accessible();
      });
    }
  }

  it('its links take the hint’s colour: a page’s own colours keep them readable (underlined, as links)', async () => {
    // A constructed style sheet: the tests' CSP allows no inline <style>.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`billing-pay.own-colours { --billing-pay-color-background: #202020; --billing-pay-color-field: #202020;
      --billing-pay-color-text: #f0f0f0; --billing-pay-color-muted: #d0d0d0; }`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      const el = await widget('en');
      el.theme = 'light';
      el.className = 'own-colours';
      await click(el, 'Save payment method');
      const link = el.shadowRoot!.querySelector('a')!;
      const hint = el.shadowRoot!.getElementById('f-autopay-hint')!;
      expect(getComputedStyle(link).color).to.equal(getComputedStyle(hint).color);
      expect(getComputedStyle(link).textDecorationLine).to.equal('underline');
      expectContrast(el);
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });

  it('end to end: the real relay’s /config gives N (the sandbox’s, which it hands to the relay)', async () => {
    relay.restore();
    const stack = await e2e<E2eStack>('stack');
    const el = await mount(html`<billing-pay lang="en" relay=${stack.relay} methods-url="/account"></billing-pay>`);
    for (const system of ['System A', 'System B']) {
      await click(el, system);
      if (!field(el, 'Save payment method').checked) await click(el, 'Save payment method');
      expect(description(el, 'Connect autopayments')).to.contain(': 2 days before each new period');
    }
    await click(el, 'System C'); // C cannot save a method: no disclosure
    expect(el.shadowRoot!.getElementById('f-autopay-hint')).to.equal(null);
    relay = stubRelay();
  });
});
