/**
 * The scheduler plays the billing's time: it processes, in time order and each exactly once, every event up to the
 * clock's time — whether the clock ran there or jumped there.
 *
 * Events at one instant are processed in this order: versions taking effect (recalculations), period starts
 * (charges, awaiting activation, financial blocking), autopayments on blocking (trigger 2), autopayments N days
 * before a period (trigger 1), then the hourly sweep at minute 30 (trigger 3). Ties between subscriptions go by
 * subscription id, between agreements by agreement id.
 *
 * An event the billing learns of after its time (a subscription created with a past start, a change back-dated) is
 * processed at once, in its order, at the current time; no autopayment is fired for the past.
 */
import { isAutopayLeadDays, MAX_AUTOPAY_LEAD_DAYS } from '../../eps/autopay.js';
import { DAY_MS, nextHalfPast, parseTimestamp } from './calendar.js';
import type { Autopayments } from './autopayments.js';
import type { Charging } from './charging.js';
import { moveTarget, parseInstant, type SandboxClock } from './clock.js';
import type { BillingEvent, Subscription } from './records.js';
import type { SandboxStore } from './store.js';

export interface SchedulerOptions {
  /** N of trigger 1: days before a period start. */
  leadDays: number;
  /** The instant the billing's history starts (seed data back-dated to it); default the clock's time. */
  since?: number;
}

/** What a move of the clock did. */
export interface ClockJump {
  /** ISO instants. */
  from: string;
  to: string;
  /** What the billing did on the way, in order. */
  events: BillingEvent[];
}

export class Scheduler {
  #leadDays: number;
  /** Everything up to this instant has been processed. */
  #processedTo: number;
  #lastSweep: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly store: SandboxStore,
    private readonly clock: SandboxClock,
    private readonly charging: Charging,
    private readonly autopayments: Autopayments,
    options: SchedulerOptions,
  ) {
    this.#leadDays = checkLeadDays(options.leadDays);
    this.#processedTo = options.since ?? clock.millis();
    this.#lastSweep = this.#processedTo;
  }

  /** N of trigger 1: days before a period start. A change applies to the lead times still ahead. */
  get leadDays(): number {
    return this.#leadDays;
  }

  set leadDays(days: number) {
    this.#leadDays = checkLeadDays(days);
  }

  /** Starts over (after the store was re-seeded): nothing is processed before `since`. */
  reset(since: number, leadDays: number): void {
    this.#processedTo = since;
    this.#lastSweep = since;
    this.#leadDays = checkLeadDays(leadDays);
  }

  /** Processes everything due up to the clock's time; returns what happened. */
  catchUp(): BillingEvent[] {
    return this.runUntil(this.clock.millis());
  }

  /**
   * Moves the clock: `by` is milliseconds, an ISO 8601 duration (`P1D`) or a target date-time. Throws a RangeError
   * (with a message for people) for a move backwards, a malformed one, or one over ten years.
   */
  advance(by: number | string): ClockJump {
    const isDuration = typeof by === 'number' || /^\s*P/i.test(by);
    return this.#move(isDuration ? { advance: by } : { to: by });
  }

  /** Moves the clock to an instant (forward only). */
  advanceTo(when: Date | number | string): ClockJump {
    const at = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : parseInstant(when);
    return this.#move({ to: Number.isFinite(at) ? new Date(at).toISOString() : String(when) });
  }

  /** Moves the clock as `POST /sandbox/clock` asks (`advance` in seconds there). */
  move(request: { advance?: unknown; to?: unknown }, unit: 's' | 'ms'): ClockJump {
    return this.#move(request, unit);
  }

  /** Processes, in order, every event up to `target`. */
  runUntil(target: number): BillingEvent[] {
    const journalStart = this.store.journal.length;
    const floor = this.#processedTo;
    let previous = Number.NaN;
    let passes = 0;
    for (let t = this.#nextEventTime(); t <= target; t = this.#nextEventTime()) {
      passes = t === previous ? passes + 1 : 0;
      if (passes > 100) throw new Error(`billing scheduler: an event at ${new Date(t).toISOString()} does not go away`);
      previous = t;
      this.#processInstant(t, floor);
    }
    this.#processedTo = Math.max(this.#processedTo, target);
    return this.store.journal.slice(journalStart);
  }

  /** Processes events as real time reaches them (checked every second; nothing to do while the clock is frozen). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      try {
        this.catchUp();
      } catch (error) {
        console.error('billing sandbox: scheduler failed', error);
      }
    }, 1000);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** When autopayment trigger 1 fires for the subscription's next period start, if it is still to fire. */
  leadTime(subscription: Subscription): number | undefined {
    const billing = subscription.billing;
    if (billing.lead_done_for === billing.next_start) return undefined;
    const lead = billing.next_start - this.leadDays * DAY_MS;
    return lead >= billing.next_start_known_at ? lead : undefined;
  }

  #move(request: { advance?: unknown; to?: unknown }, unit: 's' | 'ms' = 'ms'): ClockJump {
    this.catchUp();
    const from = this.clock.millis();
    const result = moveTarget(from, request, unit);
    if ('error' in result) throw new RangeError(result.error);
    this.clock.moveTo(result.target);
    const events = this.runUntil(result.target);
    return { from: new Date(from).toISOString(), to: new Date(result.target).toISOString(), events };
  }

  #nextEventTime(): number {
    let next = nextHalfPast(this.#lastSweep);
    for (const subscription of this.store.subscriptions.values()) {
      const billing = subscription.billing;
      const version = subscription.versions[billing.applied_versions];
      if (version) next = Math.min(next, parseTimestamp(version.starts_at));
      next = Math.min(next, billing.next_start, this.leadTime(subscription) ?? Number.POSITIVE_INFINITY);
    }
    return next;
  }

  /** Everything due at instant `t`; before `floor` the billing learnt of it late and acts now, at `floor`. */
  #processInstant(t: number, floor: number): void {
    const late = t < floor;
    const at = late ? floor : t;
    const subscriptions = [...this.store.subscriptions.values()];
    const blocked: Subscription[] = [];

    for (const subscription of subscriptions) {
      const version = subscription.versions[subscription.billing.applied_versions];
      if (version && parseTimestamp(version.starts_at) === t && this.charging.applyNextVersion(subscription, at))
        blocked.push(subscription);
    }
    for (const subscription of subscriptions) {
      if (subscription.billing.next_start === t && this.charging.startPeriod(subscription, t, at) === 'blocked')
        blocked.push(subscription);
    }
    if (!late) {
      for (const subscription of firstPerAgreement(blocked)) {
        this.autopayments.fire(subscription.agreement_id, 'blocking', at, subscription.subscription_id);
      }
    }
    const leads = subscriptions.filter((s) => this.leadTime(s) === t);
    for (const subscription of leads) subscription.billing.lead_done_for = subscription.billing.next_start;
    for (const subscription of firstPerAgreement(leads)) {
      this.autopayments.fire(subscription.agreement_id, 'before_period', at, subscription.subscription_id);
    }
    if (t === nextHalfPast(this.#lastSweep)) {
      this.#lastSweep = t;
      for (const agreementId of this.store.agreements.keys()) {
        if (this.autopayments.sweeps(agreementId)) this.autopayments.fire(agreementId, 'hourly', at);
      }
    }
  }
}

function checkLeadDays(days: number): number {
  if (!isAutopayLeadDays(days))
    throw new RangeError(
      `autopayment lead days must be a whole number from 1 to ${MAX_AUTOPAY_LEAD_DAYS}, not ${days}`,
    );
  return days;
}

/** One subscription per agreement (the first), so one trigger charges an agreement once at one instant. */
function firstPerAgreement(subscriptions: readonly Subscription[]): Subscription[] {
  const seen = new Set<number>();
  return subscriptions.filter((s) => !seen.has(s.agreement_id) && seen.add(s.agreement_id));
}
