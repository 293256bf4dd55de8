/**
 * The client cards of the administrative interface: the home page (every client, agreement, balance, saved methods
 * and payments, with a link to each agreement's card) and the card of one agreement (client, balance, recommended
 * payment, subscriptions with their versions and states, charges, payments and autopayments, saved methods with
 * "Disable autopayment"). Both carry the sandbox clock and its controls (`clock-panel.ts`); the tables are in
 * `card-tables.ts`.
 */
import { html } from 'hono/html';
import { formatMinorUnits } from '../../eps/amount.js';
import { autopaymentMethodOf } from '../billing/autopayments.js';
import { dateOf, timestamp } from '../billing/calendar.js';
import { chargesSection, methodRow, methodsSection, paymentRow, paymentsSection, when } from './card-tables.js';
import { clockPanel, jumpStatus, type ReportedJump, type Shortcut } from './clock-panel.js';
import { agreementLabel, agreementTitle, page, type Html } from './layout.js';
import { monthlyPrice } from '../billing/pricing.js';
import type { Agreement, Subscription, SubscriptionState, SubscriptionVersion } from '../billing/records.js';
import type { SandboxState } from '../state.js';

/** What the cards read. */
export type CardContext = Pick<SandboxState, 'store' | 'charging' | 'scheduler' | 'clock'>;

const STATE_TEXT: Readonly<Record<SubscriptionState, string>> = {
  scheduled: 'scheduled',
  awaiting_activation: 'awaiting activation',
  active: 'active',
  blocked: 'financial blocking',
};
const STATE_CLASS: Readonly<Record<SubscriptionState, string>> = {
  scheduled: 'muted',
  awaiting_activation: 'bad',
  active: 'ok',
  blocked: 'bad',
};

const money = formatMinorUnits;

/** The home page: every client with their agreements, and the clock; `jump`: the move that led here, to report. */
export function homePage(ctx: CardContext, jump?: ReportedJump): Html {
  const users = [...ctx.store.users.values()];
  return page(
    'Billing sandbox: clients',
    html`<h1>Clients and their agreements</h1>
${jump ? jumpStatus(ctx.store, jump) : ''}
${clockPanel(ctx.clock, '/')}
${users.map(
  (user) => html`<section class="card" aria-labelledby="client-${user.user_id}">
<h2 id="client-${user.user_id}">${user.organization} <span class="note">(client id ${user.user_id})</span></h2>
<dl><dt>Contact</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>${user.taxpayer_number ? html`<dt>Taxpayer number</dt><dd>${user.taxpayer_number}</dd>` : ''}</dl>
${ctx.store.agreementsOf(user.user_id).map((agreement) => agreementSummary(ctx, agreement))}
</section>`,
)}`,
    true,
  );
}

function agreementSummary(ctx: CardContext, agreement: Agreement): Html {
  const { store } = ctx;
  const id = agreement.agreement_id;
  const methods = store.methodsOf(id);
  const payments = store.paymentsOf(id);
  const recommended = ctx.charging.recommendedPayment(id, ctx.clock.millis());
  const heading = agreement.agreement_number ? `${agreementTitle(agreement)} (id ${id})` : agreementTitle(agreement);
  return html`<h3>${heading} · balance <span class="num">${money(agreement.balance)}</span></h3>
<p>Recommended payment <span class="num">${money(recommended)}</span> · <a href="/agreements/${id}">Open the client card of ${agreementLabel(agreement)}</a></p>
${
  methods.length
    ? html`<div class="table-wrap"><table><caption>Saved payment methods</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">System</th><th scope="col">Status</th><th scope="col">Autopayment</th><th scope="col">Saved</th><th scope="col">Disabled</th></tr></thead>
<tbody>${methods.map((m) => methodRow(store, m))}</tbody></table></div>`
    : html`<p class="note">No saved payment methods.</p>`
}
${
  payments.length
    ? html`<div class="table-wrap"><table><caption>Payments</caption>
<thead><tr><th scope="col">Id</th><th scope="col">System</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Found by</th><th scope="col">Created</th></tr></thead>
<tbody>${payments.map(paymentRow)}</tbody></table></div>`
    : html`<p class="note">No payments.</p>`
}
${store.subscriptionsOf(id).map((s) => {
  const current = s.versions.at(-1)!;
  const tariff = store.tariffs.get(current.tariff_id);
  const period = tariff?.periods.find((p) => p.period_id === current.period_id);
  return html`<p>Subscription ${s.subscription_id}: ${current.description || 'no description'} · ${tariff?.name ?? `tariff ${current.tariff_id}`}, ${period?.name ?? `period ${current.period_id}`} · version ${current.version} from ${current.starts_at} · <span class="${STATE_CLASS[s.billing.state]}">${STATE_TEXT[s.billing.state]}</span></p>`;
})}`;
}

/** The client card of one agreement; `jump`: the move of the clock that led here, to report. */
export function agreementPage(ctx: CardContext, agreement: Agreement, jump?: ReportedJump): Html {
  const { store, charging, scheduler } = ctx;
  const id = agreement.agreement_id;
  const now = ctx.clock.millis();
  const user = store.users.get(agreement.user_id);
  const label = agreementLabel(agreement);
  const subscriptions = store.subscriptionsOf(id);
  const autopayMethod = autopaymentMethodOf(store, id);
  const leads = subscriptions.map((s) => scheduler.leadTime(s)).filter((t): t is number => t !== undefined && t > now);
  const nextLead = leads.length ? Math.min(...leads) : undefined;
  const starts = subscriptions.map((s) => s.billing.next_start).filter((t) => t > now);
  const nextStart = starts.length ? Math.min(...starts) : undefined;
  const shortcuts: Shortcut[] = [];
  if (nextLead !== undefined)
    shortcuts.push({
      to: nextLead,
      text: `Move to ${timestamp(nextLead)}: ${dayText(scheduler.leadDays)} before the next period (autopayment check)`,
    });
  if (nextStart !== undefined)
    shortcuts.push({ to: nextStart, text: `Move to ${timestamp(nextStart)}: the next period starts` });

  return page(
    `Client card: ${agreementTitle(agreement)}`,
    html`<nav><a href="/">All clients</a></nav>
<h1>Client card · ${agreementTitle(agreement)}</h1>
${jump ? jumpStatus(store, jump, agreement) : ''}
${clockPanel(ctx.clock, `/agreements/${id}`, shortcuts)}
<section class="card" aria-labelledby="client">
<h2 id="client">Client and agreement</h2>
<dl>
<dt>Client</dt><dd>${user ? html`${user.organization} (client id ${user.user_id})` : 'unknown'}</dd>
${user ? html`<dt>Contact</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>` : ''}
${user?.taxpayer_number ? html`<dt>Taxpayer number</dt><dd>${user.taxpayer_number}</dd>` : ''}
<dt>Agreement</dt><dd>${agreement.agreement_number ? `${label} (id ${id})` : `id ${id}, no number`}, ${agreement.is_offer ? 'an offer agreement, ' : ''}concluded ${agreement.create_date}</dd>
<dt>Balance</dt><dd class="num" id="balance">${money(agreement.balance)}</dd>
<dt>Recommended payment</dt><dd class="num" id="recommended">${money(charging.recommendedPayment(id, now))}</dd>
<dt>Autopayment</dt><dd>${
      autopayMethod
        ? html`<span class="ok">connected</span>: method ${autopayMethod.payment_method_id}, ${autopayMethod.title} (system ${autopayMethod.system}); checked ${dayText(scheduler.leadDays)} before each period, on financial blocking, and hourly at minute 30 while something is owed`
        : html`<span class="muted">not connected</span>`
    }</dd>
</dl>
</section>
<section class="card" aria-labelledby="subscriptions">
<h2 id="subscriptions">Subscriptions</h2>
${subscriptions.length ? subscriptions.map((s) => subscriptionSection(ctx, s, now)) : html`<p class="note">No subscriptions.</p>`}
</section>
${chargesSection(store, id)}
${paymentsSection(store, id)}
${methodsSection(store, id)}`,
    true,
  );
}

function subscriptionSection(ctx: CardContext, subscription: Subscription, now: number): Html {
  const { charging, store } = ctx;
  const billing = subscription.billing;
  const current = charging.versionAt(subscription, now);
  const started = billing.state !== 'scheduled';
  const waiting = billing.state === 'awaiting_activation' || billing.state === 'blocked';
  const need = charging.need(subscription, now);
  return html`<h3>Subscription ${subscription.subscription_id} · ${current.description || 'no description'}</h3>
<dl>
<dt>State</dt><dd><span class="${STATE_CLASS[billing.state]}" id="state-${subscription.subscription_id}">${STATE_TEXT[billing.state]}</span> since ${billing.since}</dd>
${billing.period ? html`<dt>Current period</dt><dd>${dateOf(billing.period.start)} – ${dateOf(billing.period.end)}</dd>` : ''}
<dt>${started ? 'Next period' : 'Starts'}</dt><dd>${timestamp(billing.next_start)}${waiting ? '' : html`, costs <span class="num">${money(need)}</span>`}</dd>
${waiting ? html`<dt>To ${billing.state === 'blocked' ? 'unblock' : 'activate'} now</dt><dd class="num">${money(need)} (the rest of the current period)</dd>` : ''}
</dl>
<div class="table-wrap"><table><caption>Versions of subscription ${subscription.subscription_id}</caption>
<thead><tr><th scope="col">Version</th><th scope="col">In force from</th><th scope="col">Tariff</th><th scope="col">Period</th><th scope="col">Services</th><th scope="col" class="num">Per month</th><th scope="col">Recorded</th></tr></thead>
<tbody>${subscription.versions.map((version) => {
    const tariff = store.tariffs.get(version.tariff_id);
    const period = tariff?.periods.find((p) => p.period_id === version.period_id);
    const inForce = started && version === current;
    return html`<tr><td>${version.version}${inForce ? html` <span class="ok">(in force)</span>` : ''}</td><td class="when">${version.starts_at}</td><td>${tariff?.name ?? version.tariff_id}</td><td>${period?.name ?? version.period_id}</td>
<td>${version.services.map((service, index) => {
      const spec = tariff?.services.find((s) => s.tariff_service_id === service.tariff_service_id);
      const price = service.new_price ?? spec?.price ?? 0n;
      return html`${index ? '; ' : ''}${spec?.name ?? service.tariff_service_id} × ${service.multiplicator} at ${money(price)}${service.new_price !== undefined ? ' (new price)' : ''}`;
    })}</td><td class="num">${money(monthlyPrice(version, store.tariffs))}</td><td>${recordedText(version)}</td></tr>`;
  })}</tbody></table></div>`;
}

/** When a version was entered: the first one created the subscription, later ones changed it; a late entry is back-dated. */
function recordedText(version: SubscriptionVersion): Html {
  const what = version.version === 1 ? 'created' : 'changed';
  const late = version.created_at > version.starts_at;
  return html`${what} ${when(version.created_at)}${
    late
      ? html` <small class="muted" title="entered after the date it is in force from; the billing caught up at once">(back-dated)</small>`
      : ''
  }`;
}

function dayText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}
