/**
 * What the sandbox's operator can do and read, once: the JSON control API (`control-api.ts`) and the HTML pages
 * (`pages/admin.ts`) both call these, so a page and a `curl` do the same thing. Each operation says what happened; money is
 * decimal text ("1140.00") made from exact minor units.
 */
import { formatMinorUnits } from '../eps/amount.js';
import { timestamp } from './billing/calendar.js';
import type { Fault, FaultRoute } from './faults.js';
import type { Agreement } from './billing/records.js';
import type { ClockJump } from './billing/scheduler.js';
import { seed, type SandboxState } from './state.js';

/** An operation refused for a reason the caller can fix; `status` is 400 or 404. */
export class OperationError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export interface ClockView {
  now: string;
  frozen: boolean;
  /** How far moves have taken the clock ahead of where it would be without them (whole seconds). */
  moved_by_seconds: number;
  autopayment_lead_days: number;
}

export function clockView(ctx: SandboxState): ClockView {
  return {
    now: ctx.clock.now().toISOString(),
    frozen: ctx.clock.frozen,
    moved_by_seconds: Math.round(ctx.clock.movedBy / 1000),
    autopayment_lead_days: ctx.scheduler.leadDays,
  };
}

/** Moves the clock (`advance`: a duration or seconds; `to`: an instant); every event on the way fires, once, in order. */
export function moveClock(ctx: SandboxState, request: { advance?: unknown; to?: unknown }): ClockJump {
  try {
    return ctx.scheduler.move(request, 's');
  } catch (error) {
    if (error instanceof RangeError) throw new OperationError(400, error.message);
    throw error;
  }
}

export function freezeClock(ctx: SandboxState): ClockView {
  ctx.scheduler.catchUp();
  ctx.clock.freeze();
  return clockView(ctx);
}

export function unfreezeClock(ctx: SandboxState): ClockView {
  ctx.clock.unfreeze();
  return clockView(ctx);
}

export interface Settings {
  autopayment_lead_days: number;
  token_ttl_seconds: number;
}

export function settings(ctx: SandboxState): Settings {
  return { autopayment_lead_days: ctx.scheduler.leadDays, token_ttl_seconds: ctx.tokens.ttlSeconds };
}

/** Sets N, the autopayment lead time in days (trigger 1); it applies to the lead times still ahead. */
export function setLeadDays(ctx: SandboxState, days: unknown): Settings {
  try {
    ctx.scheduler.leadDays = typeof days === 'number' ? days : Number.NaN;
  } catch (error) {
    if (error instanceof RangeError) throw new OperationError(400, `autopayment_lead_days: ${error.message}`);
    throw error;
  }
  return settings(ctx);
}

/** Sets a fault on a route (`auth`, `eps_payments`, or every API request: `any`); replaces the one there. */
export function setFault(ctx: SandboxState, target: FaultRoute, fault: Fault): FaultsView {
  ctx.faults[target] = fault;
  return faultsView(ctx);
}

export function clearFaults(ctx: SandboxState): FaultsView {
  for (const key of Object.keys(ctx.faults) as FaultRoute[]) delete ctx.faults[key];
  return faultsView(ctx);
}

export type FaultsView = Record<string, Fault>;

export function faultsView(ctx: SandboxState): FaultsView {
  return Object.fromEntries(
    Object.entries(ctx.faults)
      .filter(([, fault]) => fault !== undefined)
      .map(([name, fault]) => [name, { ...fault }]),
  );
}

/**
 * Back to the seed: the data as at start-up, the clock back at its configured start (else the real time now),
 * frozen or running as configured, N as configured, no fault. Tokens already issued stay valid for the time they had
 * left, so a relay is not logged out by a reset.
 */
export function reset(ctx: SandboxState): ClockView {
  const before = ctx.clock.millis();
  ctx.clock.reset();
  ctx.tokens.shift(before - ctx.clock.millis());
  seed(ctx);
  clearFaults(ctx);
  ctx.calls.length = 0;
  ctx.counts.auth = 0;
  ctx.counts.epsPayments = 0;
  return clockView(ctx);
}

/** Disables a payment method of an agreement and its autopayment (idempotent). */
export function disableMethod(ctx: SandboxState, agreementId: number, methodId: number) {
  const method = ctx.store.paymentMethods.get(methodId);
  if (!method || method.agreement_id !== agreementId)
    throw new OperationError(404, `agreement ${agreementId} has no payment method ${methodId}`);
  ctx.store.disableMethod(method);
  return {
    payment_method_id: method.payment_method_id,
    status: method.status,
    enable_auto_payments: method.enable_auto_payments,
  };
}

export function agreementOf(ctx: SandboxState, id: number): Agreement {
  const agreement = ctx.store.agreements.get(id);
  if (!agreement) throw new OperationError(404, `agreement ${id} not found`);
  return agreement;
}

/** Every agreement with its balance and recommended payment now. */
export function agreementList(ctx: SandboxState) {
  const now = ctx.clock.millis();
  return [...ctx.store.agreements.values()].map((a) => ({
    agreement_id: a.agreement_id,
    user_id: a.user_id,
    agreement_number: a.agreement_number ?? null,
    is_offer: a.is_offer,
    balance: formatMinorUnits(a.balance),
    recommended_payment: formatMinorUnits(ctx.charging.recommendedPayment(a.agreement_id, now)),
  }));
}

/** What the billing says about one agreement now: balance, recommended payment, subscriptions, ledger, payments, methods. */
export function agreementReport(ctx: SandboxState, id: number) {
  const { store, charging } = ctx;
  const agreement = agreementOf(ctx, id);
  const now = ctx.clock.millis();
  return {
    now: new Date(now).toISOString(),
    agreement_id: agreement.agreement_id,
    user_id: agreement.user_id,
    agreement_number: agreement.agreement_number ?? null,
    is_offer: agreement.is_offer,
    balance: formatMinorUnits(agreement.balance),
    recommended_payment: formatMinorUnits(charging.recommendedPayment(id, now)),
    subscriptions: store.subscriptionsOf(id).map((s) => {
      const { billing } = s;
      const current = charging.versionAt(s, now);
      const waiting = billing.state === 'awaiting_activation' || billing.state === 'blocked';
      return {
        subscription_id: s.subscription_id,
        description: current.description,
        state: billing.state,
        since: billing.since,
        tariff_id: current.tariff_id,
        period_id: current.period_id,
        version: current.version,
        versions: s.versions.length,
        current_period: billing.period
          ? { start: timestamp(billing.period.start), end: timestamp(billing.period.end) }
          : null,
        next_period_start: timestamp(billing.next_start),
        // What the subscription needs now: its next period, or (waiting) the rest of the current one.
        needs: formatMinorUnits(charging.need(s, now)),
        needs_for: waiting ? 'rest_of_current_period' : 'next_period',
      };
    }),
    ledger: store.ledgerOf(id).map((e) => ({
      entry_id: e.entry_id,
      at: e.at,
      kind: e.kind,
      amount: formatMinorUnits(e.amount),
      balance_after: formatMinorUnits(e.balance_after),
      description: e.description,
      ...(e.subscription_id !== undefined && { subscription_id: e.subscription_id }),
      ...(e.version !== undefined && { version: e.version }),
      ...(e.payment_id !== undefined && { payment_id: e.payment_id }),
      ...(e.autopayment_id !== undefined && {
        autopayment_id: e.autopayment_id,
        trigger: store.autopayments.get(e.autopayment_id)?.trigger,
      }),
      ...(e.period !== undefined && { period: e.period }),
    })),
    payments: store.paymentsOf(id).map((p) => ({
      payment_id: p.payment_id,
      system: p.system,
      amount: formatMinorUnits(p.amount),
      status: p.status,
      credited: p.credited,
      agreement_param_id: p.agreement_param_id,
      agreement_param_value: p.agreement_param_value,
      created_at: p.created_at,
      decided_at: p.decided_at ?? null,
      payment_method_id: p.payment_method_id ?? null,
    })),
    autopayments: store.autopaymentsOf(id).map((a) => ({
      autopayment_id: a.autopayment_id,
      at: a.at,
      trigger: a.trigger,
      amount: formatMinorUnits(a.amount),
      payment_method_id: a.payment_method_id,
      subscription_id: a.subscription_id ?? null,
      status: a.status,
    })),
    payment_methods: store
      .methodsOf(id)
      .map((m) => ({ ...m, disabled_at: store.methodDisabledAt.get(m.payment_method_id) ?? null })),
  };
}
