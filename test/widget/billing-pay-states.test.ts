/**
 * `<billing-pay>`'s states as a payer meets them, the relay played at `fetch`: the skeleton while `/config` loads (no
 * layout shift when it comes), sending, the relay's duplicate payment question, a page the relay does not allow, a
 * refusal to work in a foreign frame; and the page's own styles kept out, in a right-to-left page too.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import { loadLate } from '../../src/widget/late/load.js';
import { TAB_KEY } from '../../src/widget/payment-return.js';
import { press } from './input.js';
import {
  CONFIG,
  click,
  created,
  field,
  hanging,
  json,
  mount,
  pay,
  PAYMENT_PAGE,
  payButton,
  status,
  stubNavigate,
  stubRelay,
  type,
  type RelayStub,
} from './helpers.js';

const RELAY = 'http://relay.test';
const BACK = 'https://shop.example/back';
const EARLIER = '2026-11-26T12:03:00Z';

/** The relay's answer to the same payment sent again within its window. */
const duplicate = () =>
  json({ error: { code: 'duplicate_payment', message: 'The same payment was sent.', earlier_at: EARLIER } }, 409);
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const button = (el: BillingPay, text: string) =>
  [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === text);

describe('<billing-pay> states', () => {
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

  async function filled(lang = 'en'): Promise<BillingPay> {
    const el = await mount(html`<billing-pay relay=${RELAY} lang=${lang} return-url=${BACK}></billing-pay>`);
    await type(el, lang === 'ru' ? 'Номер договора' : 'Agreement number', 'AG-1001');
    await type(el, lang === 'ru' ? 'Сумма' : 'Amount', '1500.5');
    return el;
  }

  describe('loading', () => {
    const only = (...ids: string[]) => CONFIG.systems.filter((s) => ids.includes(s.id));
    // The skeleton cannot know the relay's offer: the form's height must not depend on it.
    const OFFERS: { name: string; systems: typeof CONFIG.systems; attributes?: string }[] = [
      { name: 'the full offer', systems: CONFIG.systems },
      { name: 'C alone (no saving)', systems: only('C') },
      { name: 'A and B without saving', systems: only('A', 'B').map((s) => ({ ...s, canSave: false })) },
      { name: 'B and C, as `systems` orders them', systems: only('B', 'C'), attributes: 'B C' },
    ];
    it('draws the form once when /config answers at once: no skeleton first', async () => {
      const drawn: string[] = [];
      const el = document.createElement('billing-pay') as BillingPay;
      el.setAttribute('relay', RELAY);
      el.lang = 'en';
      const ready = oneEvent(el, 'billing-pay-ready');
      document.body.append(el);
      new MutationObserver(() =>
        drawn.push(el.shadowRoot!.querySelector('.skeleton') ? 'skeleton' : el.state === 'ready' ? 'form' : 'other'),
      ).observe(el.shadowRoot!, { childList: true, subtree: true, characterData: true, attributes: true });
      await ready;
      el.remove();
      expect(drawn).to.deep.equal(['form']);
    });

    it('a session the page set before the element was defined: its /config, and one ready event for that form', async () => {
      const events: CustomEvent[] = [];
      // Not upgraded yet: an element of a template's inert document, given a property as a page's script would.
      const template = document.createElement('template');
      template.innerHTML = `<billing-pay relay="${RELAY}" lang="en"></billing-pay>`;
      const el = document.adoptNode(template.content.firstElementChild!) as BillingPay;
      Object.assign(el, { session: 'signed-session' });
      el.addEventListener('billing-pay-ready', (e) => events.push(e as CustomEvent));
      document.body.append(el);
      await waitUntil(() => events.length > 0, 'no ready event', { timeout: 3000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const state = el.state;
      el.remove();
      expect(events.length, 'ready events').to.equal(1);
      expect(state).to.equal('ready');
      expect(events[0]!.detail.systems).to.deep.equal(['A', 'B', 'C']);
      expect(
        relay.requests.some((r) => r.url.endsWith('/session')),
        'the session asked for',
      ).to.be.true;
    });

    for (const offer of OFFERS)
      for (const width of [360, 1024]) {
        it(`draws the form's skeleton in its final place: nothing moves when /config comes (${offer.name}, ${width} px)`, async () => {
          // Chromium counts layout shifts; elsewhere what would shift is measured by hand (the page after, and Pay).
          const counted = PerformanceObserver.supportedEntryTypes.includes('layout-shift');
          relay.restore();
          let answer: (r: Response) => void = () => {};
          relay = stubRelay({ config: () => new Promise<Response>((resolve) => (answer = resolve)) });
          const shifts: PerformanceEntry[] = [];
          const observer = new PerformanceObserver((list) => shifts.push(...list.getEntries()));
          const box = await fixture<HTMLElement>(html`<div>
            <billing-pay relay=${RELAY} lang="en" systems=${offer.attributes ?? ''}></billing-pay>
            <p id="after">The page goes on under the widget.</p>
          </div>`);
          box.style.inlineSize = `${width}px`;
          const el = box.querySelector('billing-pay')!;
          // A late `/config`: the skeleton comes once the first render stops waiting for it.
          await waitUntil(() => status(el) === 'Loading payment options…', 'no skeleton', { timeout: 2000 });
          await nextFrame();
          expect(el.state).to.equal('loading');
          const inert = el.shadowRoot!.querySelector('.fields')?.hasAttribute('inert');
          expect(status(el)).to.equal('Loading payment options…');
          await expect(el).to.be.accessible();
          const before = box.querySelector('#after')!.getBoundingClientRect().top;
          const pay = payButton(el).getBoundingClientRect().top;
          if (counted) observer.observe({ type: 'layout-shift', buffered: false });
          const ready = oneEvent(el, 'billing-pay-ready');
          answer(json({ ...CONFIG, systems: offer.systems }));
          await ready;
          await nextFrame();
          await nextFrame();
          if (counted) observer.disconnect();
          expect(el.shadowRoot!.querySelector('.skeleton')).to.equal(null);
          expect(shifts.map((s) => (s as PerformanceEntry & { value: number }).value)).to.deep.equal([]);
          expect(box.querySelector('#after')!.getBoundingClientRect().top).to.equal(before);
          expect(payButton(el).getBoundingClientRect().top, 'Pay stays').to.equal(pay);
          expect(inert, 'the skeleton is inert').to.be.true;
          await expect(el).to.be.accessible();
        });
      }
  });

  describe('sending', () => {
    it('the button shows progress and the form is inert until the relay answers', async () => {
      relay.restore();
      relay = stubRelay({ payment: hanging });
      const el = await filled();
      expect(payButton(el).textContent!.trim()).to.equal('Pay 1,500.50');
      await pay(el);
      await waitUntil(() => status(el) === 'Sending the payment…', status(el));
      const form = el.shadowRoot!.querySelector('form')!;
      expect(form.getAttribute('aria-busy')).to.equal('true');
      expect(el.shadowRoot!.querySelector('.fields')!.hasAttribute('inert')).to.be.true;
      expect(payButton(el).disabled).to.be.true;
      expect(payButton(el).textContent!.trim(), 'Pay shows the progress').to.equal('Sending the payment…');
      await expect(el).to.be.accessible();
    });

    it('writes the amount with an ISO currency by Intl, in the language’s place', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="ru" currency="RUB" amount="1500.5"></billing-pay>`);
      expect(field(el, 'Сумма, ₽').value).to.equal('1\u00a0500,50');
      expect(payButton(el).textContent!.trim()).to.equal('Оплатить 1\u00a0500,50\u00a0₽');
      el.lang = 'en';
      await el.updateComplete;
      expect(payButton(el).textContent!.trim()).to.equal('Pay ₽1,500.50');
    });
  });

  describe('the same payment sent again', () => {
    for (const lang of ['en', 'ru']) {
      it(`asks before paying again; Cancel goes back to the form as it was (${lang})`, async () => {
        relay.restore();
        relay = stubRelay({ payment: duplicate });
        const el = await filled(lang);
        const errors: Event[] = [];
        el.addEventListener('billing-pay-error', (e) => errors.push(e));
        await pay(el);
        const time = new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(new Date(EARLIER));
        const question =
          lang === 'ru'
            ? `Вы уже начали такой же платёж в ${time}. Оплатить ещё раз?`
            : `You started the same payment at ${time}. Pay again?`;
        await waitUntil(() => status(el) === question, `the status says "${status(el)}"`);
        const group = el.shadowRoot!.querySelector('[part~="question"]')!;
        expect(group.getAttribute('role')).to.equal('group');
        expect(el.shadowRoot!.getElementById(group.getAttribute('aria-labelledby')!)!.textContent).to.equal(question);
        const [again, cancel] = lang === 'ru' ? ['Оплатить ещё раз', 'Отмена'] : ['Pay again', 'Cancel'];
        expect(button(el, again)).to.exist;
        await waitUntil(
          () => el.shadowRoot!.activeElement === button(el, cancel),
          'Cancel, the safe answer, is focused',
        );
        expect(errors, 'a question, not an error').to.have.length(0);
        await expect(el).to.be.accessible();

        await press('Enter');
        await el.updateComplete;
        expect(status(el)).to.equal('');
        expect(el.shadowRoot!.querySelector('[part~="question"]')).to.equal(null);
        expect(field(el, lang === 'ru' ? 'Номер договора' : 'Agreement number').value).to.equal('AG-1001');
        expect(relay.payments()).to.have.length(1);
        await waitUntil(() => el.shadowRoot!.activeElement === payButton(el), 'Pay is focused');
      });
    }

    /** A form paid once that the relay calls a duplicate (a second payment is created): the question is asked. */
    async function asked(): Promise<BillingPay> {
      relay.restore();
      relay = stubRelay({ payment: () => (relay.payments().length === 1 ? duplicate() : created()) });
      const el = await filled();
      await pay(el);
      await waitUntil(() => button(el, 'Pay again'), 'no question');
      return el;
    }

    it('"Pay again" sends the same values with confirm_duplicate under a new idempotency key', async () => {
      const el = await asked();
      const redirect = oneEvent(el, 'billing-pay-redirect');
      button(el, 'Pay again')!.click();
      await redirect;
      const [first, second] = relay.payments();
      expect(second!.body).to.deep.equal({ ...(first!.body as object), confirm_duplicate: true });
      expect(second!.headers.get('Idempotency-Key')).to.not.equal(first!.headers.get('Idempotency-Key'));
      expect(navigate.calledOnce).to.be.true;
    });

    it('"Pay again" in a frame of another origin sends nothing and says where to pay', async () => {
      const el = await asked();
      // Framed since the first press (test/widget/framing.test.ts frames real pages).
      const { Checkout } = await loadLate('pay');
      const framed = sinon.stub(Checkout.prototype, 'framed').returns(true);
      try {
        button(el, 'Pay again')!.click();
        await el.updateComplete;
        expect(status(el)).to.equal('Inside another site this form does not work. Open the shop’s page directly.');
        expect(relay.payments(), 'only the first press was sent').to.have.length(1);
      } finally {
        framed.restore();
      }
    });
  });

  describe('refusals while loading', () => {
    it('a page the relay does not allow: a short line for the payer, the exact fix in the console', async () => {
      relay.restore();
      relay = stubRelay({
        config: () => json({ error: { code: 'origin_not_allowed', message: 'This origin is not allowed.' } }, 403),
      });
      const logged = sinon.stub(console, 'error');
      try {
        const el = await fixture<BillingPay>(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
        await waitUntil(() => el.state === 'failed', 'not failed');
        await el.updateComplete;
        expect(status(el)).to.equal('Payments cannot be taken on this page yet. Please tell the shop.');
        const line = logged.args.map((a) => a.join(' ')).find((l) => l.includes('ALLOWED_ORIGINS'));
        expect(line)
          .to.contain(`ALLOWED_ORIGINS`)
          .and.match(new RegExp(`: ${location.origin}$`));
        await expect(el).to.be.accessible();
      } finally {
        logged.restore();
      }
    });

    it('in a frame of another origin Pay sends nothing and says where to pay', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="ru"></billing-pay>`);
      // Where the page is framed is the browser's to say (test/widget/framing.test.ts frames real pages); here, what
      // the payer sees when the element refuses.
      const { Checkout } = await loadLate('pay');
      const framed = sinon.stub(Checkout.prototype, 'framed').returns(true);
      try {
        await click(el, 'Система A');
        await type(el, 'Сумма', '10');
        await type(el, 'Номер договора', 'AG-1001');
        await pay(el);
        expect(status(el)).to.equal('Внутри другого сайта форма не работает. Откройте страницу магазина напрямую.');
        expect(relay.payments(), 'nothing sent').to.have.length(0);
      } finally {
        framed.restore();
      }
    });
  });

  describe('the page’s styles stay out', () => {
    const PROPS = [
      'text-align',
      'font-family',
      'font-size',
      'font-weight',
      'font-style',
      'line-height',
      'letter-spacing',
      'word-spacing',
      'text-transform',
      'text-indent',
      'white-space',
      'color',
      'text-shadow',
      'cursor',
      'visibility',
      'font-variant-caps',
      'caret-color',
      'tab-size',
    ];
    const SELECTORS = [
      'legend',
      '.tile',
      '.name',
      'label[for="f-amount"]',
      '#f-amount',
      '.more',
      'button.pay',
      '.note',
    ];

    it('on a page styled text-align, serif, line-height 3, letter-spacing, uppercase, a caret colour…, it looks as on a plain page', async () => {
      const box = await fixture<HTMLElement>(html`<div>
        <div><billing-pay relay=${RELAY} lang="en"></billing-pay></div>
        <div><billing-pay relay=${RELAY} lang="en"></billing-pay></div>
      </div>`);
      // Through the CSSOM: the test pages' policy allows no style attribute.
      const [plainBox, styledBox] = [...box.children] as HTMLElement[];
      plainBox!.style.inlineSize = '400px';
      Object.assign(styledBox!.style, {
        inlineSize: '400px',
        textAlign: 'center',
        fontFamily: 'serif',
        lineHeight: '3',
        letterSpacing: '.2em',
        textTransform: 'uppercase',
        wordSpacing: '1em',
        fontStyle: 'italic',
        textIndent: '2em',
        whiteSpace: 'pre',
        color: 'rgb(200, 0, 0)',
        cursor: 'wait',
        textShadow: '1px 1px red',
        fontVariant: 'small-caps',
        caretColor: 'rgb(200, 0, 0)',
        tabSize: '2',
      });
      expect(getComputedStyle(styledBox!).textTransform, 'the page is styled').to.equal('uppercase');
      const [plain, styled] = [...box.querySelectorAll('billing-pay')];
      await waitUntil(() => plain!.state === 'ready' && styled!.state === 'ready', 'not ready');
      await plain!.updateComplete;
      await styled!.updateComplete;
      for (const selector of SELECTORS) {
        const [a, b] = [plain!, styled!].map((el) => getComputedStyle(el.shadowRoot!.querySelector(selector)!));
        for (const prop of PROPS)
          expect(b!.getPropertyValue(prop), `${selector} ${prop}`).to.equal(a!.getPropertyValue(prop));
      }
      expect(styled!.getBoundingClientRect().height, 'the same height').to.equal(plain!.getBoundingClientRect().height);
    });

    it('is hidden or disabled with an ancestor that hides or disables what it holds', async () => {
      const box = await fixture<HTMLElement>(html`<div><billing-pay relay=${RELAY} lang="en"></billing-pay></div>`);
      const el = box.querySelector('billing-pay')!;
      await waitUntil(() => el.state === 'ready', 'not ready');
      await el.updateComplete;
      Object.assign(box.style, { visibility: 'hidden', pointerEvents: 'none' });
      const pay = getComputedStyle(el.shadowRoot!.querySelector('button.pay')!);
      expect([pay.visibility, pay.pointerEvents]).to.deep.equal(['hidden', 'none']);
    });

    it('in a right-to-left page, mirrors its layout with the text', async () => {
      const box = await fixture<HTMLElement>(html`<div dir="rtl">
        <billing-pay relay=${RELAY} lang="en"></billing-pay>
      </div>`);
      box.style.inlineSize = '360px';
      const el = box.querySelector('billing-pay')!;
      await waitUntil(() => el.state === 'ready', 'not ready');
      await el.updateComplete;
      const root = el.shadowRoot!;
      const radio = root.querySelector('#system-A')!.getBoundingClientRect();
      const name = root.querySelector('.name')!.getBoundingClientRect();
      expect(radio.left, 'the radio stands right of its name').to.be.greaterThan(name.left);
      const label = root.querySelector('label[for="f-amount"]')!;
      expect(getComputedStyle(label).direction).to.equal('rtl');
      const host = el.getBoundingClientRect();
      expect(label.getBoundingClientRect().right, 'a label starts at the right').to.be.closeTo(host.right - 16, 1);
      await expect(el).to.be.accessible();
    });
  });

  describe('axe at 360 px', () => {
    for (const lang of ['en', 'ru'])
      for (const theme of ['light', 'dark'])
        for (const dir of ['ltr', 'rtl'])
          it(`${lang}, ${theme}, ${dir}: the form, the duplicate question, the result screen`, async function () {
            // Three audits and a return looked into in idle time: more than mocha's 5 s on a busy machine.
            this.timeout(30_000);
            relay.restore();
            const paid = () => json({ redirect_url: PAYMENT_PAGE, payment: { payment_id: 42 } }, 201);
            relay = stubRelay({ payment: () => (relay.payments().length === 1 ? duplicate() : paid()) });
            const widget = async (screen: string) => {
              const box = await fixture<HTMLElement>(html`<div dir=${dir}>
                <billing-pay relay=${RELAY} lang=${lang} theme=${theme} currency="RUB"></billing-pay>
              </div>`);
              box.style.inlineSize = '360px';
              const el = box.querySelector('billing-pay')!;
              await waitUntil(() => el.state === 'ready', 'not ready');
              await el.updateComplete;
              expect(getComputedStyle(el).direction).to.equal(dir);
              expect(el.scrollWidth, `${screen}: nothing sticks out`).to.be.at.most(360);
              return el;
            };
            const el = await widget('the form');
            await expect(el).to.be.accessible();

            await type(el, lang === 'ru' ? 'Сумма, ₽' : 'Amount, ₽', '1500.5');
            await type(el, lang === 'ru' ? 'Номер договора' : 'Agreement number', 'AG-1001');
            await pay(el);
            await waitUntil(() => el.shadowRoot!.querySelector('[part~="question"]'), 'no duplicate question');
            expect(el.scrollWidth, 'the question: nothing sticks out').to.be.at.most(360);
            await expect(el).to.be.accessible();

            // "Pay again": the payment page, and back on this page, the result screen.
            button(el, lang === 'ru' ? 'Оплатить ещё раз' : 'Pay again')!.click();
            await waitUntil(() => navigate.calledOnce, 'not taken to the payment page');
            try {
              const back = await widget('the result screen');
              // The tab's unmarked return is looked into in idle time (up to a second), then its module loads; Firefox
              // once took more than 5 s, after Chromium's whole run.
              await waitUntil(() => back.shadowRoot!.querySelector('[part="result"]'), 'no result screen', {
                timeout: 12_000,
              }).catch((error: Error) => {
                // What the return rests on, to tell a slow page from a return not found.
                const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
                const seen = {
                  navigation: entry?.type,
                  visibility: document.visibilityState,
                  focus: document.hasFocus(),
                  tab: sessionStorage.getItem(TAB_KEY),
                  origin: Object.keys(localStorage),
                  state: back.state,
                  said: back.paymentReturn,
                };
                throw new Error(`${error.message}: ${JSON.stringify(seen)}`);
              });
              expect(back.scrollWidth, 'the result: nothing sticks out').to.be.at.most(360);
              await expect(back).to.be.accessible();
            } finally {
              sessionStorage.clear();
              localStorage.clear();
            }
          });
  });
});
