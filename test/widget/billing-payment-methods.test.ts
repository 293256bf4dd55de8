import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import '../../src/widget/billing-payment-methods.js';
import type { BillingPaymentMethods, SavedPaymentMethod } from '../../src/widget/billing-payment-methods.js';
import type { TextsOption } from '../../src/widget/i18n.js';
import { axeContrast, backgroundOf, expectContrast, loadAxe, luminance } from './contrast.js';
import { hanging, json, settle, type SentRequest } from './helpers.js';

const RELAY = 'http://relay.test';
const SESSION = 'eyJhbGciOiJIUzI1NiJ9.eyJhZ3IiOjEwMDF9.c2lnbmF0dXJl';

const VISA: SavedPaymentMethod = {
  id: 7,
  autopayment: true,
  title: 'Visa •••• 4242',
  method: 'bank_card',
  system: 'A',
};
const MIR: SavedPaymentMethod = { id: 9, autopayment: true, title: 'Mir •••• 1234', method: 'bank_card', system: 'B' };
const OFF: SavedPaymentMethod = { id: 11, autopayment: false, card_mask: '5555 55•• •••• 4444', system: 'A' };

interface Options {
  /** The methods the relay lists; a DELETE removes one. */
  methods?: SavedPaymentMethod[];
  list?: (request: SentRequest) => Response | Promise<Response>;
  remove?: (request: SentRequest) => Response | Promise<Response>;
}

/** `window.fetch` playing the relay's `GET /payment-methods` and `DELETE /payment-methods/{id}`. */
function stubMethods(options: Options = {}) {
  let methods = [...(options.methods ?? [VISA, MIR, OFF])];
  const requests: SentRequest[] = [];
  const stub = sinon.stub(window, 'fetch').callsFake(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: SentRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: init.body,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    init.signal?.throwIfAborted();
    const id = /\/payment-methods\/(\d+)$/.exec(request.url)?.[1];
    if (request.url === `${RELAY}/payment-methods` && request.method === 'GET') {
      return options.list ? options.list(request) : json({ payment_methods: methods });
    }
    if (id && request.method === 'DELETE') {
      if (options.remove) return options.remove(request);
      methods = methods.filter((m) => m.id !== Number(id));
      return json({ payment_methods: methods });
    }
    return json({ error: { code: 'not_found', message: 'There is nothing at this address.' } }, 404);
  });
  return {
    requests,
    deletes: () => requests.filter((r) => r.method === 'DELETE'),
    restore: () => stub.restore(),
  };
}

const unauthorized = () =>
  json({ error: { code: 'session_invalid', message: 'The client session has expired; reload the page.' } }, 401);

const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const root = (el: BillingPaymentMethods) => el.shadowRoot!;
const status = (el: BillingPaymentMethods) => norm(root(el).querySelector('[role="status"]')?.textContent);
const items = (el: BillingPaymentMethods) => [...root(el).querySelectorAll('li')].map((li) => norm(li.textContent));

/** The button whose accessible name (its `aria-label`, else its text) is `name`. */
function button(el: BillingPaymentMethods, name: string): HTMLButtonElement {
  const found = [...root(el).querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') ?? norm(b.textContent)) === name,
  );
  if (!found) {
    const names = [...root(el).querySelectorAll('button')].map(
      (b) => b.getAttribute('aria-label') ?? norm(b.textContent),
    );
    throw new Error(`No button "${name}"; buttons: ${names.join(' | ')}`);
  }
  return found;
}

const buttonNames = (el: BillingPaymentMethods) =>
  [...root(el).querySelectorAll('button')].map((b) => `${norm(b.textContent)} (${b.getAttribute('aria-label') ?? ''})`);

async function press(el: BillingPaymentMethods, name: string): Promise<void> {
  button(el, name).click();
  await el.updateComplete;
}

/**
 * What has the focus inside the element: a button's accessible name, or a role. (Assertions compare strings and
 * booleans, never DOM nodes: the runner would try to serialize a node of a failed assertion and hang.)
 */
function focused(el: BillingPaymentMethods): string {
  const node = root(el).activeElement;
  return node ? (node.getAttribute('aria-label') ?? node.getAttribute('role') ?? norm(node.textContent)) : '(nothing)';
}

const has = (el: BillingPaymentMethods, selector: string) => root(el).querySelector(selector) !== null;

/** Renders the element and waits until the list (or its failure) is shown. */
async function mount(lang = 'en', session = SESSION): Promise<BillingPaymentMethods> {
  const el = await fixture<BillingPaymentMethods>(
    html`<billing-payment-methods relay=${RELAY} session=${session} lang=${lang}></billing-payment-methods>`,
  );
  await waitUntil(() => el.getAttribute('state') !== 'loading', 'the list did not load');
  await el.updateComplete;
  return el;
}

describe('<billing-payment-methods>', () => {
  let relay: ReturnType<typeof stubMethods>;

  beforeEach(() => {
    relay = stubMethods();
  });

  afterEach(() => {
    relay.restore();
  });

  describe('defaults', () => {
    it('loads the session’s methods with the session as a bearer token, and lists them with their autopayment', async () => {
      const el = await mount();
      expect(relay.requests).to.have.length(1);
      const [request] = relay.requests;
      expect(request!.url).to.equal(`${RELAY}/payment-methods`);
      expect(request!.method).to.equal('GET');
      expect(request!.headers.get('authorization')).to.equal(`Bearer ${SESSION}`);

      expect(root(el).querySelector('ul')!.getAttribute('aria-label')).to.equal('Saved payment methods');
      expect(items(el)).to.deep.equal([
        'Visa •••• 4242 Bank card · System A Autopayment on Disable autopayment',
        'Mir •••• 1234 Bank card · System B Autopayment on Disable autopayment',
        '5555 55•• •••• 4444 System A Autopayment off',
      ]);
      expect(button(el, 'Disable autopayment for Visa •••• 4242').textContent!.trim()).to.equal('Disable autopayment');
      expect(button(el, 'Disable autopayment for Mir •••• 1234').isConnected).to.be.true;
      expect(buttonNames(el)).to.have.length(2);
      expect(status(el)).to.equal('');
    });

    it('shows the loading state until the list arrives, and waits for a session', async () => {
      relay.restore();
      let answer: (response: Response) => void = () => {};
      relay = stubMethods({ list: () => new Promise<Response>((resolve) => (answer = resolve)) });
      const el = await fixture<BillingPaymentMethods>(
        html`<billing-payment-methods relay=${RELAY} lang="en"></billing-payment-methods>`,
      );
      await settle();
      expect(relay.requests, 'no request without a session').to.have.length(0);
      expect(status(el)).to.equal('Loading saved payment methods…');

      el.session = SESSION;
      await el.updateComplete;
      await settle();
      expect(relay.requests).to.have.length(1);
      expect(status(el)).to.equal('Loading saved payment methods…');
      expect(has(el, 'ul')).to.be.false;
      answer(json({ payment_methods: [VISA] }));
      await waitUntil(() => items(el).length === 1);
      expect(status(el)).to.equal('');
    });

    it('names a method without display data by its number, and speaks Russian', async () => {
      relay.restore();
      relay = stubMethods({ methods: [{ id: 3, autopayment: true }, VISA] });
      const el = await mount('ru');
      expect(items(el)).to.deep.equal([
        'Способ оплаты 3 Автоплатёж включён Отключить автоплатёж',
        'Visa •••• 4242 Банковская карта · Система A Автоплатёж включён Отключить автоплатёж',
      ]);
      expect(root(el).querySelector('ul')!.getAttribute('aria-label')).to.equal('Сохранённые способы оплаты');
      expect(button(el, 'Отключить автоплатёж для Способ оплаты 3').isConnected).to.be.true;
    });

    it('shows the empty state', async () => {
      relay.restore();
      relay = stubMethods({ methods: [] });
      const el = await mount();
      expect(has(el, 'ul')).to.be.false;
      expect(status(el)).to.equal('No saved payment methods.');
      expect(has(el, 'button')).to.be.false;
    });
  });

  describe('disabling an autopayment', () => {
    it('asks first, then sends DELETE with the id, updates the list and fires billing-payment-methods-change', async () => {
      const el = await mount();
      await press(el, 'Disable autopayment for Visa •••• 4242');
      expect(relay.deletes(), 'nothing is sent before the confirmation').to.have.length(0);

      const group = root(el).querySelector('[role="group"]')!;
      expect(norm(root(el).getElementById(group.getAttribute('aria-labelledby')!)!.textContent)).to.equal(
        'Disable autopayment with Visa •••• 4242? The method is no longer saved; to pay automatically again, save it with your next payment.',
      );
      // The least destructive choice has the focus.
      await settle();
      expect(focused(el)).to.equal('Keep autopayment for Visa •••• 4242');
      expect(norm(root(el).activeElement?.textContent)).to.equal('Keep');

      const change = oneEvent(el, 'billing-payment-methods-change');
      const confirm = button(el, 'Disable autopayment for Visa •••• 4242');
      expect(norm(confirm.textContent)).to.equal('Disable');
      confirm.click();
      confirm.click(); // a double click sends one request
      const event = await change;

      expect(relay.deletes()).to.have.length(1);
      const [sent] = relay.deletes();
      expect(sent!.url).to.equal(`${RELAY}/payment-methods/7`);
      expect(sent!.headers.get('authorization')).to.equal(`Bearer ${SESSION}`);
      expect(event.detail).to.deep.equal([MIR, OFF]);
      expect(event.bubbles && event.composed).to.be.true;

      await el.updateComplete;
      expect(items(el)).to.deep.equal([
        'Mir •••• 1234 Bank card · System B Autopayment on Disable autopayment',
        '5555 55•• •••• 4444 System A Autopayment off',
      ]);
      expect(status(el)).to.equal('Autopayment with Visa •••• 4242 is disabled.');
      await settle();
      expect(focused(el)).to.equal('Disable autopayment for Mir •••• 1234');
    });

    it('shows "Disabling…" while the relay works, and the empty state after the last one', async () => {
      relay.restore();
      let answer: (response: Response) => void = () => {};
      relay = stubMethods({ methods: [VISA], remove: () => new Promise<Response>((resolve) => (answer = resolve)) });
      const el = await mount();
      await press(el, 'Disable autopayment for Visa •••• 4242');
      await press(el, 'Disable autopayment for Visa •••• 4242');
      await settle();
      expect(status(el)).to.equal('Disabling autopayment…');
      expect(button(el, 'Keep autopayment for Visa •••• 4242').getAttribute('aria-disabled')).to.equal('true');
      await press(el, 'Keep autopayment for Visa •••• 4242');
      expect(has(el, '[role="group"]'), 'Keep does nothing once sent').to.be.true;

      answer(json({ payment_methods: [] }));
      await waitUntil(() => root(el).querySelector('ul') === null);
      expect(status(el)).to.equal('Autopayment with Visa •••• 4242 is disabled. No saved payment methods.');
      expect(focused(el)).to.equal('status');
    });

    it('"Keep" cancels without a request and gives the focus back', async () => {
      const el = await mount();
      await press(el, 'Disable autopayment for Mir •••• 1234');
      await press(el, 'Keep autopayment for Mir •••• 1234');
      expect(has(el, '[role="group"]')).to.be.false;
      await settle();
      expect(focused(el)).to.equal('Disable autopayment for Mir •••• 1234');
      expect(relay.deletes()).to.have.length(0);
      expect(relay.requests).to.have.length(1);
    });

    it('Escape cancels too', async () => {
      const el = await mount();
      await press(el, 'Disable autopayment for Visa •••• 4242');
      await settle();
      root(el).activeElement!.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
      );
      await el.updateComplete;
      expect(has(el, '[role="group"]')).to.be.false;
      expect(relay.deletes()).to.have.length(0);
    });

    it('a refused disable keeps the list, says so and fires billing-payment-methods-error', async () => {
      relay.restore();
      relay = stubMethods({ remove: () => json({ error: { code: 'billing_unavailable', message: 'Down.' } }, 502) });
      const el = await mount();
      await press(el, 'Disable autopayment for Visa •••• 4242');
      const error = oneEvent(el, 'billing-payment-methods-error');
      await press(el, 'Disable autopayment for Visa •••• 4242');
      expect((await error).detail).to.deep.equal({
        code: 'billing_unavailable',
        message: 'The autopayment could not be disabled. Try again later.',
      });
      await el.updateComplete;
      expect(items(el)).to.have.length(3);
      expect(status(el)).to.equal('The autopayment could not be disabled. Try again later.');
      await settle();
      expect(focused(el)).to.equal('Disable autopayment for Visa •••• 4242');
    });
  });

  describe('errors', () => {
    it('a method that is already gone leaves the list, with a word why', async () => {
      relay.restore();
      const gone = { error: { code: 'not_found', message: 'There is no such payment method on this agreement.' } };
      relay = stubMethods({ remove: () => json(gone, 404) });
      const el = await mount();
      await press(el, 'Disable autopayment for Visa •••• 4242');
      const error = oneEvent(el, 'billing-payment-methods-error');
      await press(el, 'Disable autopayment for Visa •••• 4242');
      expect((await error).detail).to.deep.equal({
        code: 'not_found',
        message: 'This payment method is no longer saved.',
      });
      await el.updateComplete;
      expect(items(el)).to.deep.equal([
        'Mir •••• 1234 Bank card · System B Autopayment on Disable autopayment',
        '5555 55•• •••• 4444 System A Autopayment off',
      ]);
      expect(status(el)).to.equal('This payment method is no longer saved.');
      await settle();
      expect(focused(el)).to.equal('status');
    });

    it('an expired session shows "reload the page" and fires billing-payment-methods-error', async () => {
      relay.restore();
      relay = stubMethods({ list: unauthorized });
      const errors = sinon.spy();
      document.addEventListener('billing-payment-methods-error', errors);
      try {
        const el = await mount();
        expect(status(el)).to.equal('Your session has expired; reload the page.');
        expect(root(el).querySelector('[role="status"]')!.classList.contains('error')).to.be.true;
        expect(has(el, 'ul')).to.be.false;
        expect(has(el, 'button'), 'trying again cannot help').to.be.false;
        expect(errors).to.have.been.calledOnce;
        expect(errors.firstCall.args[0].detail).to.deep.equal({
          code: 'session_invalid',
          message: 'Your session has expired; reload the page.',
        });
      } finally {
        document.removeEventListener('billing-payment-methods-error', errors);
      }
    });

    it('a session that expires before a disable replaces the list', async () => {
      relay.restore();
      relay = stubMethods({ remove: unauthorized });
      const el = await mount('ru');
      await press(el, 'Отключить автоплатёж для Visa •••• 4242');
      const error = oneEvent(el, 'billing-payment-methods-error');
      await press(el, 'Отключить автоплатёж для Visa •••• 4242');
      expect((await error).detail.message).to.equal('Сеанс истёк; обновите страницу.');
      await el.updateComplete;
      expect(has(el, 'ul')).to.be.false;
      expect(status(el)).to.equal('Сеанс истёк; обновите страницу.');
      await settle();
      expect(focused(el)).to.equal('status');
    });

    it('a list that cannot be loaded can be tried again', async () => {
      relay.restore();
      let fail = true;
      relay = stubMethods({
        list: () => (fail ? Promise.reject(new TypeError('Failed to fetch')) : json({ payment_methods: [VISA] })),
      });
      const el = await mount();
      expect(status(el)).to.equal('The payment service could not be reached. Check the connection and try again.');
      fail = false;
      await press(el, 'Try again');
      await waitUntil(() => items(el).length === 1);
      expect(status(el)).to.equal('');
    });
  });

  describe('removal', () => {
    it('removing the element mid-request aborts the list, quietly, and it loads again when added back', async () => {
      relay.restore();
      relay = stubMethods({ list: hanging });
      const el = await fixture<BillingPaymentMethods>(
        html`<billing-payment-methods relay=${RELAY} session=${SESSION} lang="en"></billing-payment-methods>`,
      );
      await settle();
      const errors = sinon.spy();
      el.addEventListener('billing-payment-methods-error', errors);
      const signal = relay.requests[0]!.signal!;
      expect(signal.aborted).to.be.false;
      const parent = el.parentElement!;
      el.remove();
      expect(signal.aborted).to.be.true;
      await settle();
      expect(errors).to.not.have.been.called;

      relay.restore();
      relay = stubMethods();
      parent.append(el);
      await waitUntil(() => items(el).length === 3);
    });

    it('removing the element mid-disable aborts the DELETE', async () => {
      relay.restore();
      relay = stubMethods({ remove: hanging });
      const el = await mount();
      const changes = sinon.spy();
      el.addEventListener('billing-payment-methods-change', changes);
      el.addEventListener('billing-payment-methods-error', changes);
      await press(el, 'Disable autopayment for Visa •••• 4242');
      await press(el, 'Disable autopayment for Visa •••• 4242');
      await settle();
      const signal = relay.deletes()[0]!.signal!;
      el.remove();
      expect(signal.aborted).to.be.true;
      await settle();
      expect(changes).to.not.have.been.called;
    });
  });

  describe('languages and theming, as <billing-pay>', () => {
    /** Renders the element and waits until its list (or its failure) is shown. */
    async function shown(template: ReturnType<typeof html>): Promise<BillingPaymentMethods> {
      const el = await fixture<BillingPaymentMethods>(template);
      await waitUntil(() => items(el).length > 0 || root(el).querySelector('.status.error'), 'the list did not load');
      await el.updateComplete;
      return el;
    }

    it('replaces any text with `texts`, for every language or per language tag, the shared labels too', async () => {
      const flat: TextsOption = {
        methods: { disable: 'Stop autopayment', autopay_on: 'Autopay active' },
        labels: { system_name: 'Wallet {id}' },
      };
      const el = await shown(
        html`<billing-payment-methods relay=${RELAY} session=${SESSION} lang="en" .texts=${flat}></billing-payment-methods>`,
      );
      expect(items(el)[0]).to.equal('Visa •••• 4242 Bank card · Wallet A Autopay active Stop autopayment');
      expect(button(el, 'Disable autopayment for Visa •••• 4242').textContent!.trim()).to.equal('Stop autopayment');

      el.lang = 'ru';
      await el.updateComplete;
      expect(items(el)[0], 'flat texts are for every language').to.equal(
        'Visa •••• 4242 Банковская карта · Wallet A Autopay active Stop autopayment',
      );

      el.texts = { RU: { methods: { disable: 'Выключить' } }, 'ru-by': { methods: { autopay_on: 'Работает' } } };
      await el.updateComplete;
      expect(items(el)[0]).to.equal('Visa •••• 4242 Банковская карта · Система A Автоплатёж включён Выключить');
      el.lang = 'ru-BY';
      await el.updateComplete;
      expect(items(el)[0], 'the exact tag over its language').to.equal(
        'Visa •••• 4242 Банковская карта · Система A Работает Выключить',
      );
      el.lang = 'en';
      await el.updateComplete;
      expect(items(el)[0]).to.equal('Visa •••• 4242 Bank card · System A Autopayment on Disable autopayment');
    });

    it('reads `texts` from a JSON attribute and speaks a language it does not ship, in its messages too', async () => {
      relay.restore();
      relay = stubMethods({ list: unauthorized });
      const german = JSON.stringify({ de: { methods: { error_session: 'Sitzung abgelaufen; Seite neu laden.' } } });
      const error = oneEvent(document, 'billing-payment-methods-error');
      const el = await shown(
        html`<billing-payment-methods relay=${RELAY} session=${SESSION} lang="de-DE" texts=${german}></billing-payment-methods>`,
      );
      expect(status(el)).to.equal('Sitzung abgelaufen; Seite neu laden.');
      expect((await error).detail).to.deep.equal({
        code: 'session_invalid',
        message: 'Sitzung abgelaufen; Seite neu laden.',
      });
      expect(root(el).querySelector('[part="base"]')!.getAttribute('lang')).to.equal('de-DE');

      relay.restore();
      relay = stubMethods();
      const other = await shown(
        html`<billing-payment-methods relay=${RELAY} session=${SESSION} lang="de" texts=${german}></billing-payment-methods>`,
      );
      expect(items(other)[0], 'what the page did not translate stays English').to.equal(
        'Visa •••• 4242 Bank card · System A Autopayment on Disable autopayment',
      );
    });

    it('declares `theme` (reflected, `auto` by default); `dark` forces the dark scheme and `light` the light one', async () => {
      const el = await mount();
      const panel = () => root(el).querySelector<HTMLElement>('[part="base"]')!;
      expect(el.theme).to.equal('auto');
      expect(el.getAttribute('theme')).to.equal('auto');
      el.theme = 'dark';
      await el.updateComplete;
      expect(el.getAttribute('theme')).to.equal('dark');
      expect(luminance(backgroundOf(panel()))).to.be.below(0.1);
      el.setAttribute('theme', 'light');
      await el.updateComplete;
      expect(el.theme).to.equal('light');
      expect(luminance(backgroundOf(panel()))).to.be.above(0.9);
    });
  });

  describe('accessibility', () => {
    // chai-a11y-axe loads axe on first use; the contrast checks call it directly.
    before(loadAxe);

    for (const theme of ['light', 'dark'] as const) {
      it(`theme="${theme}": accessible, and every text at least 4.5:1 (computed and by axe), listing, confirming and failed`, async () => {
        relay.restore();
        relay = stubMethods({ remove: () => json({ error: { code: 'billing_error', message: 'Down.' } }, 502) });
        const el = await fixture<BillingPaymentMethods>(
          html`<billing-payment-methods relay=${RELAY} session=${SESSION} lang="en" theme=${theme}></billing-payment-methods>`,
        );
        await waitUntil(() => items(el).length === 3, 'the list did not load');
        const check = async (state: string) => {
          await expect(el, state).to.be.accessible();
          expectContrast(el);
          const axe = await axeContrast(el);
          expect(
            axe.passes,
            `${state}: axe judged too little; left incomplete: ${axe.incomplete.join(' | ')}`,
          ).to.be.greaterThan(5);
        };
        await check('listing');
        await press(el, 'Disable autopayment for Visa •••• 4242');
        await check('confirming');
        await press(el, 'Disable autopayment for Visa •••• 4242');
        await waitUntil(() => has(el, '.status.error'), 'the refusal was not shown');
        await el.updateComplete;
        await check('failed');
      });
    }

    for (const lang of ['en', 'ru'] as const) {
      const t = {
        en: { disable: 'Disable autopayment for Visa •••• 4242' },
        ru: { disable: 'Отключить автоплатёж для Visa •••• 4242' },
      }[lang];

      it(`is accessible with a list and while confirming (${lang})`, async () => {
        const el = await mount(lang);
        await expect(el).to.be.accessible();
        await press(el, t.disable);
        await expect(el).to.be.accessible();
      });

      it(`is accessible when empty and when failed (${lang})`, async () => {
        relay.restore();
        relay = stubMethods({ methods: [] });
        const empty = await mount(lang);
        await expect(empty).to.be.accessible();

        relay.restore();
        relay = stubMethods({ list: unauthorized });
        const expired = await mount(lang);
        expect(status(expired)).to.not.equal('');
        await expect(expired).to.be.accessible();

        relay.restore();
        relay = stubMethods({ list: () => json({ error: { code: 'billing_error', message: 'Down.' } }, 502) });
        const failed = await mount(lang);
        expect(has(failed, 'button')).to.be.true;
        await expect(failed).to.be.accessible();
      });
    }
  });
});
