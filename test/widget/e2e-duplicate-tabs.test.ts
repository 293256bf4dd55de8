/**
 * The same payment from two tabs of one browser, end to end: a relay with its duplicate window on (15 minutes) and the
 * billing sandbox. The payer pays in a new tab (a merchant's page, the built bundle, Pay clicked with the real pointer;
 * in WebKit a new window, see tab-commands.ts) and is taken to the payment page; then, in this tab, types the same
 * agreement, system and amount and presses Pay: the widget asks "You started the same payment at … Pay again?".
 * "Cancel" sends nothing; "Pay again" pays anew. This tab's navigation is stubbed: the test page is never left.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import sinon from 'sinon';
import '../../src/widget/billing-pay.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import {
  click,
  e2e,
  field,
  mount,
  payButton,
  status,
  stubNavigate,
  type,
  browserXhrInThisFile,
  watchXhr,
  type E2eStack,
} from './helpers.js';
import { pointAndClick } from './input.js';
import type { TabPaid } from './tab-commands.js';

/** Each run (each engine, each test) pays its own amount, so that runs on one sandbox never meet. */
const freshAmount = () => `${100 + Math.floor(Math.random() * 10_000)}.00`;
const button = (el: BillingPay, text: string) =>
  [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent!.trim() === text);
const at = (time: number) => new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(time);

/** The payments of `amount` that reached the billing (its `POST /eps_payments`). */
const billed = async (amount: string) =>
  (await e2e<{ amount: number }[]>('payments')).filter((p) => p.amount === Number(amount)).length;

// The relay and the billing are real: so is the widget's XMLHttpRequest.
browserXhrInThisFile();

describe('<billing-pay> the same payment from a second tab (real relay and sandbox)', () => {
  let stack: E2eStack;
  let relay: string;

  before(async () => {
    stack = await e2e<E2eStack>('stack');
    const env = `ALLOWED_ORIGINS=${location.origin}\nDUPLICATE_WINDOW_SECONDS=900`;
    ({ url: relay } = await e2e<{ url: string }>('merchant-relay', { env }));
  });
  afterEach(() => {
    sinon.restore();
    // What the widget remembers of the attempt it took this page away for (its return), which a next test's would see.
    sessionStorage.clear();
    localStorage.clear();
  });

  /** Pays `amount` (system C, AG-1001) in a new tab of this browser, through to the payment page. */
  async function payInTab1(amount: string): Promise<string> {
    const page = `${location.origin}/__e2e/page/pay?${new URLSearchParams({ amount, relay })}`;
    const { href } = (await executeServerCommand('engine-tab-pay', { url: page })) as TabPaid;
    expect(href.startsWith(`${stack.sandbox}/pay/`), `tab 1 went to ${href}`).to.equal(true);
    expect(await billed(amount), 'tab 1 paid').to.equal(1);
    return href;
  }

  /** In this tab: the same payment typed as a person would, and Pay pressed. */
  async function payInTab2(amount: string): Promise<BillingPay> {
    stubNavigate();
    const el = await mount(html`<billing-pay lang="en" relay=${relay}></billing-pay>`);
    await click(el, 'System C');
    await type(el, 'Agreement number', 'AG-1001');
    await type(el, 'Amount', amount);
    await pointAndClick(payButton(el));
    return el;
  }

  it('asks "pay again?" with the first tab’s time; Cancel sends nothing, Pay again pays anew', async function () {
    this.timeout(30_000);
    const amount = freshAmount();
    const before = Date.now();
    const first = await payInTab1(amount);
    const after = Date.now();

    const el = await payInTab2(amount);
    const questions = [before, after].map((t) => `You started the same payment at ${at(t)}. Pay again?`);
    await waitUntil(() => questions.includes(status(el)), `the status says "${status(el)}"`, { timeout: 5_000 });
    expect(button(el, 'Pay again'), 'Pay again').to.exist;
    expect(button(el, 'Cancel'), 'Cancel').to.exist;
    expect(await billed(amount), 'the question is asked before anything is paid').to.equal(1);
    const typed = field(el, 'Amount').value;

    // Cancel: nothing is sent, the form is as the payer left it.
    const watched = watchXhr();
    await pointAndClick(button(el, 'Cancel')!);
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const toRelay = watched.sent.filter(({ url }) => url.startsWith(relay));
    expect(toRelay, 'requests to the relay after Cancel').to.have.length(0);
    expect(await billed(amount)).to.equal(1);
    expect(status(el)).to.equal('');
    expect(button(el, 'Pay again')).to.equal(undefined);
    expect(field(el, 'Amount').value).to.equal(typed);
    expect(field(el, 'Agreement number').value).to.equal('AG-1001');
    watched.restore();

    // Pay again: asked again, and this time confirmed — a new payment, its own payment page.
    await pointAndClick(payButton(el));
    await waitUntil(() => button(el, 'Pay again'), 'asked again', { timeout: 5_000 });
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pointAndClick(button(el, 'Pay again')!);
    const { url } = (await redirect).detail as { url: string };
    expect(url.startsWith(`${stack.sandbox}/pay/`)).to.equal(true);
    expect(url, 'a new payment').to.not.equal(first);
    expect(await billed(amount)).to.equal(2);
  });

  it('another amount to the same agreement is not the same payment: it is paid without a question', async function () {
    this.timeout(30_000);
    const amount = freshAmount();
    await payInTab1(amount);
    const other = `${Number(amount) + 1}.00`;
    const redirect = new Promise((resolve) =>
      document.addEventListener('billing-pay-redirect', resolve, { once: true }),
    );
    const el = await payInTab2(other);
    await redirect;
    expect(button(el, 'Pay again')).to.equal(undefined);
    expect(await billed(other)).to.equal(1);
  });
});
