/**
 * The sandbox clock on the pages: the panel that shows the sandbox time and the forms that move it, stop it, let it
 * run or reset the sandbox (all posted to the routes of `admin.ts`); and, after a move made with those forms, the
 * status message that says what the billing did on the way. Plain forms, no script; in English, as the sandbox's own
 * controls.
 */
import { html } from 'hono/html';
import { formatMinorUnits, toMinorUnits } from '../../eps/amount.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, timestamp } from '../billing/calendar.js';
import type { SandboxClock } from '../billing/clock.js';
import { agreementLabel, type Html } from './layout.js';
import { TEXTS } from './texts.js';
import type { Agreement, BillingEvent, BillingEventKind } from '../billing/records.js';
import type { ClockJump } from '../billing/scheduler.js';
import type { SandboxStore } from '../billing/store.js';

const money = formatMinorUnits;

/** A move of the clock made with a page's form, by its number (`?jump=N` on the page it returns to). */
export interface ReportedJump extends ClockJump {
  number: number;
}

/** A move offered as a button of its own: to an instant that matters for this page. */
export interface Shortcut {
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
export function clockPanel(clock: SandboxClock, returnTo: string, shortcuts: readonly Shortcut[] = []): Html {
  const now = clock.millis();
  // To the second: a move computed a moment before it was made lands a few milliseconds short of a whole unit.
  const moved = Math.round(clock.movedBy / 1000) * 1000;
  const back = html`<input type="hidden" name="return_to" value="${returnTo}">`;
  const how = clock.frozen
    ? moved
      ? `moved ${spanText(moved)} forward so far; it stands still until moved again`
      : 'stands still until moved'
    : moved
      ? `moved ${spanText(moved)} forward so far; it runs on with real time from the moved time`
      : 'runs with real time';
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
  (s) =>
    html`<form method="post" action="/clock" class="inline">${back}<input type="hidden" name="to" value="${new Date(s.to).toISOString()}"><button type="submit">${s.text}</button></form>`,
)}
<form method="post" action="${clock.frozen ? '/clock/unfreeze' : '/clock/freeze'}" class="inline">${back}<button type="submit">${clock.frozen ? 'Let the clock run with real time' : 'Stop the clock'}</button></form>
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
export function jumpStatus(store: SandboxStore, jump: ReportedJump, agreement?: Agreement): Html {
  const from = Date.parse(jump.from);
  const to = Date.parse(jump.to);
  const events = agreement ? jump.events.filter((e) => e.agreement_id === agreement.agreement_id) : jump.events;
  const others = jump.events.length - events.length;
  const where = agreement ? ` for ${agreementLabel(TEXTS.en, agreement)}` : '';
  const prefix = (e: BillingEvent) =>
    agreement ? '' : `${agreementLabel(TEXTS.en, store.agreements.get(e.agreement_id))}: `;
  return html`<section class="card notice" role="status" aria-labelledby="jump">
<h2 id="jump">${to > from ? `The clock moved ${spanText(to - from)} forward` : 'The clock already showed that time'}</h2>
<p>From <time datetime="${jump.from}">${timestamp(from)}</time> to <time datetime="${jump.to}">${timestamp(to)}</time> UTC.
${events.length ? `What happened on the way${where}: ${eventSummary(events)}.` : `Nothing happened on the way${where}: no charge, autopayment or blocking fell in this time.`}</p>
${
  events.length
    ? html`<ol class="events">${events
        .slice(0, MAX_LISTED)
        .map(
          (e) =>
            html`<li><time class="when" datetime="${e.at.replace(' ', 'T')}Z">${e.at}</time> ${
              EVENT_CLASS[e.kind]
                ? html`<span class="${EVENT_CLASS[e.kind]}">${prefix(e)}${e.text}</span>`
                : `${prefix(e)}${e.text}`
            }</li>`,
        )}</ol>`
    : ''
}
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
    const paid =
      kind === 'autopayment' ? ` (${money(of.reduce((sum, e) => sum + (toMinorUnits(e.amount) ?? 0n), 0n))})` : '';
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
