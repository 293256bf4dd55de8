/**
 * End to end, with nothing stubbed: the widget in each engine, the real relay, the billing sandbox (started by the test
 * runner, see web-test-runner.config.js). A client pays by keyboard alone and by pointer, with each system, saves a
 * method with A, and the sandbox shows the payment and the saved method with autopayment.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/widget/billing-pay.js';
import '../../src/widget/billing-payment-methods.js';
import type { BillingPaymentMethods } from '../../src/widget/billing-payment-methods.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import {
  click,
  e2e,
  field,
  mount,
  pay,
  payButton,
  type,
  browserXhrInThisFile,
  type E2eStack as Stack,
  unmarked,
} from './helpers.js';
import { pointAndClick, press, typeKeys } from './input.js';

/** Fills the form as a person would, presses Pay, and returns the payment page address (navigation cancelled). */
async function payWith(
  el: BillingPay,
  system: string,
  amount: string,
  options: { save?: boolean } = {},
): Promise<string> {
  await click(el, system);
  await type(el, 'Amount', amount);
  await type(el, 'Agreement number', 'AG-1001');
  if (options.save) await click(el, 'Save payment method');
  const redirect = oneEvent(el, 'billing-pay-redirect');
  el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
  await pay(el);
  const event = await redirect;
  return event.detail.url;
}

// The relay and the billing are real: so is the widget's XMLHttpRequest.
browserXhrInThisFile();

describe('<billing-pay> end to end: widget → relay → billing sandbox', () => {
  let stack: Stack;
  before(async () => {
    stack = await e2e<Stack>('stack');
  });

  it('A with a saved method: the billing receives the exact request, the client pays, autopayment is connected', async () => {
    const el = await mount(html`<billing-pay lang="en" relay=${stack.relay}></billing-pay>`);
    const balanceBefore = BigInt((await e2e<{ balance: string }>('balance', { agreement: '1001' })).balance);
    const methodsBefore = (await e2e<unknown[]>('methods', { agreement: '1001' })).length;

    const url = await payWith(el, 'System A', '1500.50', { save: true });
    expect(url.startsWith(`${stack.sandbox}/pay/`)).to.equal(true);

    const reached = (await e2e<Record<string, unknown>[]>('payments')).at(-1)!;
    expect(reached).to.deep.equal({
      eps_uuid: 'sandbox-eps-a',
      amount: 1500.5,
      agreement_param_id: 5,
      agreement_param_value: 'AG-1001',
      eps_params: reached.eps_params,
    });
    const params = Object.fromEntries(
      unmarked(reached as { eps_params: { name: string; value: unknown }[] }).eps_params.map((p) => [p.name, p.value]),
    );
    expect(params).to.deep.equal({
      confirmation_type: 'redirect',
      confirmation_return_url: location.href,
      save_payment_method: true,
      enable_autopayments: true,
      preferred_method: true,
    });

    // The client presses "Pay" on the payment system's page and is sent back to the merchant's page.
    const decided = await e2e<{ status: number; location: string }>('decide', { url, decision: 'pay' });
    expect(decided.status).to.equal(303);
    expect(new URL(decided.location).searchParams.get('status')).to.equal('succeeded');
    expect(decided.location.startsWith(location.origin)).to.equal(true);

    const balance = BigInt((await e2e<{ balance: string }>('balance', { agreement: '1001' })).balance);
    expect(balance - balanceBefore).to.equal(150050n);
    const methods = await e2e<{ enable_auto_payments: boolean; status: number }[]>('methods', { agreement: '1001' });
    expect(methods.length).to.equal(methodsBefore + 1);
    expect(methods.at(-1)).to.include({ enable_auto_payments: true, status: 2 });
  });

  /** The payment that reached the billing last, and the client's "Pay" on the payment system's page. */
  async function expectPaid(url: string, uuid: string, amount: number) {
    const reached = (await e2e<Record<string, unknown>[]>('payments')).at(-1)!;
    expect(reached).to.include({ eps_uuid: uuid, amount, agreement_param_value: 'AG-1001' });
    const decided = await e2e<{ status: number; location: string }>('decide', { url, decision: 'pay' });
    expect(new URL(decided.location).searchParams.get('status')).to.equal('succeeded');
  }

  it('by keyboard alone: Tab, arrow keys to B, typed amount and agreement, Enter pays', async () => {
    const el = await mount(
      html`<div><button id="before">before</button><billing-pay lang="en" relay=${stack.relay}></billing-pay></div>`,
    ).then(() => document.querySelector('billing-pay')!);
    el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
    document.getElementById('before')!.focus();
    await press('Tab', 'ArrowDown'); // System A, then B
    expect(field(el, 'System B').checked).to.equal(true);
    await press('Tab');
    await typeKeys('AG-1001');
    await press('Tab');
    await typeKeys('77.70');
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await press('Enter');
    const { detail } = await redirect;
    await expectPaid(detail.url, 'sandbox-eps-b', 77.7);
  });

  it('by pointer: clicks on the system, the fields and Pay', async () => {
    const el = await mount(html`<billing-pay lang="en" relay=${stack.relay}></billing-pay>`);
    el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
    await pointAndClick(field(el, 'System C'));
    expect(field(el, 'System C').checked).to.equal(true);
    await pointAndClick(field(el, 'Amount'));
    await typeKeys('12.30');
    await pointAndClick(field(el, 'Agreement number'));
    await typeKeys('AG-1001');
    await el.updateComplete;
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pointAndClick(payButton(el));
    const { detail } = await redirect;
    await expectPaid(detail.url, 'sandbox-eps-c', 12.3);
  });

  it('B and C complete too; C carries no saving parameters', async () => {
    for (const [system, uuid] of [
      ['System B', 'sandbox-eps-b'],
      ['System C', 'sandbox-eps-c'],
    ]) {
      const el = await mount(html`<billing-pay lang="en" relay=${stack.relay}></billing-pay>`);
      const url = await payWith(el, system!, '99.90');
      const reached = (await e2e<Record<string, unknown>[]>('payments')).at(-1)!;
      expect(reached.eps_uuid).to.equal(uuid);
      expect(reached.amount).to.equal(99.9);
      const names = (reached.eps_params as { name: string }[]).map((p) => p.name);
      expect(names.some((n) => /save|autopay/.test(n))).to.equal(false);
      const decided = await e2e<{ status: number; location: string }>('decide', { url, decision: 'pay' });
      expect(decided.status).to.equal(303);
      expect(new URL(decided.location).searchParams.get('status')).to.equal('succeeded');
    }
  });

  it('a relay refusal is shown to the person: a payment the billing refuses (an agreement it cannot find: e2e-errors)', async () => {
    const el = await mount(html`<billing-pay lang="en" relay=${stack.relay}></billing-pay>`);
    await click(el, 'System C');
    await type(el, 'Amount', '10');
    await type(el, 'Agreement number', 'AG-1001');
    await e2e('fault', { status: '400' });
    const error = oneEvent(el, 'billing-pay-error');
    await pay(el);
    const { detail } = await error;
    expect(detail.code).to.equal('billing_rejected');
    expect(el.shadowRoot!.textContent).to.contain(detail.message);
  });

  it('the saved method appears in <billing-payment-methods>, and disabling it there disables it in the billing', async () => {
    const pay = await mount(html`<billing-pay lang="en" relay=${stack.relay}></billing-pay>`);
    const url = await payWith(pay, 'System A', '10.00', { save: true });
    await e2e('decide', { url, decision: 'pay' });
    const saved = (
      await e2e<{ payment_method_id: number; enable_auto_payments: boolean }[]>('methods', { agreement: '1001' })
    ).at(-1)!;
    expect(saved.enable_auto_payments).to.equal(true);

    const { session } = await e2e<{ session: string }>('session', { agreement: '1001' });
    const list = await fixture<BillingPaymentMethods>(
      html`<billing-payment-methods lang="en" relay=${stack.relay} session=${session}></billing-payment-methods>`,
    );
    const root = list.shadowRoot!;
    const disableButtons = async () => {
      for (let i = 0; i < 100 && !root.querySelector('[part~="disable"]'); i += 1)
        await new Promise((r) => setTimeout(r, 20));
      return [...root.querySelectorAll<HTMLButtonElement>('[part~="disable"]')];
    };
    const buttons = await disableButtons();
    expect(buttons.length).to.be.greaterThan(0);
    const changed = oneEvent(list, 'billing-payment-methods-change');
    buttons.at(-1)!.click(); // the newest method is listed last
    await list.updateComplete;
    root.querySelector<HTMLButtonElement>('[part~="confirm-button"]')!.click();
    const { detail } = await changed;
    expect((detail as { id: number }[]).some((m) => m.id === saved.payment_method_id)).to.equal(false);

    const after = (
      await e2e<{ payment_method_id: number; enable_auto_payments: boolean; status: number }[]>('methods', {
        agreement: '1001',
      })
    ).find((m) => m.payment_method_id === saved.payment_method_id)!;
    expect(after).to.include({ enable_auto_payments: false, status: 3 });
  });

  it('the saved method pays by itself: N days before a new period the autopayment shows on the client card', async () => {
    // The first test saved a method with A on agreement 1001 (a monthly subscription). Money paid in the tests may
    // cover the next period (recommended payment 0, nothing charged): then the eve of the one after comes.
    let autopayment: { kind: string; trigger?: string; amount?: string } | undefined;
    for (let month = 0; month < 4 && !autopayment; month += 1) {
      const events = await e2e<{ kind: string; trigger?: string; amount?: string; agreement_id: number }[]>('eve');
      autopayment = events.find(
        (e) => e.kind === 'autopayment' && e.trigger === 'before_period' && e.agreement_id === 1001,
      );
    }
    expect(autopayment, 'an autopayment before a new period').to.not.equal(undefined);
    const { html: card } = await e2e<{ html: string }>('card', { agreement: '1001' });
    expect(card).to.contain('before a new period');
    expect(card).to.contain(autopayment!.amount!);
  });
});
