/**
 * The client cards of the administrative interface, in the client's language: the home page (every client,
 * agreement, balance, saved methods and payments, with a link to each agreement's card) and the card of one agreement
 * (client, balance, recommended payment, subscriptions with their versions and states, charges, payments and
 * autopayments, saved methods with "Disable autopayment"). Both carry the sandbox clock and its controls
 * (`clock-panel.ts`, in English: they are the sandbox's, not the billing's); the tables are in `card-tables.ts`.
 */
import { html } from 'hono/html';
import { autopaymentMethodOf } from '../billing/autopayments.js';
import { dateOf, timestamp } from '../billing/calendar.js';
import { chargesSection, col, methodRow, methodsSection, paymentRow, paymentsSection, when } from './card-tables.js';
import { clockPanel, jumpStatus, type ReportedJump, type Shortcut } from './clock-panel.js';
import { agreementLabel, agreementTitle, page, type Html } from './layout.js';
import { monthlyPrice } from '../billing/pricing.js';
import type { Agreement, Subscription, SubscriptionState, SubscriptionVersion } from '../billing/records.js';
import type { SandboxState } from '../state.js';
import { TEXTS, type PageTexts } from './texts.js';

/** What the cards read. */
export type CardContext = Pick<SandboxState, 'store' | 'charging' | 'scheduler' | 'clock'>;

const STATE_CLASS: Readonly<Record<SubscriptionState, string>> = {
  scheduled: 'muted',
  awaiting_activation: 'bad',
  active: 'ok',
  blocked: 'bad',
};

/** The sandbox's own controls, in English, marked so on a page in another language. */
function inEnglish(t: PageTexts, part: Html | ''): Html | '' {
  return part && t.lang !== 'en' ? html`<div lang="en">${part}</div>` : part;
}

/** The home page: every client with their agreements, and the clock; `jump`: the move that led here, to report. */
export function homePage(ctx: CardContext, t: PageTexts, jump?: ReportedJump): Html {
  const users = [...ctx.store.users.values()];
  return page(
    t,
    t.card.homeTitle,
    html`<h1>${t.card.homeHeading}</h1>
${inEnglish(t, jump ? jumpStatus(ctx.store, jump) : '')}
${inEnglish(t, clockPanel(ctx.clock, '/'))}
${users.map(
  (user) => html`<section class="card" aria-labelledby="client-${user.user_id}">
<h2 id="client-${user.user_id}">${user.organization} <span class="note">(${t.card.clientId(user.user_id)})</span></h2>
<dl><dt>${t.card.contact}</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>${user.taxpayer_number ? html`<dt>${t.card.taxpayer}</dt><dd>${user.taxpayer_number}</dd>` : ''}</dl>
${ctx.store.agreementsOf(user.user_id).map((agreement) => agreementSummary(ctx, t, agreement))}
</section>`,
)}`,
    true,
  );
}

function agreementSummary(ctx: CardContext, t: PageTexts, agreement: Agreement): Html {
  const { store } = ctx;
  const id = agreement.agreement_id;
  const methods = store.methodsOf(id);
  const payments = store.paymentsOf(id);
  const recommended = ctx.charging.recommendedPayment(id, ctx.clock.millis());
  const title = agreementTitle(t, agreement);
  const heading = agreement.agreement_number ? t.card.withId(title, id) : title;
  const { table: th } = t;
  return html`<h3>${heading} · ${t.card.balance} <span class="num">${t.money(agreement.balance)}</span></h3>
<p>${t.card.recommended} <span class="num">${t.money(recommended)}</span> · <a href="/agreements/${id}">${t.card.openCard(agreementLabel(t, agreement))}</a></p>
${
  methods.length
    ? html`<div class="table-wrap"><table><caption>${th.methods}</caption>
<thead><tr>${[th.id, th.method, th.system, th.status, th.autopayment, th.saved, th.disabled].map((c) => col(c))}</tr></thead>
<tbody>${methods.map((m) => methodRow(t, store, m))}</tbody></table></div>`
    : html`<p class="note">${th.noMethods}</p>`
}
${
  payments.length
    ? html`<div class="table-wrap"><table><caption>${th.payments}</caption>
<thead><tr>${col(th.id)}${col(th.system)}${col(th.amount, true)}${col(th.status)}${col(th.foundBy)}${col(th.created)}</tr></thead>
<tbody>${payments.map((p) => paymentRow(t, p))}</tbody></table></div>`
    : html`<p class="note">${th.noPayments}</p>`
}
${store.subscriptionsOf(id).map((s) => {
  const current = s.versions.at(-1)!;
  const tariff = store.tariffs.get(current.tariff_id);
  const period = tariff?.periods.find((p) => p.period_id === current.period_id);
  return html`<p>${t.card.subscription(s.subscription_id)}: ${current.description || t.card.noDescription} · ${tariff?.name ?? t.card.tariff(current.tariff_id)}, ${period?.name ?? t.card.period(current.period_id)} · ${t.card.versionFrom(current.version, current.starts_at)} · <span class="${STATE_CLASS[s.billing.state]}">${t.card.state_[s.billing.state]}</span></p>`;
})}`;
}

/** The client card of one agreement; `jump`: the move of the clock that led here, to report. */
export function agreementPage(ctx: CardContext, t: PageTexts, agreement: Agreement, jump?: ReportedJump): Html {
  const { store, charging, scheduler } = ctx;
  const id = agreement.agreement_id;
  const now = ctx.clock.millis();
  const user = store.users.get(agreement.user_id);
  const label = agreementLabel(t, agreement);
  const title = agreementTitle(t, agreement);
  const subscriptions = store.subscriptionsOf(id);
  const autopayMethod = autopaymentMethodOf(store, id);
  const leads = subscriptions.map((s) => scheduler.leadTime(s)).filter((l): l is number => l !== undefined && l > now);
  const nextLead = leads.length ? Math.min(...leads) : undefined;
  const starts = subscriptions.map((s) => s.billing.next_start).filter((s) => s > now);
  const nextStart = starts.length ? Math.min(...starts) : undefined;
  const shortcuts: Shortcut[] = [];
  if (nextLead !== undefined)
    shortcuts.push({
      to: nextLead,
      text: `Move to ${timestamp(nextLead)}: ${TEXTS.en.days(scheduler.leadDays)} before the next period (autopayment check)`,
    });
  if (nextStart !== undefined)
    shortcuts.push({ to: nextStart, text: `Move to ${timestamp(nextStart)}: the next period starts` });

  return page(
    t,
    t.card.title(title),
    html`<nav><a href="/">${t.card.allClients}</a></nav>
<h1>${t.card.heading(title)}</h1>
${inEnglish(t, jump ? jumpStatus(store, jump, agreement) : '')}
${inEnglish(t, clockPanel(ctx.clock, `/agreements/${id}`, shortcuts))}
<section class="card" aria-labelledby="client">
<h2 id="client">${t.card.clientAndAgreement}</h2>
<dl>
<dt>${t.card.client}</dt><dd>${user ? html`${user.organization} (${t.card.clientId(user.user_id)})` : t.card.unknown}</dd>
${user ? html`<dt>${t.card.contact}</dt><dd>${user.full_name ?? '—'}, ${user.email}</dd>` : ''}
${user?.taxpayer_number ? html`<dt>${t.card.taxpayer}</dt><dd>${user.taxpayer_number}</dd>` : ''}
<dt>${t.card.agreementWord}</dt><dd>${agreement.agreement_number ? t.card.withId(label, id) : t.card.idNoNumber(id)}, ${agreement.is_offer ? t.card.offerAgreement : ''}${t.card.concluded(agreement.create_date)}</dd>
<dt>${t.card.balanceLabel}</dt><dd class="num" id="balance">${t.money(agreement.balance)}</dd>
<dt>${t.card.recommended}</dt><dd class="num" id="recommended">${t.money(charging.recommendedPayment(id, now))}</dd>
<dt>${t.card.autopayment}</dt><dd>${
      autopayMethod
        ? html`<span class="ok">${t.card.connected}</span>: ${t.card.autopayMethod(autopayMethod.payment_method_id, autopayMethod.title, autopayMethod.system)}; ${t.card.autopayChecks(t.days(scheduler.leadDays))}`
        : html`<span class="muted">${t.card.notConnected}</span>`
    }</dd>
</dl>
</section>
<section class="card" aria-labelledby="subscriptions">
<h2 id="subscriptions">${t.card.subscriptions}</h2>
${subscriptions.length ? subscriptions.map((s) => subscriptionSection(ctx, t, s, now)) : html`<p class="note">${t.card.noSubscriptions}</p>`}
</section>
${chargesSection(t, store, id)}
${paymentsSection(t, store, id)}
${methodsSection(t, store, id)}`,
    true,
  );
}

function subscriptionSection(ctx: CardContext, t: PageTexts, subscription: Subscription, now: number): Html {
  const { charging, store } = ctx;
  const billing = subscription.billing;
  const current = charging.versionAt(subscription, now);
  const started = billing.state !== 'scheduled';
  const waiting = billing.state === 'awaiting_activation' || billing.state === 'blocked';
  const need = charging.need(subscription, now);
  const { table: th } = t;
  return html`<h3>${t.card.subscription(subscription.subscription_id)} · ${current.description || t.card.noDescription}</h3>
<dl>
<dt>${t.card.state}</dt><dd><span class="${STATE_CLASS[billing.state]}" id="state-${subscription.subscription_id}">${t.card.state_[billing.state]}</span> ${t.card.since(billing.since)}</dd>
${billing.period ? html`<dt>${t.card.currentPeriod}</dt><dd>${dateOf(billing.period.start)} – ${dateOf(billing.period.end)}</dd>` : ''}
<dt>${started ? t.card.nextPeriod : t.card.starts}</dt><dd>${timestamp(billing.next_start)}${waiting ? '' : html`, ${t.card.costs} <span class="num">${t.money(need)}</span>`}</dd>
${waiting ? html`<dt>${billing.state === 'blocked' ? t.card.toUnblock : t.card.toActivate}</dt><dd class="num">${t.money(need)} ${t.card.restOfPeriod}</dd>` : ''}
</dl>
<div class="table-wrap"><table><caption>${t.card.versionsOf(subscription.subscription_id)}</caption>
<thead><tr>${col(th.version)}${col(th.inForceFrom)}${col(th.tariff)}${col(th.period)}${col(th.services)}${col(th.perMonth, true)}${col(th.recorded)}</tr></thead>
<tbody>${subscription.versions.map((version) => {
    const tariff = store.tariffs.get(version.tariff_id);
    const period = tariff?.periods.find((p) => p.period_id === version.period_id);
    const inForce = started && version === current;
    return html`<tr><td>${version.version}${inForce ? html` <span class="ok">${t.card.inForce}</span>` : ''}</td><td class="when">${version.starts_at}</td><td>${tariff?.name ?? version.tariff_id}</td><td>${period?.name ?? version.period_id}</td>
<td>${version.services.map((service, index) => {
      const spec = tariff?.services.find((s) => s.tariff_service_id === service.tariff_service_id);
      const price = service.new_price ?? spec?.price ?? 0n;
      return html`${index ? '; ' : ''}${spec?.name ?? service.tariff_service_id} × ${service.multiplicator} ${t.card.at} ${t.money(price)}${service.new_price !== undefined ? t.card.newPrice : ''}`;
    })}</td><td class="num">${t.money(monthlyPrice(version, store.tariffs))}</td><td>${recordedText(t, version)}</td></tr>`;
  })}</tbody></table></div>`;
}

/** When a version was entered: the first one created the subscription, later ones changed it; a late entry is back-dated. */
function recordedText(t: PageTexts, version: SubscriptionVersion): Html {
  const what = version.version === 1 ? t.card.created : t.card.changed;
  const late = version.created_at > version.starts_at;
  return html`${what} ${when(version.created_at)}${
    late ? html` <small class="muted" title="${t.card.backDatedWhy}">${t.card.backDated}</small>` : ''
  }`;
}
