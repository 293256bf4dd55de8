/**
 * The tables of the client cards, in the client's language: charges, the payment history (payments, autopayments,
 * transfers, disabled methods), saved payment methods (with "Disable autopayment" on an agreement's card) and
 * payments. The billing's own records (what a charge or a transfer was) are shown as recorded, in English.
 */
import { html } from 'hono/html';
import { LOOKUPS } from '../../eps/lookup.js';
import type { Html } from './layout.js';
import { METHOD_ACTIVE, type Payment, type PaymentMethod } from '../billing/records.js';
import type { SandboxStore } from '../billing/store.js';
import type { PageTexts } from './texts.js';

/** A column's head; `num`: a column of amounts, aligned right. */
export const col = (text: string, num = false): Html =>
  num ? html`<th scope="col" class="num">${text}</th>` : html`<th scope="col">${text}</th>`;

/** A text of the billing's records (in English), marked so on a page in another language. */
const recorded = (t: PageTexts, text: string) => (t.lang === 'en' ? text : html`<span lang="en">${text}</span>`);

export function chargesSection(t: PageTexts, store: SandboxStore, agreementId: number): Html {
  const { table: th } = t;
  const entries = store.ledgerOf(agreementId).filter((e) => e.kind === 'charge' || e.kind === 'recalculation');
  return html`<section class="card" aria-labelledby="charges">
<h2 id="charges">${th.charges}</h2>
${
  entries.length
    ? html`<div class="table-wrap"><table><caption>${th.chargesCaption}</caption>
<thead><tr>${col(th.date)}${col(th.subscription)}${col(th.what)}${col(th.version)}${col(th.amount, true)}${col(th.balanceAfter, true)}</tr></thead>
<tbody>${entries.map((e) => html`<tr><td class="when">${e.at}</td><td>${e.subscription_id ?? '—'}</td><td>${recorded(t, e.description)}</td><td>${e.version ?? '—'}</td><td class="num">${t.money(e.amount)}</td><td class="num">${t.money(e.balance_after)}</td></tr>`)}</tbody></table></div>`
    : html`<p class="note">${th.noCharges}</p>`
}
</section>`;
}

interface PaymentLine {
  at: string;
  what: Html | string;
  trigger: string;
  method: string;
  /** None for a line that moves no money. */
  amount?: bigint;
  status: string;
}

export function paymentsSection(t: PageTexts, store: SandboxStore, agreementId: number): Html {
  const { table: th } = t;
  const lines: PaymentLine[] = [
    ...store.paymentsOf(agreementId).map((p): PaymentLine => ({
      at: p.decided_at ?? p.created_at,
      what: th.paymentLine(p.payment_id, p.system),
      trigger: '—',
      method: p.payment_method_id !== undefined ? th.savedAs(p.payment_method_id) : '—',
      amount: p.amount,
      status: paymentStatus(t, p),
    })),
    ...store.autopaymentsOf(agreementId).map((a): PaymentLine => {
      const method = store.paymentMethods.get(a.payment_method_id);
      return {
        at: a.at,
        what: th.autopaymentLine(a.autopayment_id),
        trigger: th.trigger_[a.trigger],
        method: method
          ? th.methodOf(a.payment_method_id, method.title, method.system)
          : th.methodNo(a.payment_method_id),
        amount: a.amount,
        status: t.paymentStatus[a.status],
      };
    }),
    ...store
      .ledgerOf(agreementId)
      .filter((e) => e.kind === 'transfer')
      .map((e): PaymentLine => ({
        at: e.at,
        what: recorded(t, e.description),
        trigger: '—',
        method: '—',
        amount: e.amount,
        status: th.credited,
      })),
    ...store.methodsOf(agreementId).flatMap((m): PaymentLine[] => {
      const at = store.methodDisabledAt.get(m.payment_method_id);
      if (at === undefined) return [];
      return [
        {
          at,
          what: th.autopaymentDisabled,
          trigger: '—',
          method: th.methodOf(m.payment_method_id, m.title, m.system),
          status: th.methodDisabled,
        },
      ];
    }),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return html`<section class="card" aria-labelledby="payments">
<h2 id="payments">${th.paymentsAndAutopayments}</h2>
${
  lines.length
    ? html`<div class="table-wrap"><table><caption>${th.historyCaption}</caption>
<thead><tr>${col(th.date)}${col(th.payment)}${col(th.trigger)}${col(th.method)}${col(th.amount, true)}${col(th.status)}</tr></thead>
<tbody>${lines.map((l) => html`<tr><td class="when">${l.at}</td><td>${l.what}</td><td>${l.trigger}</td><td>${l.method}</td><td class="num">${l.amount === undefined ? '—' : t.money(l.amount)}</td><td>${l.status}</td></tr>`)}</tbody></table></div>`
    : html`<p class="note">${th.noPayments}</p>`
}
</section>`;
}

export function methodsSection(t: PageTexts, store: SandboxStore, agreementId: number): Html {
  const { table: th } = t;
  const methods = store.methodsOf(agreementId);
  return html`<section class="card" aria-labelledby="methods">
<h2 id="methods">${th.methods}</h2>
${
  methods.length
    ? html`<div class="table-wrap"><table><caption>${th.methodsCaption}</caption>
<thead><tr>${[th.id, th.method, th.system, th.status, th.autopayment, th.saved, th.disabled, th.action].map((c) => col(c))}</tr></thead>
<tbody>${methods.map((m) => methodRow(t, store, m, agreementId))}</tbody></table></div>`
    : html`<p class="note">${th.noMethodsHint}</p>`
}
</section>`;
}

/** A method's status in words; its API code (what `status_list` filters on) stays beside it, small. */
function methodStatus(t: PageTexts, method: PaymentMethod): Html {
  const active = method.status === METHOD_ACTIVE;
  return html`<span class="${active ? 'ok' : 'bad'}">${active ? t.table.active : t.table.inactive}</span> <small class="muted" title="${t.table.codeWhy}">${t.table.code(method.status)}</small>`;
}

export function methodRow(t: PageTexts, store: SandboxStore, method: PaymentMethod, cardOf?: number): Html {
  const active = method.status === METHOD_ACTIVE;
  const action =
    cardOf === undefined
      ? ''
      : html`<td>${
          active
            ? html`<form method="post" action="/agreements/${cardOf}/payment-methods/${method.payment_method_id}/disable" class="row"><button type="submit">${t.table.disableAutopayment}</button></form>`
            : '—'
        }</td>`;
  return html`<tr><td>${method.payment_method_id}</td><td>${method.title} (${method.method})</td><td>${method.system}</td>
<td>${methodStatus(t, method)}</td><td>${method.enable_auto_payments ? t.table.on : t.table.off}</td><td>${when(method.created_at)}</td>
<td>${when(store.methodDisabledAt.get(method.payment_method_id))}</td>${action}</tr>`;
}

export function paymentRow(t: PageTexts, payment: Payment): Html {
  const how = `${LOOKUPS[payment.agreement_param_id].key} = ${payment.agreement_param_value}`;
  return html`<tr><td>${payment.payment_id}</td><td>${payment.system}</td><td class="num">${t.money(payment.amount)}</td>
<td>${paymentStatus(t, payment)}</td><td>${how}</td><td>${payment.created_at}</td></tr>`;
}

/** A payment's status in words; a test payment (only linking a card) says it was cancelled. */
function paymentStatus(t: PageTexts, payment: Payment): string {
  const status = t.paymentStatus[payment.status];
  return payment.status === 'succeeded' && !payment.credited ? `${status} ${t.table.testCancelled}` : status;
}

/** A `YYYY-MM-DD HH:MM:SS` that may break between the date and the time in a narrow cell, never inside either; `—` for none. */
export function when(at: string | undefined): Html | string {
  if (at === undefined) return '—';
  const [date, time] = at.split(' ');
  return html`<span class="nowrap">${date}</span> <span class="nowrap">${time}</span>`;
}
