/**
 * The hosted page of a payment system (what is paid, and the choice to pay or decline with a test card) and the
 * outcome page; `hosted-pages.ts` serves them. Plain forms, no script.
 */
import { html } from 'hono/html';
import { formatMinorUnits } from '../../eps/amount.js';
import { TEST_CARDS } from '../billing/payment-decision.js';
import type { Agreement, Payment } from '../billing/records.js';
import { agreementLabel, page, type Html } from './layout.js';

function savingText(payment: Payment): string {
  const saved = !payment.saves_method
    ? 'Not saved'
    : payment.connects_autopay
      ? 'Saved, with autopayment connected'
      : 'Saved, without autopayment';
  return payment.link_only ? `${saved}; this test payment is then cancelled and the balance does not change` : saved;
}

/** The page a payment system shows: what is paid, and the choice to pay or decline (a plain form, no script). */
export function paymentPage(payment: Payment, agreement: Agreement | undefined, defaultCard: string): Html {
  const amount = formatMinorUnits(payment.amount);
  const title = `System ${payment.system}: pay ${amount}`;
  return page(
    title,
    html`<section class="card" aria-labelledby="title">
<h1 id="title">System ${payment.system} · payment no. ${payment.payment_id}</h1>
<dl>
<dt>Amount</dt><dd>${amount}</dd>
<dt>Agreement</dt><dd>${agreementLabel(agreement)}</dd>
<dt>Payment method</dt><dd>${savingText(payment)}</dd>
</dl>
<form method="post">
<fieldset class="cards"><legend>Sandbox test card</legend>
${TEST_CARDS.map((card) =>
  card === defaultCard
    ? html`<label><input type="radio" name="card" value="${card}" checked> ${card}</label>`
    : html`<label><input type="radio" name="card" value="${card}"> ${card}</label>`,
)}
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="pay">Pay ${amount}</button>
<button type="submit" name="decision" value="decline">Decline</button>
</div>
</form>
<p class="note">This page plays payment system ${payment.system}. Choose an outcome to continue as the client would.</p>
</section>`,
  );
}

/** The outcome of a decided payment, with the way back when the request gave one. */
export function outcomePage(payment: Payment, returnUrl: string | undefined): Html {
  const paid = payment.status === 'succeeded';
  const heading = paid ? 'Payment succeeded' : 'Payment declined';
  return page(
    heading,
    html`<section class="card" aria-labelledby="title">
<h1 id="title" class="${paid ? 'ok' : 'bad'}">${heading}</h1>
<p>Payment no. ${payment.payment_id} of ${formatMinorUnits(payment.amount)} through system ${payment.system}: ${payment.status}.</p>
${
  returnUrl
    ? html`<p><a class="button" href="${returnUrl}">Return to the shop</a></p>`
    : html`<p class="note">The payment request gave no return address; you may close this page.</p>`
}
</section>`,
  );
}
