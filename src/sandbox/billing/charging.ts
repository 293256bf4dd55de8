/**
 * The charging rules of the sandbox: what a subscription is charged, when it waits for activation or falls into
 * financial blocking, what a change of terms costs, what activates it again, and the recommended payment. Every
 * method takes the instant it acts at; the scheduler decides when that is. Money moves only through the store's
 * ledger.
 *
 * - Periods are aligned to the calendar (monthly: the 1st to the 1st). A period is charged in advance, at its start,
 *   in full, with the version in force at that start — if the balance covers it; otherwise nothing is charged and the
 *   subscription goes into financial blocking (or, for its very first period, waits for activation).
 * - A subscription that starts inside a period is charged for the rest of that period only (pro rata).
 * - A new version that takes effect inside a charged period recalculates it: the period then costs the old terms up to
 *   the change and the new terms from it, in proportion to time; the difference is charged or credited as a
 *   `recalculation` entry at the change. Nothing charged earlier is edited. A change back-dated into the past
 *   recalculates every period it touches, at once.
 * - A change of the period length (another `period_id`) ends the current period at the change (the rest is credited)
 *   and starts a new calendar period there (charged pro rata).
 * - Money arriving (a payment, an autopayment, a recalculation's credit) activates or unblocks a subscription when
 *   it covers the rest of its current period, which is then charged pro rata from that moment: time spent blocked is
 *   never charged. Only money arriving does: a waiting subscription does not wake up by itself as its period runs
 *   out and the rest gets cheaper.
 * - The recommended payment of an agreement: what the balance lacks to pay, for each subscription, its next period
 *   (active or scheduled ones) or the rest of its current period (blocked or awaiting ones); 0 when it lacks nothing.
 */
import { formatMinorUnits } from '../../eps/amount.js';
import { DAY_MS, dateOf, parseTimestamp, periodContaining, timestamp, type Period } from './calendar.js';
import { monthlyRate, prorate, type Stretch } from './pricing.js';
import type {
  BillingEvent,
  ChargedPeriod,
  LedgerEntry,
  Subscription,
  SubscriptionState,
  SubscriptionVersion,
} from './records.js';
import type { SandboxStore } from './store.js';

/** A part `[from, to)` of a billing period. */
export interface PeriodPart extends Period {
  from: number;
  to: number;
}

export type PeriodStartOutcome = 'charged' | 'awaiting_activation' | 'blocked' | 'not_charged';

export class Charging {
  constructor(private readonly store: SandboxStore) {}

  /** The version in force at `at` (version 1 before the start). */
  versionAt(subscription: Subscription, at: number): SubscriptionVersion {
    for (let i = subscription.versions.length - 1; i > 0; i--) {
      const version = subscription.versions[i]!;
      if (parseTimestamp(version.starts_at) <= at) return version;
    }
    return subscription.versions[0]!;
  }

  /** The length in months of a version's billing period. */
  monthsOf(version: SubscriptionVersion): number {
    const period = this.store.tariffs.get(version.tariff_id)?.periods.find((p) => p.period_id === version.period_id);
    if (!period) throw new Error(`version ${version.version} names a missing period ${version.period_id}`);
    return period.months;
  }

  /**
   * What `part` costs with the terms known at `at`: before `at`, each instant at the version then in force; from `at`
   * on, at the version in force at `at` (a change still ahead is not anticipated: it recalculates when it comes).
   */
  cost(subscription: Subscription, part: PeriodPart, at: number): bigint {
    const cut = Math.min(Math.max(at, part.from), part.to);
    const stretches: Stretch[] = [];
    for (let t = part.from; t < cut;) {
      const end = Math.min(cut, this.#nextVersionStart(subscription, t));
      stretches.push({ rate: this.#rate(this.versionAt(subscription, t)), ms: end - t });
      t = end;
    }
    if (cut < part.to) stretches.push({ rate: this.#rate(this.versionAt(subscription, at)), ms: part.to - cut });
    return prorate(stretches, part);
  }

  /**
   * A period begins at `start` (the subscription's start, or the end of its previous period), processed at `at`
   * (later than `start` only when the billing learns of it late). Charges it if the balance covers it.
   */
  startPeriod(subscription: Subscription, start: number, at: number): PeriodStartOutcome {
    const billing = subscription.billing;
    const period = periodContaining(start, this.monthsOf(this.versionAt(subscription, start)));
    billing.period = period;
    billing.next_start = period.end;
    billing.next_start_known_at = at;
    const part = { ...period, from: start, to: period.end };
    switch (billing.state) {
      case 'scheduled':
        if (this.#charge(subscription, part, at, start > period.start ? 'first period, pro rata' : 'first period')) {
          this.#enter(subscription, 'active', at);
          return 'charged';
        }
        this.#enter(subscription, 'awaiting_activation', at);
        this.#note(
          subscription,
          at,
          'awaiting_activation',
          `started without the funds for its first period (${this.#money(this.cost(subscription, part, at))}): awaiting activation`,
        );
        return 'awaiting_activation';
      case 'active':
        if (this.#charge(subscription, part, at, 'period')) return 'charged';
        this.#enter(subscription, 'blocked', at);
        this.#note(
          subscription,
          at,
          'blocked',
          `the balance does not cover the period ${this.#span(period)} (${this.#money(this.cost(subscription, part, at))}): financial blocking`,
        );
        return 'blocked';
      default:
        this.#note(
          subscription,
          at,
          'not_charged',
          `period ${this.#span(period)} not charged: ${billing.state === 'blocked' ? 'financial blocking' : 'awaiting activation'}`,
        );
        return 'not_charged';
    }
  }

  /** The next version takes effect (processed at `at`). True when this put the subscription into blocking. */
  applyNextVersion(subscription: Subscription, at: number): boolean {
    const billing = subscription.billing;
    const version = subscription.versions[billing.applied_versions];
    if (!version) return false;
    billing.applied_versions += 1;
    const start = parseTimestamp(version.starts_at);
    this.#note(subscription, at, 'version', `version ${version.version} in force from ${version.starts_at}`);
    const period = billing.period;
    if (billing.state === 'scheduled' || !period) return false;

    const months = this.monthsOf(version);
    if (months === period.months || start <= period.start || start >= period.end) {
      this.#recalculate(subscription, version, start, at);
      return false;
    }
    // Another period length: the current period ends at the change, and a new calendar period starts there.
    const current = billing.charged.at(-1);
    if (current && current.to > start) current.to = Math.max(current.from, start);
    this.#recalculate(subscription, version, start, at);
    const next = periodContaining(start, months);
    billing.period = next;
    billing.next_start = next.end;
    billing.next_start_known_at = at;
    if (billing.state !== 'active') return false;
    if (
      this.#charge(
        subscription,
        { ...next, from: start, to: next.end },
        at,
        `new period length from version ${version.version}`,
      )
    )
      return false;
    this.#enter(subscription, 'blocked', at);
    this.#note(
      subscription,
      at,
      'blocked',
      `the balance does not cover the new period ${this.#span(next)}: financial blocking`,
    );
    return true;
  }

  /** Activates or unblocks the agreement's waiting subscriptions (lowest id first) that its balance now covers. */
  settle(agreementId: number, at: number): void {
    for (const subscription of this.store.subscriptionsOf(agreementId)) {
      const { state, period } = subscription.billing;
      if ((state !== 'awaiting_activation' && state !== 'blocked') || !period || at >= period.end) continue;
      const what = state === 'blocked' ? 'unblocked, rest of the period' : 'activation, rest of the period';
      if (!this.#charge(subscription, { ...period, from: at, to: period.end }, at, what)) continue;
      this.#enter(subscription, 'active', at);
      const kind = state === 'blocked' ? 'unblocked' : 'activated';
      this.#note(subscription, at, kind, state === 'blocked' ? 'financial blocking lifted' : 'activated');
    }
  }

  /** What one subscription needs at `at`: its next period, or the rest of its current one when it waits. */
  need(subscription: Subscription, at: number): bigint {
    const { state, period, next_start: start } = subscription.billing;
    if (state === 'scheduled' || state === 'active') {
      const next = periodContaining(start, this.monthsOf(this.versionAt(subscription, start)));
      return this.cost(subscription, { ...next, from: start, to: next.end }, start);
    }
    if (!period || at >= period.end) return 0n;
    return this.cost(subscription, { ...period, from: at, to: period.end }, at);
  }

  /** What brings the agreement to cover the next period of each subscription; 0 when nothing is lacking. */
  recommendedPayment(agreementId: number, at: number): bigint {
    const agreement = this.store.agreements.get(agreementId);
    if (!agreement) return 0n;
    const need = this.store.subscriptionsOf(agreementId).reduce((sum, s) => sum + this.need(s, at), 0n);
    return need > agreement.balance ? need - agreement.balance : 0n;
  }

  /** Charges `part` if the balance covers it; records the charged part either way it succeeds. */
  #charge(subscription: Subscription, part: PeriodPart, at: number, what: string): boolean {
    const cost = this.cost(subscription, part, at);
    const agreement = this.store.agreements.get(subscription.agreement_id);
    if (!agreement || agreement.balance < cost) return false;
    const record: ChargedPeriod = {
      start: part.start,
      end: part.end,
      months: part.months,
      from: part.from,
      to: part.to,
      charged: cost,
    };
    subscription.billing.charged.push(record);
    const version = this.versionAt(subscription, Math.max(part.from, Math.min(at, part.to - 1)));
    const text = `${this.#span(part)} (${what})`;
    if (cost > 0n) {
      this.store.post({
        agreement_id: subscription.agreement_id,
        at: timestamp(at),
        kind: 'charge',
        amount: -cost,
        description: `${this.#name(subscription)}: ${text}`,
        subscription_id: subscription.subscription_id,
        version: version.version,
        period: this.#periodText(record),
      });
    }
    this.#note(subscription, at, 'charge', `charged ${this.#money(cost)} for ${text}`, cost);
    return true;
  }

  /** Brings every charged part the change touches to what it costs now; posts the differences. */
  #recalculate(subscription: Subscription, version: SubscriptionVersion, start: number, at: number): void {
    let credited = false;
    for (const record of subscription.billing.charged) {
      if (record.to < start) continue;
      const due = this.cost(subscription, record, at);
      const difference = due - record.charged;
      if (difference === 0n) continue;
      record.charged = due;
      const text = `${this.#span(record)}: version ${version.version} from ${version.starts_at}`;
      this.store.post({
        agreement_id: subscription.agreement_id,
        at: timestamp(at),
        kind: 'recalculation',
        amount: -difference,
        description: `${this.#name(subscription)}: recalculation of ${text}`,
        subscription_id: subscription.subscription_id,
        version: version.version,
        period: this.#periodText(record),
      });
      const verb = difference > 0n ? `charged ${this.#money(difference)}` : `credited ${this.#money(-difference)}`;
      this.#note(subscription, at, 'recalculation', `recalculation ${verb} for ${text}`, -difference);
      credited ||= difference < 0n;
    }
    // A credit is money arriving too: it may activate a waiting subscription of the agreement.
    if (credited) this.settle(subscription.agreement_id, at);
  }

  #nextVersionStart(subscription: Subscription, after: number): number {
    for (const version of subscription.versions) {
      const start = parseTimestamp(version.starts_at);
      if (start > after) return start;
    }
    return Number.POSITIVE_INFINITY;
  }

  #rate(version: SubscriptionVersion): bigint {
    return monthlyRate(version, this.store.tariffs);
  }

  #enter(subscription: Subscription, state: SubscriptionState, at: number): void {
    subscription.billing.state = state;
    subscription.billing.since = timestamp(at);
  }

  #note(subscription: Subscription, at: number, kind: BillingEvent['kind'], text: string, amount?: bigint): void {
    this.store.record({
      at: timestamp(at),
      kind,
      agreement_id: subscription.agreement_id,
      subscription_id: subscription.subscription_id,
      ...(amount !== undefined && { amount: formatMinorUnits(amount) }),
      text: `${this.#name(subscription)}: ${text}`,
    });
  }

  #name(subscription: Subscription): string {
    const description = subscription.versions.at(-1)?.description;
    return `Subscription ${subscription.subscription_id}${description ? ` (${description})` : ''}`;
  }

  #span(part: Period & { from?: number; to?: number }): string {
    const from = part.from ?? part.start;
    const to = part.to ?? part.end;
    const edge = (t: number) => (t % DAY_MS === 0 ? dateOf(t) : timestamp(t));
    return `${edge(from)} – ${edge(to)}`;
  }

  #periodText(record: ChargedPeriod): NonNullable<LedgerEntry['period']> {
    return {
      start: timestamp(record.start),
      end: timestamp(record.end),
      from: timestamp(record.from),
      to: timestamp(record.to),
    };
  }

  #money(amount: bigint): string {
    return formatMinorUnits(amount);
  }
}
