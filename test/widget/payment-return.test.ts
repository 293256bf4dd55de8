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
import { SHOWN_MS } from '../../src/widget/return-said.js';
import {
  click,
  field,
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

  /** The result screen's rows: term → value. */
  const rows = (el: BillingPay) =>
    Object.fromEntries(
      [...el.shadowRoot!.querySelectorAll('[part="result"] div')].map((row) => [
        row.querySelector('dt')!.textContent!.trim(),
        row.querySelector('dd')!.textContent!.trim(),
      ]),
    );

  const button = (el: BillingPay, text: string) =>
    [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === text);

  it('shows the result screen in place of the form until the payer goes on: what was sent and what it means', async () => {
    await payAndLeave();
    expect(navigate.calledOnceWith(PAYMENT_PAGE)).to.equal(true);
    clock = sinon.useFakeTimers({ now: Date.now(), shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const { el, events } = await comeBack('ru');
    expect(el.paymentReturn, 'nothing before the event').to.equal(null);
    await waitUntil(() => said(el), 'nothing said');
    expect(said(el)).to.equal(
      'Платёж отправлен в «Система C»Если вы завершили его на странице оплаты, баланс изменится, когда «Система C» его подтвердит. Эта страница не видит результат: его покажут чек и баланс.',
    );
    expect(el.shadowRoot!.querySelector('[part="return"]')!.getAttribute('aria-live')).to.equal('polite');
    expect(rows(el)).to.deep.include({
      'Платёжная система': 'Система C',
      Сумма: '12,30\u00a0₽',
      'Номер договора': 'AG-1001',
      'Номер платежа': '77',
    });
    expect(rows(el))
      .to.have.property('Начат')
      .that.match(/\d{2}:\d{2}/);
    expect(el.shadowRoot!.querySelector('form'), 'in place of the form').to.equal(null);
    expect(events.map((e) => e.outcome)).to.deep.equal(['sent']);
    expect(el.paymentReturn).to.deep.equal(events[0]);
    expect(sessionStorage.getItem(KEY), 'said once').to.equal(null);
    await expect(el).to.be.accessible();

    clock.tick(SHOWN_MS + 1000);
    await el.updateComplete;
    expect(said(el), 'it stays until the payer goes on').to.not.equal('');
    button(el, 'Сделать ещё один платёж')!.click();
    await el.updateComplete;
    expect(said(el)).to.equal('');
    expect(el.shadowRoot!.querySelector('form')).to.not.equal(null);
    expect(el.paymentReturn).to.deep.equal(events[0]);
  });

  it('after B’s failure address: "Try again" brings the form back with every value it knows', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} lang="en" currency="RUB"></billing-pay>`);
    await click(el, 'System B');
    await type(el, 'Amount, ₽', '12.30');
    await type(el, 'Agreement number', 'AG-1001');
    await type(el, 'E-mail or phone for the receipt', 'client@example.com');
    await type(el, 'Name', 'Ivan Petrov');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    el.remove();
    const body = relay.payments()[0]!.body as { eps_params: { name: string; value: string }[] };
    const fail = body.eps_params.find((p) => p.name === 'return_url_fail')!.value;
    const here = location.href;
    history.replaceState(history.state, '', fail);
    try {
      const { el: back, events } = await comeBack();
      await waitUntil(() => said(back), 'nothing said');
      expect(events.map((e) => e.outcome)).to.deep.equal(['not_completed']);
      expect(said(back)).to.equal('Payment not completedNothing was charged. You can try again with the same details.');
      expect(location.href, 'the marker is taken out of the address').to.equal(here);
      await expect(back).to.be.accessible();
      button(back, 'Try again')!.click();
      await back.updateComplete;
      expect(said(back)).to.equal('');
      expect(field(back, 'System B').checked).to.equal(true);
      expect(field(back, 'Amount, ₽').value).to.equal('12.30');
      expect(field(back, 'Agreement number').value).to.equal('AG-1001');
      expect(field(back, 'E-mail or phone for the receipt').value).to.equal('client@example.com');
      expect(field(back, 'Name').value).to.equal('Ivan Petrov');
      await waitUntil(() => back.shadowRoot!.activeElement?.matches('button[type="submit"]'), 'Pay is focused');
      expect(back.shadowRoot!.activeElement!.textContent!.trim()).to.equal('Pay ₽12.30');
    } finally {
      history.replaceState(history.state, '', here);
    }
  });

  it('back by its marked address, the result screen comes in place of the skeleton: the form never flashes', async () => {
    await payAndLeave();
    const { id } = JSON.parse(sessionStorage.getItem(KEY)!) as { id: string };
    const here = location.href;
    const back = new URL(here);
    back.searchParams.set('billing-pay-return', id);
    history.replaceState(history.state, '', back.href);
    const el = document.createElement('billing-pay') as BillingPay;
    // The result screen waits for the page's scripts (a timer): `/config` answers first, the worst case.
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout'] });
    try {
      el.setAttribute('relay', RELAY);
      el.lang = 'en';
      const ready = oneEvent(el, 'billing-pay-ready');
      document.body.append(el);
      // Each render is seen before it is painted (mutation records are delivered in the task that made them).
      let formShown = false;
      new MutationObserver(() => {
        formShown ||= el.shadowRoot!.querySelector('.fields:not(.skeleton)') !== null;
      }).observe(el.shadowRoot!, { subtree: true, childList: true, attributes: true, characterData: true });
      await ready;
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="result"]'), 'not yet').to.equal(null);
      await clock.tickAsync(10);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="result"]')).to.not.equal(null);
      expect(formShown, 'the ready form was drawn before the result screen').to.equal(false);
    } finally {
      el.remove();
      history.replaceState(history.state, '', here);
    }
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
    // An unmarked address is looked into in idle time after the form is ready.
    await waitUntil(() => sessionStorage.getItem(KEY) === null, 'dropped');
    await settle();
    expect(said(later.el)).to.equal('');
    expect(later.events).to.deep.equal([]);
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
      await waitUntil(() => sessionStorage.getItem(KEY) === null, 'dropped');
      await settle();
      expect(said(el), JSON.stringify(change)).to.equal('');
      expect(events).to.deep.equal([]);
      expect(el.shadowRoot!.querySelector('button[part="button"]'), 'the form is drawn').to.not.equal(null);
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
