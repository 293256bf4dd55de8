/**
 * The client cards of the administrative interface: the home page (every client, agreement, balance, saved methods
 * and payments, with a link to each agreement's card) and the card of one agreement (client, balance, recommended
 * payment, subscriptions with their versions and states, charges, payments and autopayments, saved methods with
 * "Disable autopayment"). Both carry the sandbox clock and its controls: plain forms, no script. After a move made
 * with those forms, the page it returns to says in a status message what the billing did on the way.
 */
import { html } from 'hono/html';
import { formatMinorUnits, toMinorUnits } from '../eps/amount.js';
import { LOOKUP_KEYS } from '../eps/lookup.js';
import { TRIGGER_TEXT, autopaymentMethodOf } from './autopayments.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, dateOf, timestamp } from './calendar.js';
import type { Charging } from './charging.js';
import type { SandboxClock } from './clock.js';
import { agreementLabel, agreementTitle, page, type Html } from './pages.js';
import { monthlyPrice } from './pricing.js';
import type { ClockJump, Scheduler } from './scheduler.js';
import {
  METHOD_ACTIVE,
  type Agreement,
  type BillingEvent,
  type BillingEventKind,
  type Payment,
  type PaymentMethod,
  type Subscription,
  type SubscriptionState,
  type SubscriptionVersion,
} from './records.js';
import type { SandboxStore } from './store.js';

/** A move of the clock made with a page's form, by its number (`?jump=N` on the page it returns to). */
export interface ReportedJump extends ClockJump {
  number: number;
}

/** What the cards read. */
export interface CardContext {
  store: SandboxStore;
  charging: Charging;
  scheduler: Scheduler;
  clock: SandboxClock;
}

const STATE_TEXT: Readonly<Record<SubscriptionState, string>> = {
  scheduled: 'scheduled',
  awaiting_activation: 'awaiting activation',
  active: 'active',
  blocked: 'financial blocking',
};
const STATE_CLASS: Readonly<Record<SubscriptionState, string>> = { scheduled: 'muted', awaiting_activation: 'bad', active: 'ok', blocked: 'bad' };

const money = formatMinorUnits;

/** The home page: every client with their agreements, and the clock; `jump`: the move that led here, to report. */
export function homePage(ctx: CardContext, jump?: ReportedJump): Html {
  const users = [...ctx.store.users.values()];
  return page(
    'Billing sandbox: clients',
    html`<h1>Clients and their agreements</h1>
${jump ? jumpStatus(ctx, jump) : ''}
${clockPanel(ctx, '/')}
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
${methods.length
  ? html`<div class="table-wrap"><table><caption>Saved payment methods</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">System</th><th scope="col">Status</th><th scope="col">Autopayment</th><th scope="col">Saved</th><th scope="col">Disabled</th></tr></thead>
<tbody>${methods.map((m) => methodRow(store, m))}</tbody></table></div>`
  : html`<p class="note">No saved payment methods.</p>`}
${payments.length
  ? html`<div class="table-wrap"><table><caption>Payments</caption>
<thead><tr><th scope="col">Id</th><th scope="col">System</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Found by</th><th scope="col">Created</th></tr></thead>
<tbody>${payments.map(paymentRow)}</tbody></table></div>`
  : html`<p class="note">No payments.</p>`}
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
  if (nextLead !== undefined) shortcuts.push({ to: nextLead, text: `Move to ${timestamp(nextLead)}: ${dayText(scheduler.leadDays)} before the next period (autopayment check)` });
  if (nextStart !== undefined) shortcuts.push({ to: nextStart, text: `Move to ${timestamp(nextStart)}: the next period starts` });

  return page(
    `Client card: ${agreementTitle(agreement)}`,
    html`<nav><a href="/">All clients</a></nav>
<h1>Client card · ${agreementTitle(agreement)}</h1>
${jump ? jumpStatus(ctx, jump, agreement) : ''}
${clockPanel(ctx, `/agreements/${id}`, shortcuts)}
<section class="card" aria-labelledby="client">
<h2 id="client">Client and agreement</h2>
<dl>
<dt>Client</dt><dd>${user ? html`${user.organization} (client id ${user.user_id})` : 'unknown'}</dd>
${user ? html`<dt>Contact</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>` : ''}
${user?.taxpayer_number ? html`<dt>Taxpayer number</dt><dd>${user.taxpayer_number}</dd>` : ''}
<dt>Agreement</dt><dd>${agreement.agreement_number ? `${label} (id ${id})` : `id ${id}, no number`}, ${agreement.is_offer ? 'an offer agreement, ' : ''}concluded ${agreement.create_date}</dd>
<dt>Balance</dt><dd class="num" id="balance">${money(agreement.balance)}</dd>
<dt>Recommended payment</dt><dd class="num" id="recommended">${money(charging.recommendedPayment(id, now))}</dd>
<dt>Autopayment</dt><dd>${autopayMethod
  ? html`<span class="ok">connected</span>: method ${autopayMethod.payment_method_id}, ${autopayMethod.title} (system ${autopayMethod.system}); checked ${dayText(scheduler.leadDays)} before each period, on financial blocking, and hourly at minute 30 while something is owed`
  : html`<span class="muted">not connected</span>`}</dd>
</dl>
</section>
<section class="card" aria-labelledby="subscriptions">
<h2 id="subscriptions">Subscriptions</h2>
${subscriptions.length ? subscriptions.map((s) => subscriptionSection(ctx, s, now)) : html`<p class="note">No subscriptions.</p>`}
</section>
${chargesSection(ctx, id)}
${paymentsSection(ctx, id)}
${methodsSection(ctx, id)}`,
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
  return html`${what} ${when(version.created_at)}${late
    ? html` <small class="muted" title="entered after the date it is in force from; the billing caught up at once">(back-dated)</small>`
    : ''}`;
}

function chargesSection(ctx: CardContext, agreementId: number): Html {
  const entries = ctx.store.ledgerOf(agreementId).filter((e) => e.kind === 'charge' || e.kind === 'recalculation');
  return html`<section class="card" aria-labelledby="charges">
<h2 id="charges">Charges</h2>
${entries.length
  ? html`<div class="table-wrap"><table><caption>Charges and recalculations, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Subscription</th><th scope="col">What</th><th scope="col">Version</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Balance after</th></tr></thead>
<tbody>${entries.map((e) => html`<tr><td class="when">${e.at}</td><td>${e.subscription_id ?? '—'}</td><td>${e.description}</td><td>${e.version ?? '—'}</td><td class="num">${money(e.amount)}</td><td class="num">${money(e.balance_after)}</td></tr>`)}</tbody></table></div>`
  : html`<p class="note">No charges.</p>`}
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

function paymentsSection(ctx: CardContext, agreementId: number): Html {
  const { store } = ctx;
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
    ...store.ledgerOf(agreementId)
      .filter((e) => e.kind === 'transfer')
      .map((e): PaymentLine => ({ at: e.at, what: e.description, trigger: '—', method: '—', amount: e.amount, status: 'credited' })),
    ...store.methodsOf(agreementId).flatMap((m): PaymentLine[] => {
      const at = store.methodDisabledAt.get(m.payment_method_id);
      if (at === undefined) return [];
      return [{ at, what: 'Autopayment disabled', trigger: '—', method: `method ${m.payment_method_id}, ${m.title} (system ${m.system})`, status: 'method disabled' }];
    }),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return html`<section class="card" aria-labelledby="payments">
<h2 id="payments">Payments and autopayments</h2>
${lines.length
  ? html`<div class="table-wrap"><table><caption>Payment history, oldest first</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Payment</th><th scope="col">Trigger</th><th scope="col">Method</th><th scope="col" class="num">Amount</th><th scope="col">Status</th></tr></thead>
<tbody>${lines.map((l) => html`<tr><td class="when">${l.at}</td><td>${l.what}</td><td>${l.trigger}</td><td>${l.method}</td><td class="num">${l.amount === undefined ? '—' : money(l.amount)}</td><td>${l.status}</td></tr>`)}</tbody></table></div>`
  : html`<p class="note">No payments.</p>`}
</section>`;
}

function methodsSection(ctx: CardContext, agreementId: number): Html {
  const { store } = ctx;
  const methods = store.methodsOf(agreementId);
  return html`<section class="card" aria-labelledby="methods">
<h2 id="methods">Saved payment methods</h2>
${methods.length
  ? html`<div class="table-wrap"><table><caption>Saved payment methods and their autopayment</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Method</th><th scope="col">System</th><th scope="col">Status</th><th scope="col">Autopayment</th><th scope="col">Saved</th><th scope="col">Disabled</th><th scope="col">Action</th></tr></thead>
<tbody>${methods.map((m) => methodRow(store, m, agreementId))}</tbody></table></div>`
  : html`<p class="note">No saved payment methods. A payment with system A or B that saves the method adds it here, with autopayment when the request connects it.</p>`}
</section>`;
}

/** A method's status in words; its API code (what `status_list` filters on) stays beside it, small. */
function methodStatus(method: PaymentMethod): Html {
  const active = method.status === METHOD_ACTIVE;
  return html`<span class="${active ? 'ok' : 'bad'}">${active ? 'active' : 'disabled'}</span> <small class="muted" title="the method's status code in the API, as status_list filters it">code ${method.status}</small>`;
}

function methodRow(store: SandboxStore, method: PaymentMethod, cardOf?: number): Html {
  const active = method.status === METHOD_ACTIVE;
  const action =
    cardOf === undefined
      ? ''
      : html`<td>${active
          ? html`<form method="post" action="/agreements/${cardOf}/payment-methods/${method.payment_method_id}/disable" class="row"><button type="submit">Disable autopayment</button></form>`
          : '—'}</td>`;
  return html`<tr><td>${method.payment_method_id}</td><td>${method.title} (${method.method})</td><td>${method.system}</td>
<td>${methodStatus(method)}</td><td>${method.enable_auto_payments ? 'connected' : 'off'}</td><td>${when(method.created_at)}</td>
<td>${when(store.methodDisabledAt.get(method.payment_method_id))}</td>${action}</tr>`;
}

function paymentRow(payment: Payment): Html {
  const how = `${LOOKUP_KEYS[payment.agreement_param_id]} = ${payment.agreement_param_value}`;
  return html`<tr><td>${payment.payment_id}</td><td>${payment.system}</td><td class="num">${money(payment.amount)}</td>
<td>${payment.status}${payment.status === 'succeeded' && !payment.credited ? ' (test payment cancelled)' : ''}</td><td>${how}</td><td>${payment.created_at}</td></tr>`;
}

interface Shortcut {
  to: number;
  text: string;
}

const STEPS: ReadonlyArray<[string, string]> = [
  ['PT1H', '+1 hour'],
  ['P1D', '+1 day'],
  ['P7D', '+1 week'],
  ['P1M', '+1 month'],
];

/** The sandbox time and the forms that move it (to `POST /clock`, then back to `returnTo`). */
function clockPanel(ctx: CardContext, returnTo: string, shortcuts: readonly Shortcut[] = []): Html {
  const now = ctx.clock.millis();
  // To the second: a move computed a moment before it was made lands a few milliseconds short of a whole unit.
  const moved = Math.round(ctx.clock.movedBy / 1000) * 1000;
  const back = html`<input type="hidden" name="return_to" value="${returnTo}">`;
  const how = ctx.clock.frozen
    ? moved ? `moved ${spanText(moved)} forward so far; it stands still until moved again` : 'stands still until moved'
    : moved ? `moved ${spanText(moved)} forward so far; it runs on with real time from the moved time` : 'runs with real time';
  return html`<section class="card clock" aria-labelledby="clock">
<h2 id="clock">Sandbox clock</h2>
<p>Sandbox time <strong><time datetime="${new Date(now).toISOString()}" id="sandbox-time">${timestamp(now)} UTC</time></strong>
· <span id="clock-state">${how}</span>. It only moves forward; every charge and autopayment on the way happens in order, once.</p>
<form method="post" action="/clock" class="inline" aria-label="Move the clock forward by">
${back}<span>Move forward:</span>
${STEPS.map(([value, text]) => html`<button type="submit" name="advance" value="${value}">${text}</button>`)}
</form>
<form method="post" action="/clock" class="inline">
${back}<label for="clock-to">Move to (UTC)</label>
<input id="clock-to" name="to" type="text" required size="19" spellcheck="false" autocomplete="off" aria-describedby="clock-to-hint"
 pattern="${TO_PATTERN}" title="YYYY-MM-DD HH:MM:SS, 24-hour, UTC" value="${timestamp(now)}">
<button type="submit" class="primary">Move</button>
<span class="note" id="clock-to-hint">24-hour UTC, YYYY-MM-DD HH:MM:SS (the time may be left out)</span>
</form>
${shortcuts.map(
  (s) => html`<form method="post" action="/clock" class="inline">${back}<input type="hidden" name="to" value="${new Date(s.to).toISOString()}"><button type="submit">${s.text}</button></form>`,
)}
<form method="post" action="${ctx.clock.frozen ? '/clock/unfreeze' : '/clock/freeze'}" class="inline">${back}<button type="submit">${ctx.clock.frozen ? 'Let the clock run with real time' : 'Stop the clock'}</button></form>
<form method="post" action="/reset" class="inline">${back}<button type="submit">Reset to the seed data</button>
<span class="note">the data, the clock and N as at start-up</span></form>
</section>`;
}

/**
 * What the "Move to" field takes, checked by the browser before sending (the sandbox checks again): a date, with a
 * time (seconds and a zone optional). Written for the `v` flag browsers compile `pattern` with.
 */
const TO_PATTERN = String.raw`\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|\+\d{2}:\d{2}|-\d{2}:\d{2})?)?`;

const EVENT_CLASS: Partial<Record<BillingEventKind, string>> = {
  blocked: 'bad',
  awaiting_activation: 'bad',
  not_charged: 'bad',
  autopayment: 'ok',
  activated: 'ok',
  unblocked: 'ok',
};

/** The most events one status message lists (a long jump can make many). */
const MAX_LISTED = 100;

/**
 * What a move of the clock made with the page's forms did (the events `POST /sandbox/clock` answers in JSON): on a
 * client card those of its agreement, on the home page all of them.
 */
function jumpStatus(ctx: CardContext, jump: ReportedJump, agreement?: Agreement): Html {
  const from = Date.parse(jump.from);
  const to = Date.parse(jump.to);
  const events = agreement ? jump.events.filter((e) => e.agreement_id === agreement.agreement_id) : jump.events;
  const others = jump.events.length - events.length;
  const where = agreement ? ` for ${agreementLabel(agreement)}` : '';
  const prefix = (e: BillingEvent) => (agreement ? '' : `${agreementLabel(ctx.store.agreements.get(e.agreement_id))}: `);
  return html`<section class="card notice" role="status" aria-labelledby="jump">
<h2 id="jump">${to > from ? `The clock moved ${spanText(to - from)} forward` : 'The clock already showed that time'}</h2>
<p>From <time datetime="${jump.from}">${timestamp(from)}</time> to <time datetime="${jump.to}">${timestamp(to)}</time> UTC.
${events.length ? `What happened on the way${where}: ${eventSummary(events)}.` : `Nothing happened on the way${where}: no charge, autopayment or blocking fell in this time.`}</p>
${events.length
  ? html`<ol class="events">${events.slice(0, MAX_LISTED).map(
      (e) => html`<li><time class="when" datetime="${e.at.replace(' ', 'T')}Z">${e.at}</time> ${EVENT_CLASS[e.kind]
        ? html`<span class="${EVENT_CLASS[e.kind]}">${prefix(e)}${e.text}</span>`
        : `${prefix(e)}${e.text}`}</li>`,
    )}</ol>`
  : ''}
${events.length > MAX_LISTED ? html`<p class="note">And ${events.length - MAX_LISTED} more; the JSON answer of <code>POST /sandbox/clock</code> lists every one.</p>` : ''}
${others ? html`<p class="note">And ${others === 1 ? '1 event' : `${others} events`} on other agreements: <a href="/?jump=${jump.number}">see every event of this move</a>.</p>` : ''}
</section>`;
}

/** How each kind of event is counted in the summary, one and many, in the summary's order. */
const EVENT_COUNT: Readonly<Record<BillingEventKind, readonly [string, string]>> = {
  charge: ['charge', 'charges'],
  recalculation: ['recalculation', 'recalculations'],
  autopayment: ['autopayment', 'autopayments'],
  autopayment_skipped: ['autopayment skipped (nothing owed)', 'autopayments skipped (nothing owed)'],
  blocked: ['financial blocking', 'financial blockings'],
  awaiting_activation: ['subscription awaiting activation', 'subscriptions awaiting activation'],
  not_charged: ['period not charged', 'periods not charged'],
  activated: ['activation', 'activations'],
  unblocked: ['blocking lifted', 'blockings lifted'],
  version: ['new version in force', 'new versions in force'],
};

/** "1 charge, 1 autopayment (640.00) and 1 financial blocking". */
function eventSummary(events: readonly BillingEvent[]): string {
  const parts = (Object.keys(EVENT_COUNT) as BillingEventKind[]).flatMap((kind) => {
    const of = events.filter((e) => e.kind === kind);
    if (!of.length) return [];
    const [one, many] = EVENT_COUNT[kind];
    const paid = kind === 'autopayment' ? ` (${money(of.reduce((sum, e) => sum + (toMinorUnits(e.amount) ?? 0n), 0n))})` : '';
    return [`${of.length} ${of.length === 1 ? one : many}${paid}`];
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

/** "38 days 18 hours 12 minutes": the three largest units that are not zero. */
export function spanText(ms: number): string {
  const units: ReadonlyArray<[number, string]> = [
    [DAY_MS, 'day'],
    [HOUR_MS, 'hour'],
    [MINUTE_MS, 'minute'],
    [SECOND_MS, 'second'],
  ];
  let rest = Math.round(ms);
  const parts: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return parts.slice(0, 3).join(' ') || 'less than a second';
}

/** A `YYYY-MM-DD HH:MM:SS` that may break between the date and the time in a narrow cell, never inside either; `—` for none. */
function when(at: string | undefined): Html | string {
  if (at === undefined) return '—';
  const [date, time] = at.split(' ');
  return html`<span class="nowrap">${date}</span> <span class="nowrap">${time}</span>`;
}

function dayText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

