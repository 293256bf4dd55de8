/**
 * The hosted page of a payment system (what is paid, and the choice to pay or decline with a test card) and the
 * outcome page, in the client's language; `hosted-pages.ts` serves them. Plain forms, no script.
 */
import { html } from 'hono/html';
import { TEST_CARDS } from '../billing/payment-decision.js';
import type { Agreement, Payment } from '../billing/records.js';
import { agreementLabel, page, type Html } from './layout.js';
import type { PageTexts } from './texts.js';

function savingText(t: PageTexts, payment: Payment): string {
  const saved = !payment.saves_method
    ? t.pay.notSaved
    : payment.connects_autopay
      ? t.pay.savedWithAutopay
      : t.pay.savedWithoutAutopay;
  return payment.link_only ? `${saved}${t.pay.linkOnly}` : saved;
}

/** The page a payment system shows: what is paid, and the choice to pay or decline (a plain form, no script). */
export function paymentPage(
  t: PageTexts,
  payment: Payment,
  agreement: Agreement | undefined,
  defaultCard: string,
): Html {
  const amount = t.money(payment.amount);
  return page(
    t,
    t.pay.title(payment.system, amount),
    html`<section class="card" aria-labelledby="title">
<h1 id="title">${t.pay.heading(payment.system, payment.payment_id)}</h1>
<dl>
<dt>${t.pay.amount}</dt><dd>${amount}</dd>
<dt>${t.pay.agreement}</dt><dd>${agreementLabel(t, agreement)}</dd>
<dt>${t.pay.method}</dt><dd>${savingText(t, payment)}</dd>
</dl>
<form method="post">
<fieldset class="cards"><legend>${t.pay.testCard}</legend>
${TEST_CARDS.map((card) =>
  card === defaultCard
    ? html`<label><input type="radio" name="card" value="${card}" checked> ${card}</label>`
    : html`<label><input type="radio" name="card" value="${card}"> ${card}</label>`,
)}
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="pay">${t.pay.pay(amount)}</button>
<button type="submit" name="decision" value="decline">${t.pay.decline}</button>
</div>
</form>
<p class="note">${t.pay.note(payment.system)}</p>
</section>`,
  );
}

/** The outcome of a decided payment, with the way back when the request gave one. */
export function outcomePage(t: PageTexts, payment: Payment, returnUrl: string | undefined): Html {
  const paid = payment.status === 'succeeded';
  const heading = paid ? t.outcome.succeeded : t.outcome.declined;
  const summary = t.outcome.summary(
    payment.payment_id,
    t.money(payment.amount),
    payment.system,
    t.paymentStatus[payment.status],
  );
  return page(
    t,
    heading,
    html`<section class="card" aria-labelledby="title">
<h1 id="title" class="${paid ? 'ok' : 'bad'}">${heading}</h1>
<p>${summary}</p>
${
  returnUrl
    ? html`<p><a class="button" href="${returnUrl}">${t.outcome.back}</a></p>`
    : html`<p class="note">${t.outcome.noReturn}</p>`
}
</section>`,
  );
}
