/**
 * End to end, with a relay in a process of its own that is really killed (SIGKILL) while the billing holds the payment
 * (see `proc-relay/*` in e2e-stack.ts): the payer's Pay after the network failure reuses the key, the restarted relay
 * says the key is in flight, then — its lease run out — that the outcome is unknown, which the widget tells the payer
 * in their language; the billing has received that payment once. Only the Pay after that message makes a new key, and
 * pays.
 */
import { expect, waitUntil, html, oneEvent } from '@open-wc/testing';
import '../../src/widget/billing-pay.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import {
  click,
  e2e,
  mount,
  pay,
  status,
  type,
  browserXhrInThisFile,
  watchXhr,
  type E2eStack as Stack,
} from './helpers.js';

const AMOUNT = '731.17';
const NETWORK_ERROR = 'The payment service could not be reached. Check the connection and try again.';
const IN_FLIGHT = 'Your payment is still being processed. Try again in 1 second.';
const UNKNOWN = {
  en: 'Your earlier attempt could not be confirmed: it may have been paid. Check your balance before you pay again.',
  ru: 'Не удалось подтвердить предыдущую попытку: платёж мог пройти. Проверьте баланс, прежде чем платить снова.',
};
/** How long the billing holds the payment: the relay is killed meanwhile, long before. */
const HOLD_MS = 2_000;

type Payment = { amount: number; agreement_param_value: string };

/** The payments of this test that reached the billing. */
const billed = async () =>
  (await e2e<Payment[]>('payments')).filter(
    (p) => p.amount === Number(AMOUNT) && p.agreement_param_value === 'AG-1001',
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Presses Pay and waits for the failure it ends in (`billing-pay-error`), its text rendered; a payment page instead
 * (`billing-pay-redirect`: the press was paid) fails at once.
 */
async function payAndFail(el: BillingPay): Promise<{ code: string; message: string }> {
  const error = oneEvent(el, 'billing-pay-error');
  const paid = oneEvent(el, 'billing-pay-redirect').then(({ detail }) => {
    throw new Error(`this Pay was paid (${detail.url}): it should have failed`);
  });
  await pay(el);
  const { detail } = await Promise.race([error, paid]);
  await el.updateComplete;
  return detail;
}

// The relay and the billing are real: so is the widget's XMLHttpRequest.
browserXhrInThisFile();

describe('<billing-pay> end to end: a relay killed mid-payment, the outcome unknown', () => {
  let stack: Stack;
  let relay: { url: string; leaseMs: number };
  before(async function () {
    this.timeout(30_000);
    stack = await e2e<Stack>('stack');
    relay = await e2e('proc-relay/start');
  });
  after(async function () {
    this.timeout(10_000);
    await e2e('proc-relay/kill');
  });

  it('the same key until the relay says "unknown" (shown in English, then in Russian), paid once; then a new key pays', async function () {
    this.timeout(relay.leaseMs + 20_000);
    // Every key the widget sends, read as it goes (the requests themselves are not changed).
    const watched = watchXhr();
    const keys = () =>
      watched.sent
        .filter(({ url, method }) => url.endsWith('/payments') && method === 'POST')
        .map(({ headers }) => headers.get('Idempotency-Key'));
    try {
      const el = await mount(html`<billing-pay lang="en" relay=${relay.url}></billing-pay>`);
      // A payment page is never opened: the test page stays.
      el.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
      await click(el, 'System A');
      await type(el, 'Amount', AMOUNT);
      await type(el, 'Agreement number', 'AG-1001');
      const before = (await billed()).length;

      // 1. The billing holds the payment; the relay is killed as soon as the payment has reached it.
      const { billed: count } = await e2e<{ billed: number }>('proc-relay/hold', { ms: String(HOLD_MS) });
      const failed = payAndFail(el);
      const { killedAt } = await e2e<{ killedAt: number }>('proc-relay/kill', { billed: String(count) });
      expect((await failed).code).to.equal('network_error');
      expect(status(el)).to.equal(NETWORK_ERROR);
      expect((await billed()).length, 'the payment reached the billing').to.equal(before + 1);
      const [key, ...retries] = keys();
      expect(key).to.match(/^[0-9a-f-]{36}$/);
      expect(retries, 'the widget’s own retry of the network failure: the same key').to.deep.equal(
        retries.map(() => key),
      );

      // 2. The relay again, on the same port and key store: the key's lease still runs (the relay may have been
      // paying): in flight. On a slow machine the lease may have run out already: unknown.
      await e2e('proc-relay/restart');
      const second = await payAndFail(el);
      expect(second.code).to.be.oneOf(['idempotency_in_flight', 'idempotency_outcome_unknown']);
      expect(status(el)).to.equal(second.code === 'idempotency_in_flight' ? IN_FLIGHT : UNKNOWN.en);
      expect(keys().at(-1), 'the Pay after a network failure: the same key').to.equal(key);

      // 3. The lease has run out, no answer stored: unknown — never sent to the billing again.
      await sleep(Math.max(0, killedAt + relay.leaseMs + 250 - Date.now()));
      const third = await payAndFail(el);
      expect(third).to.deep.equal({ code: 'idempotency_outcome_unknown', message: UNKNOWN.en });
      expect(status(el)).to.equal(UNKNOWN.en);
      expect(keys().at(-1), 'the Pay after "in flight": the same key').to.equal(key);
      expect(new Set(keys()).size, 'one key so far').to.equal(1);
      expect((await billed()).length, 'the billing received the payment once').to.equal(before + 1);

      // 4. The text in the payer's other language: re-rendered as the language changes.
      el.lang = 'ru';
      await waitUntil(() => status(el) === UNKNOWN.ru, 'the status did not change to Russian');

      // 5. The Pay after that message is a new payment: a new key, which reaches the billing and pays.
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      const { detail } = await redirect;
      expect(detail.url.startsWith(`${stack.sandbox}/pay/`)).to.equal(true);
      const last = keys().at(-1);
      expect(last).to.match(/^[0-9a-f-]{36}$/);
      expect(last).to.not.equal(key);
      expect((await billed()).length, 'the new key paid: a second payment').to.equal(before + 2);
    } finally {
      watched.restore();
    }
  });
});
