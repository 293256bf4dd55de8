/**
 * The tables of the client cards: charges, the payment history (payments, autopayments, transfers, disabled
 * methods), saved payment methods (with "Disable autopayment" on an agreement's card) and payments.
 */
import { html } from 'hono/html';
import { formatMinorUnits } from '../../eps/amount.js';
import { LOOKUPS } from '../../eps/lookup.js';
import { TRIGGER_TEXT } from '../billing/autopayments.js';
import type { Html } from './layout.js';
import { METHOD_ACTIVE, type Payment, type PaymentMethod } from '../billing/records.js';
import type { SandboxStore } from '../billing/store.js';

const money = formatMinorUnits;

export function chargesSection(store: SandboxStore, agreementId: number): Html {
  const entries = store.ledgerOf(agreementId).filter((e) => e.kind === 'charge' || e.kind === 'recalculation');
  return html`<section class="card" aria-labelledby="charges">
<h2 id="charges">Charges</h2>
${
  entries.length
    ? html`<div class="table-wrap"><table><caption>Charges and recalculations, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Subscription</th><th scope="col">What</th><th scope="col">Version</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Balance after</th></tr></thead>
<tbody>${entries.map((e) => html`<tr><td class="when">${e.at}</td><td>${e.subscription_id ?? '—'}</td><td>${e.description}</td><td>${e.version ?? '—'}</td><td class="num">${money(e.amount)}</td><td class="num">${money(e.balance_after)}</td></tr>`)}</tbody></table></div>`
    : html`<p class="note">No charges.</p>`
}
</section>`;
}

interface PaymentLine {
  at: string;
  what: string;
  trigger: string;
  method: string;
  /** None for a line that moves no money. */
  amount?: bigint;
  status: string;
}

export function paymentsSection(store: SandboxStore, agreementId: number): Html {
  const lines: PaymentLine[] = [
    ...store.paymentsOf(agreementId).map((p): PaymentLine => ({
      at: p.decided_at ?? p.created_at,
      what: `Payment no. ${p.payment_id} through system ${p.system}`,
      trigger: '—',
      method: p.payment_method_id !== undefined ? `saved as method ${p.payment_method_id}` : '—',
      amount: p.amount,
      status: p.status === 'succeeded' && !p.credited ? 'succeeded (test payment cancelled)' : p.status,
    })),
    ...store.autopaymentsOf(agreementId).map((a): PaymentLine => {
      const method = store.paymentMethods.get(a.payment_method_id);
      return {
        at: a.at,
        what: `Autopayment no. ${a.autopayment_id}`,
        trigger: TRIGGER_TEXT[a.trigger],
        method: `method ${a.payment_method_id}${method ? `, ${method.title} (system ${method.system})` : ''}`,
        amount: a.amount,
        status: a.status,
      };
    }),
    ...store
      .ledgerOf(agreementId)
      .filter((e) => e.kind === 'transfer')
      .map((e): PaymentLine => ({
        at: e.at,
        what: e.description,
        trigger: '—',
        method: '—',
        amount: e.amount,
        status: 'credited',
      })),
    ...store.methodsOf(agreementId).flatMap((m): PaymentLine[] => {
      const at = store.methodDisabledAt.get(m.payment_method_id);
      if (at === undefined) return [];
      return [
        {
          at,
          what: 'Autopayment disabled',
          trigger: '—',
          method: `method ${m.payment_method_id}, ${m.title} (system ${m.system})`,
          status: 'method disabled',
        },
      ];
    }),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return html`<section class="card" aria-labelledby="payments">
<h2 id="payments">Payments and autopayments</h2>
${
  lines.length
    ? html`<div class="table-wrap"><table><caption>Payment history, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Payment</th><th scope="col">Trigger</th><th scope="col">Method</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${lines.map((l) => html`<tr><td class="when">${l.at}</td><td>${l.what}</td><td>${l.trigger}</td><td>${l.method}</td><td class="num">${l.amount === undefined ? '—' : money(l.amount)}</td><td>${l.status}</td></tr>`)}</tbody></table></div>`
    : html`<p class="note">No payments.</p>`
}
</section>`;
}

export function methodsSection(store: SandboxStore, agreementId: number): Html {
  const methods = store.methodsOf(agreementId);
  return html`<section class="card" aria-labelledby="methods">
<h2 id="methods">Saved payment methods</h2>
${
  methods.length
    ? html`<div class="table-wrap"><table><caption>Saved payment methods and their autopayment</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">System</th><th scope="col">Status</th><th scope="col">Autopayment</th><th scope="col">Saved</th><th scope="col">Disabled</th><th scope="col">Action</th></tr></thead>
<tbody>${methods.map((m) => methodRow(store, m, agreementId))}</tbody></table></div>`
    : html`<p class="note">No saved payment methods. A payment with system A or B that saves the method adds it here, with autopayment when the request connects it.</p>`
}
</section>`;
}

/** A method's status in words; its API code (what `status_list` filters on) stays beside it, small. */
function methodStatus(method: PaymentMethod): Html {
  const active = method.status === METHOD_ACTIVE;
  return html`<span class="${active ? 'ok' : 'bad'}">${active ? 'active' : 'disabled'}</span> <small class="muted" title="the method's status code in the API, as status_list filters it">code ${method.status}</small>`;
}

export function methodRow(store: SandboxStore, method: PaymentMethod, cardOf?: number): Html {
  const active = method.status === METHOD_ACTIVE;
  const action =
    cardOf === undefined
      ? ''
      : html`<td>${
          active
            ? html`<form method="post" action="/agreements/${cardOf}/payment-methods/${method.payment_method_id}/disable" class="row"><button type="submit">Disable autopayment</button></form>`
            : '—'
        }</td>`;
  return html`<tr><td>${method.payment_method_id}</td><td>${method.title} (${method.method})</td><td>${method.system}</td>
<td>${methodStatus(method)}</td><td>${method.enable_auto_payments ? 'connected' : 'off'}</td><td>${when(method.created_at)}</td>
<td>${when(store.methodDisabledAt.get(method.payment_method_id))}</td>${action}</tr>`;
}

export function paymentRow(payment: Payment): Html {
  const how = `${LOOKUPS[payment.agreement_param_id].key} = ${payment.agreement_param_value}`;
  return html`<tr><td>${payment.payment_id}</td><td>${payment.system}</td><td class="num">${money(payment.amount)}</td>
<td>${payment.status}${payment.status === 'succeeded' && !payment.credited ? ' (test payment cancelled)' : ''}</td><td>${how}</td><td>${payment.created_at}</td></tr>`;
}

/** A `YYYY-MM-DD HH:MM:SS` that may break between the date and the time in a narrow cell, never inside either; `—` for none. */
export function when(at: string | undefined): Html | string {
  if (at === undefined) return '—';
  const [date, time] = at.split(' ');
  return html`<span class="nowrap">${date}</span> <span class="nowrap">${time}</span>`;
}
