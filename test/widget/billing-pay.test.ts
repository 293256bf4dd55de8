import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import { LOOKUPS } from '../../src/eps/lookup.js';
import { BillingPay } from '../../src/widget/billing-pay.js';
import {
  CONFIG,
  PAYMENT_PAGE,
  click,
  control,
  created,
  errorOf,
  field,
  hanging,
  json,
  labels,
  mount,
  pay,
  payButton,
  paramsOf,
  select,
  settle,
  status,
  stubRelay,
  type,
  type RelayStub,
  stubNavigate,
  unmarked,
} from './helpers.js';
import { typeKeys } from './input.js';

const RELAY = 'http://relay.test';
const BACK = 'https://shop.example/back';

describe('<billing-pay>', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;

  beforeEach(() => {
    relay = stubRelay();
    // Never navigate the test page away.
    navigate = stubNavigate();
  });

  afterEach(() => {
    relay.restore();
    navigate.restore();
  });

  const widget = (lang = 'en') =>
    mount(html`<billing-pay relay=${RELAY} lang=${lang} return-url=${BACK}></billing-pay>`);

  /** Fills the required fields of the default form. */
  async function fillIn(el: BillingPay, amount = '1500', agreement = 'AG-1001') {
    await type(el, 'Amount', amount);
    await type(el, 'Agreement number', agreement);
  }

  async function sent(el: BillingPay) {
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    const posts = relay.payments();
    expect(posts).to.have.length(1);
    return unmarked(
      posts[0]!.body as Record<string, unknown> & { eps_params: { name: string; value?: unknown }[] },
    ) as unknown;
  }

  describe('defaults', () => {
    it('loads /config and renders the form for the first system', async () => {
      const ready = new Promise<CustomEvent>((resolve) =>
        document.addEventListener('billing-pay-ready', (e) => resolve(e as CustomEvent), { once: true }),
      );
      const el = await widget();
      expect((await ready).detail).to.deep.equal({ systems: ['A', 'B', 'C'], lookups: [5], maxAmount: '100000.00' });
      expect(relay.requests[0]!.url).to.equal(`${RELAY}/config`);

      expect(labels(el)).to.deep.equal([
        'System A',
        'System B',
        'System C',
        'Agreement number',
        'Amount',
        'E-mail or phone for the receipt (optional)',
        'Save payment method',
      ]);
      expect(el.shadowRoot!.querySelector('[part="add-comment"]')!.textContent!.trim()).to.equal('Add a comment');
      expect(el.shadowRoot!.querySelector('legend')!.textContent).to.equal('Payment system');
      expect(field(el, 'System A').checked).to.be.true;
      expect(field(el, 'Amount').getAttribute('inputmode')).to.equal('decimal');
      expect(el.shadowRoot!.querySelector('select')).to.equal(null);
      expect(field(el, 'Save payment method').checked).to.be.false;
      expect(payButton(el).textContent!.trim()).to.equal('Pay');
      expect(payButton(el).disabled).to.be.false;
      expect(el.shadowRoot!.querySelector('[type="password"], [autocomplete^="cc-"]')).to.equal(null);
    });

    it('offers the systems in the order of `systems`, under the merchant’s names', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" systems="C A" label-c="Card" label-a="Wallet"></billing-pay>`,
      );
      expect(labels(el).slice(0, 2)).to.deep.equal(['Card', 'Wallet']);
      expect(control(el, 'System B')).to.equal(null);
      expect(field(el, 'Card').checked).to.be.true;
    });

    it('offers only what the relay has configured', async () => {
      relay.restore();
      relay = stubRelay({ config: { ...CONFIG, systems: [CONFIG.systems[1]] } });
      const el = await widget();
      expect(labels(el)[0]).to.equal('System B');
      expect(control(el, 'System A')).to.equal(null);
    });

    it('labels the amount with the currency, and keeps a fixed amount read-only', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="ru" amount="1500.5" amount-fixed currency="₽"></billing-pay>`,
      );
      const amount = field(el, 'Сумма, ₽');
      expect(amount.value).to.equal('1 500,50'.replace(' ', '\u00a0'));
      expect(amount.readOnly).to.be.true;
      await type(el, 'Номер договора', 'AG-1');
      expect(paramsOf(await sent(el))).to.be.an('object');
      expect((relay.payments()[0]!.body as { amount: string }).amount).to.equal('1500.50');
    });
  });

  describe('each system shows its fields', () => {
    it('A: receipt contact, save, the comment behind "Add a comment"; no name', async () => {
      const el = await widget();
      for (const label of ['E-mail or phone for the receipt', 'Save payment method'])
        expect(control(el, label)).to.exist;
      expect(control(el, 'Name')).to.equal(null);
      expect(control(el, 'Comment')).to.equal(null);
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="add-comment"]')!.click();
      await el.updateComplete;
      await waitUntil(() => el.shadowRoot!.activeElement === control(el, 'Comment'), 'the comment field is focused');
      expect(el.shadowRoot!.querySelector('[part="add-comment"]')).to.equal(null);
    });

    it('shows the comment at once with `show-comment`', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en" show-comment></billing-pay>`);
      expect(control(el, 'Comment')).to.exist;
      expect(el.shadowRoot!.querySelector('[part="add-comment"]')).to.equal(null);
    });

    it('B: adds Name', async () => {
      const el = await widget();
      await click(el, 'System B');
      for (const label of ['E-mail or phone for the receipt', 'Name', 'Save payment method']) {
        expect(control(el, label), label).to.exist;
      }
    });

    it('C: cannot save a payment method', async () => {
      const el = await widget();
      await click(el, 'System C');
      expect(control(el, 'E-mail or phone for the receipt')).to.exist;
      expect(control(el, 'Save payment method')).to.equal(null);
      expect(control(el, 'Name')).to.equal(null);
    });

    it('saving a method shows "Connect autopayments" checked and disabled', async () => {
      const el = await widget();
      expect(control(el, 'Connect autopayments')).to.equal(null);
      await click(el, 'Save payment method');
      const autopay = field(el, 'Connect autopayments');
      expect(autopay.checked).to.be.true;
      expect(autopay.disabled).to.be.true;
      autopay.click();
      await el.updateComplete;
      expect(autopay.checked).to.be.true;
      await click(el, 'Save payment method');
      expect(control(el, 'Connect autopayments')).to.equal(null);
    });

    it('offers "Only link the card" for A only with allow-link-only', async () => {
      let el = await widget();
      await click(el, 'Save payment method');
      expect(control(el, 'Only link the card (no charge)')).to.equal(null);

      el = await mount(html`<billing-pay relay=${RELAY} lang="en" allow-link-only></billing-pay>`);
      expect(control(el, 'Only link the card (no charge)')).to.equal(null);
      await click(el, 'Save payment method');
      expect(control(el, 'Only link the card (no charge)')).to.exist;
      await click(el, 'System B');
      await click(el, 'Save payment method');
      expect(control(el, 'Only link the card (no charge)')).to.equal(null);
    });

    it('chooses the lookup kind when more than one is allowed, and labels the field by it', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" lookup="5 7" return-url=${BACK}></billing-pay>`,
      );
      const chooser = field<HTMLSelectElement>(el, 'Find the agreement by');
      expect([...chooser.options].map((o) => o.textContent)).to.deep.equal(['Agreement number', 'E-mail']);
      await select(el, 'Find the agreement by', 'E-mail');
      expect(control(el, 'Agreement number')).to.equal(null);
      expect(field(el, 'E-mail').type).to.equal('email');
      await type(el, 'Amount', '10');
      await type(el, 'E-mail', 'client@example.com');
      const body = (await sent(el)) as Record<string, unknown>;
      expect(body.agreement_param_id).to.equal(7);
      expect(body.agreement_param_value).to.equal('client@example.com');
    });

    it('a value one character over its kind’s limit is refused as too long, never cut to another agreement', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en" lookup="10" return-url=${BACK}></billing-pay>`);
      const over = ` ${'1'.repeat(LOOKUPS[10].maxLength + 1)}`;
      await type(el, 'Amount', '10');
      field(el, 'Client ID').focus();
      await typeKeys(over);
      expect(field(el, 'Client ID').value, 'kept as typed, key by key').to.equal(over);
      await pay(el);
      expect(errorOf(el, 'Client ID')).to.equal('This value is too long.');
      expect(relay.payments()).to.have.length(0);
    });

    it('a relative return-url is resolved against the page, for the success and the failure address', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" return-url="/thanks.html?order=7"></billing-pay>`,
      );
      await click(el, 'System B');
      await type(el, 'Amount', '10');
      await type(el, 'Agreement number', 'AG-1');
      const params = paramsOf(await sent(el));
      const back = new URL('/thanks.html?order=7', location.href).href;
      expect(params.confirmation_return_url).to.equal(back);
      expect(String(params.return_url_fail)).to.match(/^http.*\/thanks\.html\?order=7&billing-pay-failed=/);
    });

    it('does not ask for a preset agreement', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" agreement="AG-77" return-url=${BACK}></billing-pay>`,
      );
      expect(control(el, 'Agreement number')).to.equal(null);
      expect(el.shadowRoot!.querySelector('[part="preset"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
        'Agreement number: AG-77',
      );
      await type(el, 'Amount', '99');
      const body = (await sent(el)) as Record<string, unknown>;
      expect(body.agreement_param_value).to.equal('AG-77');
    });
  });

  describe('the exact body sent to the relay', () => {
    it('A, paying only', async () => {
      const el = await widget();
      await fillIn(el);
      expect(await sent(el)).to.deep.equal({
        system: 'A',
        amount: '1500.00',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
        eps_params: [
          { name: 'confirmation_type', value: 'redirect' },
          { name: 'confirmation_return_url', value: BACK },
        ],
      });
    });

    it('A, saving the method: the three autopayment flags are forced on', async () => {
      const el = await widget();
      await fillIn(el, '250.5', ' AG-1001 ');
      await type(el, 'E-mail or phone for the receipt', 'client@example.com');
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="add-comment"]')!.click();
      await el.updateComplete;
      await type(el, 'Comment', 'May');
      await click(el, 'Save payment method');
      expect(await sent(el)).to.deep.equal({
        system: 'A',
        amount: '250.50',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
        eps_params: [
          { name: 'confirmation_type', value: 'redirect' },
          { name: 'confirmation_return_url', value: BACK },
          { name: 'email', value: 'client@example.com' },
          { name: 'comment', value: 'May' },
          { name: 'save_payment_method', value: true },
          { name: 'enable_autopayments', value: true },
          { name: 'preferred_method', value: true },
        ],
      });
    });

    it('A, only linking a card: cancel_payment with the save flags', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" allow-link-only return-url=${BACK}></billing-pay>`,
      );
      await fillIn(el, '1');
      await click(el, 'Save payment method');
      await click(el, 'Only link the card (no charge)');
      expect(payButton(el).textContent!.trim()).to.equal('Link card');
      expect(paramsOf(await sent(el))).to.deep.equal({
        confirmation_type: 'redirect',
        confirmation_return_url: BACK,
        save_payment_method: true,
        enable_autopayments: true,
        preferred_method: true,
        cancel_payment: true,
      });
    });

    it('B, saving the method: is_autopayment, both return addresses (the failure one marked) and the name', async () => {
      const el = await widget();
      await click(el, 'System B');
      await fillIn(el, '1500.5');
      await type(el, 'Name', 'ООО Ромашка');
      await click(el, 'Save payment method');
      const body = (await sent(el)) as { eps_params: { name: string; value: unknown }[] };
      const fail = String(body.eps_params[1]!.value);
      // The failure address is the return address with the widget's marker: this element's attempt id.
      expect(fail).to.match(/^https:\/\/shop\.example\/back\?billing-pay-failed=[\da-f]{8}-[\da-f-]{27}$/);
      expect(body).to.deep.equal({
        system: 'B',
        amount: '1500.50',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
        eps_params: [
          { name: 'confirmation_return_url', value: BACK },
          { name: 'return_url_fail', value: fail },
          { name: 'name', value: 'ООО Ромашка' },
          { name: 'is_autopayment', value: true },
        ],
      });
    });

    it('C: return_url and the optional texts, never a save flag', async () => {
      const el = await widget();
      await click(el, 'Save payment method'); // chosen for A, then the client switches to C
      await click(el, 'System C');
      await fillIn(el, '42');
      await type(el, 'E-mail or phone for the receipt', '+7 900 123-45-67');
      expect(await sent(el)).to.deep.equal({
        system: 'C',
        amount: '42.00',
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
        eps_params: [
          { name: 'return_url', value: BACK },
          { name: 'phone', value: '+7 900 123-45-67' },
        ],
      });
    });

    it('presets the receipt contact from the `email` attribute (else `phone`), and sends it as what it is', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" return-url=${BACK} email="client@example.com"></billing-pay>`,
      );
      expect(field(el, 'E-mail or phone for the receipt').value).to.equal('client@example.com');
      await fillIn(el);
      expect(paramsOf(await sent(el))).to.deep.equal({
        confirmation_type: 'redirect',
        confirmation_return_url: BACK,
        email: 'client@example.com',
      });
      relay.payments().length = 0;
      const byPhone = await mount(
        html`<billing-pay relay=${RELAY} lang="en" return-url=${BACK} phone="+7 900 123-45-67"></billing-pay>`,
      );
      expect(field(byPhone, 'E-mail or phone for the receipt').value).to.equal('+7 900 123-45-67');
      await fillIn(byPhone);
      const redirect = oneEvent(byPhone, 'billing-pay-redirect');
      await pay(byPhone);
      await redirect;
      expect(paramsOf(relay.payments().at(-1)!.body)).to.include({ phone: '+7 900 123-45-67' });
    });

    it('takes `email` set after the form is shown', async () => {
      const el = await widget();
      el.setAttribute('email', 'late@example.com');
      await el.updateComplete;
      expect(field(el, 'E-mail or phone for the receipt').value).to.equal('late@example.com');
      await fillIn(el);
      expect(paramsOf(await sent(el))).to.include({ email: 'late@example.com' });
    });

    it('names system B by `label-b`, and the client picks it by that name', async () => {
      const el = await mount(
        html`<billing-pay relay=${RELAY} lang="en" return-url=${BACK} label-b="Fast payments (B)"></billing-pay>`,
      );
      expect(labels(el).slice(0, 3)).to.deep.equal(['System A', 'Fast payments (B)', 'System C']);
      expect(control(el, 'System B')).to.equal(null);
      await click(el, 'Fast payments (B)');
      await fillIn(el);
      expect(((await sent(el)) as { system: string }).system).to.equal('B');
    });

    it('returns the client to the current page by default', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      await fillIn(el);
      expect(paramsOf(await sent(el)).confirmation_return_url).to.equal(window.location.href);
    });

    for (const [lang, typed, amount] of [
      ['en', '1500', '1500.00'],
      ['en', '1500.5', '1500.50'],
      ['en', '1,500.50', '1500.50'],
      ['ru', '1500', '1500.00'],
      ['ru', '1500,5', '1500.50'],
      ['ru', '1 500,50', '1500.50'],
      ['ru', '1\u00a0500,50', '1500.50'],
      ['ru', '1\u202f500,50', '1500.50'],
    ] as const) {
      it(`reads the amount "${typed}" (${lang}) as ${amount}`, async () => {
        const el = await widget(lang);
        await type(el, lang === 'ru' ? 'Сумма' : 'Amount', typed);
        await type(el, lang === 'ru' ? 'Номер договора' : 'Agreement number', 'AG-1001');
        expect((await sent(el)) as object).to.have.property('amount', amount);
      });
    }

    it('sends the body also as the billing-pay-submit detail, with a JSON content type', async () => {
      const el = await widget();
      await fillIn(el);
      const submit = oneEvent(el, 'billing-pay-submit');
      await pay(el);
      const { detail } = await submit;
      await waitUntil(() => relay.payments().length, 'no payment sent');
      const post = relay.payments()[0]!;
      expect(post.body).to.deep.equal(detail);
      expect(post.method).to.equal('POST');
      expect(post.url).to.equal(`${RELAY}/payments`);
      expect(post.headers.get('Content-Type')).to.equal('application/json');
    });

    it('a billing-pay-submit listener that changes the detail changes nothing that is sent (it was checked)', async () => {
      const el = await widget();
      await fillIn(el);
      el.addEventListener(
        'billing-pay-submit',
        (e) => {
          e.detail.amount = '0.001';
          e.detail.eps_params.push({ name: 'comment', value: 'x'.repeat(900) });
        },
        { once: true },
      );
      await pay(el);
      await waitUntil(() => relay.payments().length, 'no payment sent');
      const body = relay.payments()[0]!.body as { amount: string; eps_params: { name: string }[] };
      expect(body.amount).to.equal('1500.00');
      expect(body.eps_params.map((p) => p.name)).to.not.include('comment');
    });

    it('sends nothing when a billing-pay-submit listener cancels it, and the form stays usable', async () => {
      const el = await widget();
      await fillIn(el);
      el.addEventListener('billing-pay-submit', (e) => e.preventDefault(), { once: true });
      const submit = oneEvent(el, 'billing-pay-submit');
      await pay(el);
      expect((await submit).defaultPrevented).to.equal(true);
      await el.updateComplete;
      expect(relay.payments()).to.have.length(0);
      expect(payButton(el).disabled).to.equal(false);
      expect(status(el)).to.equal('');
      await pay(el);
      await waitUntil(() => relay.payments().length === 1, 'the next Pay sent nothing');
    });
  });

  describe('validation', () => {
    it('shows field errors next to their fields in English, announces them and focuses the first', async () => {
      const el = await widget();
      await type(el, 'Amount', '15.555');
      await type(el, 'E-mail or phone for the receipt', 'not-an-address');
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      const { detail } = await error;
      expect(detail.code).to.equal('validation_failed');
      expect(detail.fields).to.deep.equal({
        agreement_param_value: 'This field is required.',
        amount: 'An amount has at most two decimals.',
        'eps_params.email': 'Enter an e-mail address such as name@example.com.',
      });
      await el.updateComplete;
      expect(field(el, 'Amount').getAttribute('aria-invalid')).to.equal('true');
      expect(errorOf(el, 'Amount')).to.equal('An amount has at most two decimals.');
      expect(errorOf(el, 'Agreement number')).to.equal('This field is required.');
      expect(errorOf(el, 'E-mail or phone for the receipt')).to.equal(
        'Enter an e-mail address such as name@example.com.',
      );
      expect(status(el)).to.equal('Please correct the highlighted fields.');
      expect(el.shadowRoot!.activeElement).to.equal(field(el, 'Agreement number'));
      expect(relay.payments()).to.have.length(0);

      await type(el, 'Amount', '15.55');
      expect(field(el, 'Amount').getAttribute('aria-invalid')).to.equal('false');
    });

    it('shows field errors in Russian', async () => {
      const el = await widget('ru');
      expect(labels(el)).to.include.members(['Сумма', 'Номер договора', 'E-mail или телефон для чека (необязательно)']);
      expect(el.shadowRoot!.querySelector('legend')!.textContent).to.equal('Платёжная система');
      await type(el, 'Сумма', '-5');
      await type(el, 'Номер договора', 'AG 1001!');
      await pay(el);
      expect(errorOf(el, 'Сумма')).to.equal('Сумма должна быть больше нуля.');
      expect(errorOf(el, 'Номер договора')).to.equal('Введите значение без пробелов и спецсимволов.');
      expect(status(el)).to.equal('Исправьте отмеченные поля.');
      expect(payButton(el).textContent!.trim()).to.equal('Оплатить');
    });

    it('refuses an amount above the relay’s maximum', async () => {
      const el = await widget();
      await fillIn(el, '100000.01');
      await pay(el);
      expect(errorOf(el, 'Amount')).to.equal('The amount is above the maximum allowed.');
      await fillIn(el, '100000');
      await sent(el);
    });

    it('follows the page language when it has no lang of its own', async () => {
      const wrapper = document.createElement('div');
      wrapper.lang = 'ru-RU';
      document.body.append(wrapper);
      try {
        const ready = new Promise((resolve) => document.addEventListener('billing-pay-ready', resolve, { once: true }));
        const el = document.createElement('billing-pay');
        el.relay = RELAY;
        wrapper.append(el);
        await ready;
        await el.updateComplete;
        expect(control(el, 'Сумма')).to.exist;
        el.setAttribute('lang', 'en');
        await el.updateComplete;
        expect(control(el, 'Amount')).to.exist;
      } finally {
        wrapper.remove();
      }
    });
  });

  describe('sending', () => {
    it('sends an Idempotency-Key, a new one for each press of Pay', async () => {
      const el = await widget();
      el.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
      await fillIn(el);
      await sent(el);
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      await redirect;
      const keys = relay.payments().map((p) => p.headers.get('Idempotency-Key'));
      expect(keys).to.have.length(2);
      for (const key of keys)
        expect(key).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(keys[0]).to.not.equal(keys[1]);
    });

    it('retries a network failure of the same attempt once, with the same key', async () => {
      let calls = 0;
      relay.restore();
      relay = stubRelay({
        payment: () => (calls++ === 0 ? Promise.reject(new TypeError('Failed to fetch')) : created()),
      });
      const el = await widget();
      await fillIn(el);
      await sent(el).catch(() => undefined);
      const posts = relay.payments();
      expect(posts).to.have.length(2);
      expect(posts[0]!.headers.get('Idempotency-Key')).to.equal(posts[1]!.headers.get('Idempotency-Key'));
      expect(navigate).to.have.been.calledOnceWith(PAYMENT_PAGE);
    });

    it('reports a network failure after the retry', async () => {
      relay.restore();
      relay = stubRelay({ payment: () => Promise.reject(new TypeError('Failed to fetch')) });
      const el = await widget();
      await fillIn(el);
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail.code).to.equal('network_error');
      await el.updateComplete;
      expect(status(el)).to.equal('The payment service could not be reached. Check the connection and try again.');
      expect(payButton(el).disabled).to.be.false;
    });

    it('Pay again after no answer sends the same request with the same key (the relay cannot pay it twice); a changed one gets a new key', async () => {
      relay.restore();
      relay = stubRelay({ payment: () => Promise.reject(new TypeError('Failed to fetch')) });
      const el = await widget();
      await fillIn(el);
      for (let press = 0; press < 2; press++) {
        const error = oneEvent(el, 'billing-pay-error');
        await pay(el);
        await error;
      }
      await type(el, 'Amount', '99');
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      await error;
      const keys = relay.payments().map((r) => r.headers.get('Idempotency-Key'));
      expect(keys).to.have.length(6, 'each press: one try and its one network retry');
      expect(new Set(keys.slice(0, 4)).size, 'the same request, pressed twice').to.equal(1);
      expect(keys[4]).to.not.equal(keys[0], 'another amount is another payment');
    });

    it('Pay again after an answer that could not be read sends the same key (the payment may exist)', async () => {
      relay.restore();
      let calls = 0;
      relay = stubRelay({
        payment: () => (calls++ === 0 ? Promise.resolve(new Response('<html>', { status: 201 })) : created()),
      });
      const el = await widget();
      await fillIn(el);
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail.code).to.equal('bad_answer');
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      await redirect;
      const keys = relay.payments().map((r) => r.headers.get('Idempotency-Key'));
      expect(keys).to.have.length(2);
      expect(keys[1]).to.equal(keys[0]);
    });

    it('a double-click sends exactly one request, and Pay is disabled while it is in flight', async () => {
      relay.restore();
      relay = stubRelay({ payment: hanging });
      const el = await widget();
      await fillIn(el);
      const button = payButton(el);
      button.click();
      button.click();
      await el.updateComplete;
      button.click();
      await waitUntil(() => relay.payments().length, 'no payment sent');
      expect(relay.payments()).to.have.length(1);
      expect(button.disabled).to.be.true;
      expect(status(el)).to.equal('Sending the payment…');
      el.remove();
    });

    it('removing the element mid-request aborts it, quietly', async () => {
      relay.restore();
      relay = stubRelay({ payment: hanging });
      const el = await widget();
      await fillIn(el);
      const errors = sinon.spy();
      el.addEventListener('billing-pay-error', errors);
      await pay(el);
      await waitUntil(() => relay.payments().length, 'no payment sent');
      const signal = relay.payments()[0]!.signal!;
      expect(signal.aborted).to.be.false;
      el.remove();
      expect(signal.aborted).to.be.true;
      await settle();
      expect(errors).to.not.have.been.called;
      expect(navigate).to.not.have.been.called;
    });

    it('leaves no timer behind when removed mid-request', async () => {
      relay.restore();
      relay = stubRelay({ payment: hanging });
      const el = await widget();
      await fillIn(el);
      const flush = async () => {
        for (let i = 0; i < 20; i++) await Promise.resolve();
      };
      const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        await pay(el);
        await flush();
        expect(clock.countTimers(), 'the request’s time limit').to.equal(1);
        el.remove();
        await flush();
        expect(clock.countTimers()).to.equal(0);
      } finally {
        clock.restore();
      }
    });

    it('gives up on a relay that does not answer in time', async () => {
      relay.restore();
      relay = stubRelay({ payment: hanging });
      const el = await widget();
      await fillIn(el);
      const errors = sinon.spy();
      el.addEventListener('billing-pay-error', errors);
      const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        await pay(el);
        await clock.tickAsync(30_000);
        await el.updateComplete;
        expect(errors).to.have.been.calledOnce;
        expect(errors.firstCall.args[0].detail.code).to.equal('timeout');
        expect(status(el)).to.equal(
          'No answer came in time: the payment may have been made. Check before paying again.',
        );
        expect(clock.countTimers()).to.equal(0);
      } finally {
        clock.restore();
      }
    });

    it('works again after being removed and added back', async () => {
      const el = await widget();
      const parent = el.parentElement!;
      el.remove();
      parent.append(el);
      await el.updateComplete;
      await fillIn(el);
      await sent(el);
    });

    for (const when of ['at once, as React strict mode does', 'a moment later'] as const) {
      it(`removed while /config loads and added back ${when}: loads /config again and can pay`, async () => {
        relay.restore();
        let configs = 0;
        relay = stubRelay({ config: (request) => (configs++ === 0 ? hanging(request) : json(CONFIG)) });
        const el = await fixture<BillingPay>(
          html`<billing-pay relay=${RELAY} lang="en" return-url=${BACK}></billing-pay>`,
        );
        const errors = sinon.spy();
        el.addEventListener('billing-pay-error', errors);
        const first = relay.requests[0]!;
        expect(first.url).to.equal(`${RELAY}/config`);
        expect(status(el)).to.equal('Loading payment options…');

        const parent = el.parentElement!;
        el.remove();
        expect(first.signal!.aborted, 'the /config request is aborted').to.be.true;
        if (when === 'a moment later') await settle();
        const ready = oneEvent(el, 'billing-pay-ready');
        parent.append(el);
        await waitUntil(() => payButton(el), 'the form never came back after the element was added again', {
          timeout: 2000,
        });
        expect((await ready).detail.systems).to.deep.equal(['A', 'B', 'C']);
        expect(relay.requests.filter((r) => r.url.endsWith('/config'))).to.have.length(2);
        expect(errors, 'an aborted load is no error').to.not.have.been.called;

        await fillIn(el);
        await sent(el);
      });
    }

    it('removed during a payment and added back: the request is aborted, and the client can pay again', async () => {
      relay.restore();
      let payments = 0;
      relay = stubRelay({ payment: (request) => (payments++ === 0 ? hanging(request) : created()) });
      const el = await widget();
      const errors = sinon.spy();
      el.addEventListener('billing-pay-error', errors);
      await fillIn(el);
      await pay(el);
      await waitUntil(() => relay.payments().length, 'no payment sent');
      const first = relay.payments()[0]!;
      expect(payButton(el).disabled).to.be.true;

      const parent = el.parentElement!;
      el.remove();
      expect(first.signal!.aborted, 'the payment request is aborted').to.be.true;
      parent.append(el);
      await waitUntil(() => !payButton(el).disabled, 'Pay is not usable again');
      expect(status(el)).to.equal('');
      expect(field(el, 'Amount').value, 'what the client typed is kept').to.equal('1500');

      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      expect((await redirect).detail.url).to.equal(PAYMENT_PAGE);
      const posts = relay.payments();
      expect(posts).to.have.length(2);
      expect(posts[1]!.body).to.deep.equal(posts[0]!.body);
      expect(
        posts[1]!.headers.get('Idempotency-Key'),
        'the first may have reached the relay: the same key, so it cannot pay twice',
      ).to.equal(posts[0]!.headers.get('Idempotency-Key'));
      expect(
        relay.requests.filter((r) => r.url.endsWith('/config')),
        '/config is not loaded again',
      ).to.have.length(1);
      expect(errors).to.not.have.been.called;
      await waitUntil(() => navigate.called, 'no navigation');
      expect(navigate).to.have.been.calledOnceWith(PAYMENT_PAGE);
    });
  });

  describe('redirect', () => {
    it('fires billing-pay-redirect with the URL and then navigates', async () => {
      const el = await widget();
      await fillIn(el);
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      const event = await redirect;
      expect(event.detail).to.deep.equal({ url: PAYMENT_PAGE });
      expect(event.cancelable).to.be.true;
      expect(event.composed).to.be.true;
      await waitUntil(() => navigate.called, 'no navigation');
      expect(navigate).to.have.been.calledOnceWith(PAYMENT_PAGE);
      expect(status(el)).to.equal('Opening the payment page…');
    });

    it('is usable again when the client comes back through the back/forward cache', async () => {
      const el = await widget();
      await fillIn(el);
      await sent(el);
      await el.updateComplete;
      expect(payButton(el).disabled).to.be.true;
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      await el.updateComplete;
      expect(payButton(el).disabled).to.be.false;
      expect(status(el)).to.equal('');
    });

    it('does not navigate when the page cancels the redirect', async () => {
      const el = await widget();
      document.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
      await fillIn(el);
      await sent(el);
      await settle();
      expect(navigate).to.not.have.been.called;
      expect(payButton(el).disabled).to.be.false;
    });

    for (const url of [
      'http://pay.example/checkout',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://user:pw@pay.example/',
    ]) {
      it(`refuses to open ${url}`, async () => {
        relay.restore();
        relay = stubRelay({ payment: () => created(url) });
        const el = await widget();
        const redirects = sinon.spy();
        el.addEventListener('billing-pay-redirect', redirects);
        await fillIn(el);
        const error = oneEvent(el, 'billing-pay-error');
        await pay(el);
        expect((await error).detail.code).to.equal('unsafe_redirect');
        expect(redirects).to.not.have.been.called;
        expect(navigate).to.not.have.been.called;
      });
    }

    it('opens http: on this machine (the sandbox)', async () => {
      relay.restore();
      relay = stubRelay({ payment: () => created('http://127.0.0.1:8788/pay/1') });
      const el = await widget();
      await fillIn(el);
      await sent(el);
      await waitUntil(() => navigate.called, 'no navigation');
      expect(navigate).to.have.been.calledOnceWith('http://127.0.0.1:8788/pay/1');
    });
  });

  describe('relay errors', () => {
    const rejected = () =>
      json(
        {
          error: {
            code: 'validation_failed',
            message: 'The payment request is not valid.',
            // As the relay sends them: each problem's key, and its English text for API users.
            fields: {
              agreement_param_value: {
                problem: 'code',
                message: 'Enter the value without spaces or special characters.',
              },
              'eps_params.phone': { problem: 'phone', message: 'Enter a phone number such as +7 900 123-45-67.' },
              'eps_params.confirmation_return_url': {
                problem: 'origin',
                message: 'This address is not on one of the merchant’s allowed origins.',
              },
            },
          },
        },
        422,
      );

    it('a 422: billing-pay-error with the fields, each shown next to its field', async () => {
      relay.restore();
      relay = stubRelay({ payment: rejected });
      const el = await widget();
      await fillIn(el);
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      const { detail } = await error;
      expect(detail.code).to.equal('validation_failed');
      expect(detail.fields).to.have.property('eps_params.phone', 'Enter a phone number such as +7 900 123-45-67.');
      await el.updateComplete;
      expect(errorOf(el, 'Agreement number')).to.equal('Enter the value without spaces or special characters.');
      expect(errorOf(el, 'E-mail or phone for the receipt')).to.equal('Enter a phone number such as +7 900 123-45-67.');
      expect(status(el)).to.equal(
        'Please correct the highlighted fields. Return address: This address is not on one of the merchant’s allowed origins.',
      );
      expect(el.shadowRoot!.activeElement).to.equal(field(el, 'Agreement number'));
    });

    it('a 422 in Russian: the relay’s problem keys are shown in Russian', async () => {
      relay.restore();
      relay = stubRelay({ payment: rejected });
      const el = await widget('ru');
      await type(el, 'Сумма', '1500');
      await type(el, 'Номер договора', 'AG-1001');
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail.fields).to.have.property(
        'eps_params.phone',
        'Введите телефон, например +7 900 123-45-67.',
      );
      await el.updateComplete;
      expect(errorOf(el, 'E-mail или телефон для чека')).to.equal('Введите телефон, например +7 900 123-45-67.');
    });

    it('a billing that is down: try again shortly, not another system (it is the same billing)', async () => {
      relay.restore();
      relay = stubRelay({
        payment: () => json({ error: { code: 'billing_unavailable', message: 'The billing is unavailable.' } }, 502),
      });
      const el = await widget();
      await fillIn(el);
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail).to.deep.equal({
        code: 'billing_unavailable',
        message: 'The payment service is busy. Try again in 1 minute.',
      });
      await el.updateComplete;
      expect(status(el)).to.equal('The payment service is busy. Try again in 1 minute.');
    });

    it('a /config failure is reported', async () => {
      relay.restore();
      relay = stubRelay({ config: json({ error: { code: 'internal_error', message: 'Oops.' } }, 500) });
      const error = new Promise<CustomEvent>((resolve) =>
        document.addEventListener('billing-pay-error', (e) => resolve(e as CustomEvent), { once: true }),
      );
      const el = document.createElement('billing-pay');
      el.relay = RELAY;
      el.lang = 'en';
      document.body.append(el);
      try {
        expect((await error).detail.code).to.equal('internal_error');
        await el.updateComplete;
        expect(status(el)).to.equal('Payment options could not be loaded.');
        expect(el.shadowRoot!.querySelector('button')?.textContent, 'only the way to try again').to.equal('Try again');
      } finally {
        el.remove();
      }
    });

    it('a failed /config: Try again loads it at once, then waits longer after each failure; the code says what failed', async () => {
      relay.restore();
      let fails = 4; // two loads, each with its no-cors probe (is the relay there at all?)
      relay = stubRelay({
        config: () => (fails-- > 0 ? Promise.reject(new TypeError('Failed to fetch')) : json(CONFIG)),
      });
      const configs = () => relay.requests.filter((r) => r.url.endsWith('/config') && r.method === 'GET').length;
      const codes: string[] = [];
      const onError = (e: Event) => codes.push((e as CustomEvent<{ code: string }>).detail.code);
      document.addEventListener('billing-pay-error', onError);
      const el = await fixture<BillingPay>(html`<billing-pay relay=${RELAY} lang="ru"></billing-pay>`);
      await waitUntil(() => codes.length === 1 && el.shadowRoot!.querySelector('button'), 'no Try again');
      const retry = () => el.shadowRoot!.querySelector<HTMLButtonElement>('button')!;
      expect(retry().textContent).to.equal('Попробовать снова');
      expect(status(el)).to.equal('Не удалось загрузить способы оплаты.');
      await expect(el).to.be.accessible();
      const before = configs();

      retry().click();
      await waitUntil(() => codes.length === 2 && retry(), 'the second load did not fail');
      expect(configs() - before, 'the first Try again loads at once').to.be.greaterThan(0);
      expect(codes, 'not an origin problem: nothing answered at all').to.deep.equal(['network_error', 'network_error']);
      expect(el.shadowRoot!.activeElement, 'the focus is back on Try again').to.equal(retry());

      const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const ready = oneEvent(el, 'billing-pay-ready');
        const count = configs();
        retry().click();
        await el.updateComplete;
        expect(status(el)).to.equal('Загружаем способы оплаты…');
        await clock.tickAsync(900);
        expect(configs(), 'a second Try again waits').to.equal(count);
        await clock.tickAsync(200);
        expect(configs()).to.equal(count + 1);
        await ready;
      } finally {
        clock.restore();
      }
      await el.updateComplete;
      expect(payButton(el)).to.exist;
      document.removeEventListener('billing-pay-error', onError);
      el.remove();
    });
  });

  describe('accessibility', () => {
    for (const lang of ['en', 'ru']) {
      it(`is accessible when idle, invalid, sending and failed (${lang})`, async () => {
        relay.restore();
        let answer: (response: Response) => void = () => {};
        relay = stubRelay({ payment: () => new Promise<Response>((resolve) => (answer = resolve)) });
        const el = await mount(
          html`<billing-pay relay=${RELAY} lang=${lang} lookup="5 7 15" allow-link-only></billing-pay>`,
        );
        await expect(el).to.be.accessible();

        await click(el, lang === 'ru' ? 'Сохранить способ оплаты' : 'Save payment method');
        await pay(el);
        await expect(el).to.be.accessible();

        await type(el, lang === 'ru' ? 'Сумма' : 'Amount', '10');
        await type(el, lang === 'ru' ? 'Номер договора' : 'Agreement number', 'AG-1');
        await pay(el);
        await waitUntil(() => payButton(el).disabled, 'Pay is not disabled while sending');
        await expect(el).to.be.accessible();

        const failed = oneEvent(el, 'billing-pay-error');
        answer(json({ error: { code: 'billing_rejected', message: 'Rejected.' } }, 502));
        await failed;
        await el.updateComplete;
        expect(status(el)).to.not.equal('');
        await expect(el).to.be.accessible();
      });
    }
  });
});
