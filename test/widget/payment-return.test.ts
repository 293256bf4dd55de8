/**
 * The payer's return on this page (its own address is the return address), the relay played at `fetch`: how long the
 * message stays, what takes it away, what is remembered and when nothing is. The journey through the real relay and
 * sandbox, in three engines and both languages, is e2e-return.test.ts.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import '../../src/widget/billing-pay.js';
import { BillingPay } from '../../src/widget/billing-pay.js';
import type { BillingPayReturnDetail } from '../../src/widget/events.js';
import { SHOWN_MS } from '../../src/widget/payment-return.js';
import {
  click,
  json,
  mount,
  pay,
  PAYMENT_PAGE,
  settle,
  stubRelay,
  type,
  type RelayStub,
  stubNavigate,
} from './helpers.js';

const RELAY = 'https://relay.example';
const KEY = 'billing-pay-return';

const said = (el: BillingPay) => el.shadowRoot!.querySelector('[part="return"]')!.textContent!.trim();

describe('<billing-pay> back on this page', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;
  let clock: sinon.SinonFakeTimers | undefined;

  beforeEach(() => {
    sessionStorage.clear();
    relay = stubRelay({ payment: () => json({ redirect_url: PAYMENT_PAGE, payment: { payment_id: 77 } }, 201) });
    navigate = stubNavigate();
  });

  const listeners: ((e: CustomEvent<BillingPayReturnDetail>) => void)[] = [];

  afterEach(() => {
    for (const listener of listeners.splice(0)) document.removeEventListener('billing-pay-return', listener);
    clock?.restore();
    clock = undefined;
    relay.restore();
    navigate.restore();
    sessionStorage.clear();
  });

  /** Pays with C (agreement AG-1001, 12.30) in a widget that leaves this page, then takes it away (unless `stay`). */
  async function payAndLeave(
    attributes: { returnUrl?: string; cancel?: boolean; stay?: boolean } = {},
  ): Promise<BillingPay> {
    const el = await mount(
      html`<billing-pay relay=${RELAY} lang="en" return-url=${attributes.returnUrl ?? ''}></billing-pay>`,
    );
    if (attributes.cancel) el.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
    await click(el, 'System C');
    await type(el, 'Amount', '12.30');
    await type(el, 'Agreement number', 'AG-1001');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    if (!attributes.stay) el.remove();
    return el;
  }

  /** The page again, with a widget: answers it and the events it fired. */
  async function comeBack(lang = 'en'): Promise<{ el: BillingPay; events: BillingPayReturnDetail[] }> {
    const events: BillingPayReturnDetail[] = [];
    const listener = (e: CustomEvent<BillingPayReturnDetail>) => events.push(e.detail);
    document.addEventListener('billing-pay-return', listener);
    listeners.push(listener);
    const el = await mount(html`<billing-pay relay=${RELAY} lang=${lang} currency="RUB"></billing-pay>`);
    return { el, events };
  }

  it('says it for SHOWN_MS (60 s), in the live region, then it goes; the element keeps what it said', async () => {
    await payAndLeave();
    expect(navigate.calledOnceWith(PAYMENT_PAGE)).to.equal(true);
    clock = sinon.useFakeTimers({ now: Date.now(), shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const { el, events } = await comeBack('ru');
    expect(el.paymentReturn, 'nothing before the event').to.equal(null);
    await waitUntil(() => said(el), 'nothing said');
    expect(said(el)).to.equal(
      'Вы вернулись со страницы «Система C». Если вы завершили там платёж 77 на 12,30 RUB (Номер договора: AG-1001), баланс изменится, когда его подтвердят.',
    );
    expect(el.shadowRoot!.querySelector('[part="return"]')!.getAttribute('aria-live')).to.equal('polite');
    expect(events.map((e) => e.outcome)).to.deep.equal(['sent']);
    expect(el.paymentReturn).to.deep.equal(events[0]);
    expect(sessionStorage.getItem(KEY), 'said once').to.equal(null);
    await expect(el).to.be.accessible();

    clock.tick(SHOWN_MS - 1000);
    await el.updateComplete;
    expect(said(el)).to.not.equal('');
    clock.tick(1000);
    await el.updateComplete;
    expect(said(el)).to.equal('');
    expect(el.paymentReturn).to.deep.equal(events[0]);
  });

  it('the next payment takes it away', async () => {
    await payAndLeave();
    const { el } = await comeBack();
    await waitUntil(() => said(el), 'nothing said');
    expect(said(el)).to.match(/^You are back from System C\. If you completed payment 77 of 12\.30 RUB \(Agreement/);
    await click(el, 'System C');
    await type(el, 'Agreement number', 'AG-1001');
    await type(el, 'Amount, RUB', '5');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    expect(said(el)).to.equal('');
    await redirect;
  });

  it('a page that keeps the payer (billing-pay-redirect cancelled) remembers nothing', async () => {
    await payAndLeave({ cancel: true });
    expect(sessionStorage.getItem(KEY)).to.equal(null);
  });

  it('an attempt for another page waits for it; one older than an hour is dropped', async () => {
    await payAndLeave({ returnUrl: new URL('/elsewhere?x=1', location.href).href });
    const stored = sessionStorage.getItem(KEY)!;
    expect(JSON.parse(stored)).to.include({ back: new URL('/elsewhere', location.href).href, paymentId: '77' });
    const here = await comeBack();
    await settle();
    await settle();
    expect(said(here.el)).to.equal('');
    expect(sessionStorage.getItem(KEY), 'kept for its page').to.equal(stored);
    here.el.remove();

    const old = { ...JSON.parse(stored), back: location.href.split(/[?#]/)[0], time: new Date(Date.now() - 3_601_000) };
    sessionStorage.setItem(KEY, JSON.stringify(old));
    const later = await comeBack();
    await settle();
    await settle();
    expect(said(later.el)).to.equal('');
    expect(later.events).to.deep.equal([]);
    expect(sessionStorage.getItem(KEY), 'dropped').to.equal(null);
  });

  it('without storage (a sandboxed frame, a full quota) the payment goes all the same, and nothing is said', async () => {
    const setItem = sinon.stub(Storage.prototype, 'setItem').throws(new DOMException('full', 'QuotaExceededError'));
    const getItem = sinon.stub(Storage.prototype, 'getItem').throws(new DOMException('denied', 'SecurityError'));
    try {
      await payAndLeave();
      expect(navigate.calledOnceWith(PAYMENT_PAGE)).to.equal(true);
      const { el, events } = await comeBack();
      await settle();
      await settle();
      expect(said(el)).to.equal('');
      expect(events).to.deep.equal([]);
    } finally {
      setItem.restore();
      getItem.restore();
    }
  });

  it('what another version or another script stored is not believed, and the form still works', async () => {
    await payAndLeave();
    const stored = JSON.parse(sessionStorage.getItem(KEY)!) as Record<string, unknown>;
    for (const change of [{ lookup: 99 }, { system: 'Z' }, { amount: '1e3' }, { paymentId: 77 }, { id: undefined }]) {
      sessionStorage.setItem(KEY, JSON.stringify({ ...stored, ...change }));
      const { el, events } = await comeBack();
      await settle();
      await settle();
      expect(said(el), JSON.stringify(change)).to.equal('');
      expect(events).to.deep.equal([]);
      expect(el.shadowRoot!.querySelector('button[part="button"]'), 'the form is drawn').to.not.equal(null);
      expect(sessionStorage.getItem(KEY), 'dropped').to.equal(null);
      el.remove();
    }
  });

  it('Back to this page through the back/forward cache is not a return: the attempt is forgotten', async () => {
    const el = await payAndLeave({ stay: true });
    expect(sessionStorage.getItem(KEY)).to.not.equal(null);
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(sessionStorage.getItem(KEY)).to.equal(null);
    el.remove();
  });

  it('only linking a card (its test payment is cancelled) remembers nothing', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="en" allow-link-only></billing-pay>`);
    await click(el, 'System A');
    await type(el, 'Amount', '12.30');
    await type(el, 'Agreement number', 'AG-1001');
    await click(el, 'Save payment method');
    await click(el, 'Only link the card (no charge)');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    expect(navigate.calledOnce).to.equal(true);
    expect(sessionStorage.getItem(KEY)).to.equal(null);
  });
});
