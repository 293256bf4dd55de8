/**
 * The sandbox's HTML: the hosted payment page that plays a payment system, the outcome page, the client card, and
 * their one stylesheet. Every value is escaped by `hono/html`; there is no script at all, so the pages work under
 * the strict Content-Security-Policy the app sends with them.
 */
import { html, raw } from 'hono/html';
import { formatMinorUnits } from '../eps/amount.js';
import { LOOKUP_KEYS } from '../eps/lookup.js';
import type { Agreement, Payment, PaymentMethod, SandboxStore } from './store.js';
import { METHOD_ACTIVE } from './store.js';

type Html = ReturnType<typeof html>;

export const SANDBOX_CSS = `:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#f6f8fa;--card:#fff;--line:#d0d7de;--accent:#0b57d0;--accent-fg:#fff;--ok:#1a7f37;--bad:#cf222e;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#4493f8;--accent-fg:#0d1117;--ok:#3fb950;--bad:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg)}
.bar{background:var(--card);border-bottom:1px solid var(--line);padding:.75rem 1.25rem;font-weight:600}
.bar span{color:var(--muted);font-weight:400}
main{max-width:34rem;margin:2rem auto;padding:0 1rem}
main.wide{max-width:60rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.5rem;margin-bottom:1.5rem}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:1.25rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:0 0 1.25rem}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.note{color:var(--muted);font-size:.9rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button,.button{font:inherit;font-weight:600;padding:.65rem 1.4rem;border-radius:.5rem;border:2px solid var(--accent);cursor:pointer;text-decoration:none;display:inline-block}
button[value=pay],.button{background:var(--accent);color:var(--accent-fg)}
button[value=decline]{background:transparent;color:var(--accent)}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid var(--fg);outline-offset:2px}
a{color:var(--accent)}
table{border-collapse:collapse;width:100%;margin-bottom:.5rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:var(--ok);font-weight:600}
.bad{color:var(--bad);font-weight:600}
`;

function page(title: string, body: Html, wide = false): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/sandbox.css">
</head>
<body>
<header class="bar">Billing sandbox <span>· test data only, no real money moves</span></header>
<main${wide ? raw(' class="wide"') : ''}>
${body}
</main>
</body>
</html>`;
}

export function agreementLabel(agreement: Agreement | undefined): string {
  if (!agreement) return 'unknown agreement';
  return agreement.agreement_number ?? `offer agreement no. ${agreement.agreement_id}`;
}

function savingText(payment: Payment): string {
  if (!payment.saves_method) return 'Not saved; no autopayments';
  if (payment.link_only) return 'Saved with autopayments; this test payment is then cancelled and the balance does not change';
  return 'Saved, with autopayments connected';
}

/** The page a payment system shows: what is paid, and the choice to pay or decline (a plain form, no script). */
export function paymentPage(payment: Payment, agreement: Agreement | undefined): Html {
  const amount = formatMinorUnits(payment.amount);
  const title = `System ${payment.system}: pay ${amount}`;
  return page(
    title,
    html`<section class="card" aria-labelledby="title">
<h1 id="title">System ${payment.system} · payment no. ${payment.payment_id}</h1>
<dl>
<dt>Amount</dt><dd>${amount}</dd>
<dt>Agreement</dt><dd>${agreementLabel(agreement)}</dd>
<dt>Card</dt><dd>Visa •••• 4242 (sandbox test card)</dd>
<dt>Payment method</dt><dd>${savingText(payment)}</dd>
</dl>
<form method="post">
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
${returnUrl
  ? html`<p><a class="button" href="${returnUrl}">Return to the shop</a></p>`
  : html`<p class="note">The payment request gave no return address; you may close this page.</p>`}
</section>`,
  );
}

export function messagePage(title: string, message: string): Html {
  return page(title, html`<section class="card" aria-labelledby="title"><h1 id="title">${title}</h1><p>${message}</p></section>`);
}

function methodRow(method: PaymentMethod): Html {
  const active = method.status === METHOD_ACTIVE;
  return html`<tr><td>${method.payment_method_id}</td><td>${method.title} (${method.method})</td><td>${method.system}</td>
<td class="${active ? 'ok' : 'bad'}">${active ? 'active' : 'disabled'} (${method.status})</td><td>${method.enable_auto_payments ? 'connected' : 'off'}</td><td>${method.created_at}</td></tr>`;
}

function paymentRow(payment: Payment): Html {
  const how = `${LOOKUP_KEYS[payment.agreement_param_id]} = ${payment.agreement_param_value}`;
  return html`<tr><td>${payment.payment_id}</td><td>${payment.system}</td><td class="num">${formatMinorUnits(payment.amount)}</td>
<td>${payment.status}${payment.status === 'succeeded' && !payment.credited ? ' (test payment cancelled)' : ''}</td><td>${how}</td><td>${payment.created_at}</td></tr>`;
}

function agreementSection(store: SandboxStore, agreement: Agreement): Html {
  const methods = [...store.paymentMethods.values()].filter((m) => m.agreement_id === agreement.agreement_id);
  const payments = [...store.payments.values()].filter((p) => p.agreement_id === agreement.agreement_id);
  const subscriptions = [...store.subscriptions.values()].filter((s) => s.agreement_id === agreement.agreement_id);
  return html`<h3>Agreement ${agreementLabel(agreement)} (id ${agreement.agreement_id}) · balance <span class="num">${formatMinorUnits(agreement.balance)}</span></h3>
${methods.length
  ? html`<table><caption>Saved payment methods</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">System</th><th scope="col">Status</th><th scope="col">Autopayment</th><th scope="col">Saved</th></tr></thead>
<tbody>${methods.map(methodRow)}</tbody></table>`
  : html`<p class="note">No saved payment methods.</p>`}
${payments.length
  ? html`<table><caption>Payments</caption>
<thead><tr><th scope="col">Id</th><th scope="col">System</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Found by</th><th scope="col">Created</th></tr></thead>
<tbody>${payments.map(paymentRow)}</tbody></table>`
  : html`<p class="note">No payments.</p>`}
${subscriptions.map((s) => {
  const current = s.versions.at(-1)!;
  return html`<p>Subscription ${s.subscription_id}: ${current.description || 'no description'} · tariff ${current.tariff_id}, period ${current.period_id} · version ${current.version} from ${current.starts_at}</p>`;
})}`;
}

/** The client card of the administrative interface: each client's agreements, balances, saved methods, payments. */
export function clientCardPage(store: SandboxStore): Html {
  const users = [...store.users.values()];
  return page(
    'Billing sandbox: client card',
    html`<h1>Client card</h1>
${users.map(
  (user) => html`<section class="card" aria-labelledby="client-${user.user_id}">
<h2 id="client-${user.user_id}">${user.organization} <span class="note">(client id ${user.user_id})</span></h2>
<dl><dt>Contact</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>${user.taxpayer_number ? html`<dt>Taxpayer number</dt><dd>${user.taxpayer_number}</dd>` : ''}</dl>
${store.agreementsOf(user.user_id).map((agreement) => agreementSection(store, agreement))}
</section>`,
)}`,
    true,
  );
}
