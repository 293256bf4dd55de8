/**
 * The payer's return, end to end with nothing stubbed but the top page's navigation: the widget pays through the real
 * relay into the billing sandbox, the sandbox's payment page takes the payer's decision (the form it posts; the page
 * itself may not be framed: `frame-ancestors 'none'`) and answers its real redirect, and a frame follows that to a
 * merchant's page with a `<billing-pay>` (pages/return.html), which says what it knows and fires `billing-pay-return`.
 * The frame shares the test page's tab, and so its `sessionStorage`.
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import '../../src/widget/billing-pay.js';
import type { BillingPayReturnDetail } from '../../src/widget/events.js';
import { FAILED_MARKER } from '../../src/widget/payment-return.js';
import { click, e2e, mount, pay, type, type E2eStack, stubNavigate } from './helpers.js';

/** A payment, its decision and two loads of the merchant's page in a frame: 2–4 s in Firefox and WebKit. */
const TIME_LIMIT = 20_000;
const PAGE = new URL('/test/widget/pages/return.html', location.href).href;

type ReturnFrame = HTMLIFrameElement & { contentWindow: Window & { returns: BillingPayReturnDetail[] } };

/** Loads `src` in the frame (a new one by default) and answers when its widget is ready and its script listens. */
async function openFrame(src: string, frame = document.createElement('iframe') as ReturnFrame): Promise<ReturnFrame> {
  return loaded(frame, () => {
    frame.src = src;
    if (!frame.isConnected) document.body.append(frame);
  });
}

/** Runs `go`, which loads a document in the frame, and waits until its widget is ready and its script listens. */
async function loaded(frame: ReturnFrame, go: () => void): Promise<ReturnFrame> {
  const load = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  go();
  await load;
  await waitUntil(
    () => frame.contentWindow?.returns && frame.contentDocument?.querySelector('billing-pay')?.state === 'ready',
    `${frame.src} did not get ready`,
    { timeout: 4000 },
  );
  return frame;
}

/** The message the frame's widget shows (its `return` part: the result screen's heading and meaning). */
const message = (frame: ReturnFrame) =>
  [...frame.contentDocument!.querySelector('billing-pay')!.shadowRoot!.querySelector('[part="return"]')!.children]
    .map((line) => line.textContent!.trim())
    .join(' ');

/** What the result screen lists as sent. */
const sentRows = (frame: ReturnFrame) =>
  frame.contentDocument!.querySelector('billing-pay')!.shadowRoot!.querySelector('[part="result"]')?.textContent ?? '';

/** Lets the widget's deferred work run: only to show that something does NOT happen. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('<billing-pay> back from the payment page (real relay and sandbox)', () => {
  let stack: E2eStack;
  let navigate: sinon.SinonStub;
  const frames: HTMLIFrameElement[] = [];

  before(async () => {
    stack = await e2e<E2eStack>('stack');
  });

  beforeEach(() => {
    sessionStorage.clear();
    // The payment page opens in a frame below, never in place of the test page.
    navigate = stubNavigate();
  });

  afterEach(() => {
    navigate.restore();
    for (const frame of frames.splice(0)) frame.remove();
  });

  /** Pays with `system` in a widget on this page that sends the payer back to pages/return.html. */
  async function payFor(system: string, amount: string, lang: string): Promise<string> {
    const back = `${PAGE}?lang=${lang}&relay=${encodeURIComponent(stack.relay)}`;
    const el = await mount(html`<billing-pay lang="en" relay=${stack.relay} return-url=${back}></billing-pay>`);
    await click(el, system);
    await type(el, 'Amount', amount);
    await type(el, 'Agreement number', 'AG-1001');
    await pay(el);
    await waitUntil(() => navigate.called, 'the widget did not leave for the payment page');
    return navigate.lastCall.args[0] as string;
  }

  /** The payer's decision on the payment page, and the sandbox's redirect followed back in a frame. */
  async function decideAndReturn(url: string, decision: 'pay' | 'decline'): Promise<ReturnFrame> {
    const decided = await e2e<{ status: number; location: string }>('decide', { url, decision });
    expect(decided.status).to.equal(303);
    const frame = await openFrame(decided.location);
    frames.push(frame);
    return frame;
  }

  const cases = [
    { system: 'A', decision: 'pay', outcome: 'sent' },
    { system: 'A', decision: 'decline', outcome: 'sent' },
    { system: 'B', decision: 'pay', outcome: 'sent' },
    { system: 'B', decision: 'decline', outcome: 'not_completed' },
    { system: 'C', decision: 'pay', outcome: 'sent' },
  ] as const;
  const TEXTS = {
    en: {
      sent: (_id: string, system: string) =>
        `Payment sent to System ${system} If you completed it on the payment page, the balance changes once System ${system} confirms it. This page cannot see the outcome: your receipt and balance will show it.`,
      not_completed: () => 'Payment not completed Nothing was charged. You can try again with the same details.',
    },
    ru: {
      sent: (_id: string, system: string) =>
        `Платёж отправлен в «Система ${system}» Если вы завершили его на странице оплаты, баланс изменится, когда «Система ${system}» его подтвердит. Эта страница не видит результат: его покажут чек и баланс.`,
      not_completed: () => 'Платёж не завершён Деньги не списаны. Можно попробовать снова с теми же данными.',
    },
  };

  for (const lang of ['en', 'ru'] as const) {
    for (const { system, decision, outcome } of cases) {
      it(`${lang}: ${system}, ${decision} on the payment page → “${outcome}”, said once, marker gone`, async function () {
        this.timeout(TIME_LIMIT);
        const url = await payFor(`System ${system}`, '12.30', lang);
        const paymentId = new URL(url).pathname.split('/').pop()!;
        const before = Date.now();
        const frame = await decideAndReturn(url, decision);
        const win = frame.contentWindow;

        await waitUntil(() => win.returns.length > 0, 'no billing-pay-return', { timeout: 3000 });
        expect(win.returns).to.have.length(1);
        const [detail] = win.returns;
        expect(detail).to.deep.include({
          system,
          amount: '12.30',
          lookup: 5,
          agreement: 'AG-1001',
          paymentId,
          outcome,
        });
        expect(Date.parse(detail!.time)).to.be.within(before - 10_000, Date.now());
        expect(message(frame)).to.equal(TEXTS[lang][outcome](paymentId, system));
        expect(sentRows(frame)).to.contain(paymentId).and.contain('AG-1001').and.contain('12');
        expect(frame.contentDocument!.querySelector('billing-pay')!.paymentReturn).to.deep.equal(detail);
        // The marker leaves the address; the sandbox's own query is not the widget's to touch.
        expect(win.location.search).to.not.contain(FAILED_MARKER);
        expect(new URLSearchParams(win.location.search).get('lang')).to.equal(lang);

        // Said once: the same page again (a reload) says nothing.
        await loaded(frame, () => win.location.reload());
        await pause();
        expect(win.returns).to.deep.equal([]);
        expect(message(frame)).to.equal('');
      });
    }
  }

  it('a crafted address says nothing: ?payment_id=…&status=succeeded, and a failure marker without an attempt', async function () {
    this.timeout(TIME_LIMIT);
    for (const query of [
      '?payment_id=999&status=succeeded',
      `?${FAILED_MARKER}=1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed&payment_id=999&status=declined`,
    ]) {
      const frame = await openFrame(`${PAGE}${query}&relay=${encodeURIComponent(stack.relay)}`);
      frames.push(frame);
      await pause();
      expect(frame.contentWindow.returns, query).to.deep.equal([]);
      expect(message(frame), query).to.equal('');
      expect(frame.contentWindow.location.search).to.not.contain(FAILED_MARKER);
    }
  });

  it('a crafted failure marker beside a real attempt is not believed: the payment was sent, no more', async function () {
    this.timeout(TIME_LIMIT);
    const url = await payFor('System B', '12.30', 'en');
    const paymentId = new URL(url).pathname.split('/').pop()!;
    const decided = await e2e<{ location: string }>('decide', { url, decision: 'pay' });
    const crafted = new URL(decided.location);
    crafted.searchParams.set(FAILED_MARKER, '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed');
    crafted.searchParams.set('status', 'declined');
    const frame = await openFrame(crafted.href);
    frames.push(frame);
    await waitUntil(() => frame.contentWindow.returns.length > 0, 'no billing-pay-return', { timeout: 3000 });
    expect(frame.contentWindow.returns.map((r) => r.outcome)).to.deep.equal(['sent']);
    expect(message(frame)).to.equal(TEXTS.en.sent(paymentId, 'B'));
  });
});
