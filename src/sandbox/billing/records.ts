/**
 * The records of the sandbox's billing data, as the store keeps them: clients, agreements, invoices, tariffs,
 * subscriptions (with their versions and billing state), EPS payments, saved payment methods, autopayments, the
 * ledger of every balance movement and the journal of what the billing did. Money is integer minor units (bigint),
 * turned into text ("1500.50") only at the edge.
 */
import type { LookupKind } from '../../eps/lookup.js';
import type { SystemId } from '../../eps/systems.js';
import type { Period } from './calendar.js';

/** A record id as a path or a query writes it (`1001`): a positive integer, at most 15 digits; else `undefined`. */
export function recordId(text: string | undefined): number | undefined {
  return text !== undefined && /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined;
}

export interface User {
  user_id: number;
  /** Client kind; 1 = legal entity. */
  type: number;
  organization: string;
  email: string;
  /** Sandbox extras used by the agreement lookup (kinds 1, 4, 15); the client id (kind 10) is `user_id`. */
  login?: string;
  full_name?: string;
  taxpayer_number?: string;
}

export interface Agreement {
  agreement_id: number;
  user_id: number;
  is_offer: boolean;
  agreement_number?: string;
  /** `YYYY-MM-DD`. */
  create_date: string;
  /** Sandbox extras used by the agreement lookup (kinds 6 and 8). */
  accounting_code?: string;
  account_number?: string;
  /** Minor units. */
  balance: bigint;
}

export interface Invoice {
  invoice_id: number;
  agreement_id: number;
  amount: bigint;
}

export interface TariffPeriod {
  period_id: number;
  name: string;
  /** Length in calendar months; periods are aligned to the calendar (monthly: from the 1st). */
  months: number;
}

export interface TariffService {
  tariff_service_id: number;
  name: string;
  /** Price of one unit for one month, minor units; a period of m months costs m times as much. */
  price: bigint;
}

export interface Tariff {
  tariff_id: number;
  name: string;
  periods: TariffPeriod[];
  services: TariffService[];
}

export interface SubscriptionService {
  tariff_service_id: number;
  multiplicator: number;
  /** Replacement price (`modifier.new_price`), minor units. */
  new_price?: bigint;
}

/** The terms of a subscription from `starts_at` on; a change adds a version and never edits an older one. */
export interface SubscriptionVersion {
  version: number;
  /** `YYYY-MM-DD HH:MM:SS`: `subscription_start_date` of version 1, `change_start_date` of later ones. */
  starts_at: string;
  tariff_id: number;
  period_id: number;
  description: string;
  services: SubscriptionService[];
  created_at: string;
}

/**
 * `scheduled`: before its start. `awaiting_activation`: started without the funds for its first period.
 * `active`: its current period is paid. `blocked`: financial blocking, a period it could not pay.
 */
export type SubscriptionState = 'scheduled' | 'awaiting_activation' | 'active' | 'blocked';

/** The part `[from, to)` of a billing period that was charged, and how much it has cost so far (with recalculations). */
export interface ChargedPeriod extends Period {
  from: number;
  to: number;
  charged: bigint;
}

/** Where the billing of a subscription stands (instants in epoch ms). */
export interface SubscriptionBilling {
  state: SubscriptionState;
  /** `YYYY-MM-DD HH:MM:SS` since which the state holds. */
  since: string;
  /** The current billing period; absent while scheduled. */
  period?: Period;
  /** The next period start the billing will process (while scheduled: the subscription start). */
  next_start: number;
  /** When `next_start` became known; an autopayment lead time before this is not fired. */
  next_start_known_at: number;
  /** The period start whose autopayment lead time has been handled. */
  lead_done_for?: number;
  /** How many versions are in force (version 1 from the start; later ones once their start is processed). */
  applied_versions: number;
  /** Every period part charged, oldest first. */
  charged: ChargedPeriod[];
}

export interface Subscription {
  subscription_id: number;
  agreement_id: number;
  /** Oldest first; the last one is the current terms. */
  versions: SubscriptionVersion[];
  billing: SubscriptionBilling;
}

export type PaymentStatus = 'pending' | 'succeeded' | 'declined';
export type PaymentDecision = 'pay' | 'decline';

export interface Payment {
  payment_id: number;
  system: SystemId;
  eps_uuid: string;
  agreement_id: number;
  amount: bigint;
  agreement_param_id: LookupKind;
  agreement_param_value: string;
  /** `eps_params` as a record, as validated. */
  params: Record<string, unknown>;
  status: PaymentStatus;
  /** The request saves the payment method (A: `save_payment_method`, B: `is_autopayment`). */
  saves_method: boolean;
  /** The saved method gets autopayment (A: `save_payment_method`, `enable_autopayments`, `preferred_method` all true; B: `is_autopayment`). */
  connects_autopay: boolean;
  /** A test payment that is then cancelled (A: `cancel_payment`): the balance is not raised; with saving it only links the method. */
  link_only: boolean;
  /** Whether the balance was raised (false until paid, and for a link-only payment). */
  credited: boolean;
  payment_method_id?: number;
  created_at: string;
  decided_at?: string;
}

/** Status codes of a payment method: 2 = active (the spec's "current"), 3 = disabled (our choice). */
export const METHOD_ACTIVE = 2;
export const METHOD_DISABLED = 3;
export type PaymentMethodStatus = typeof METHOD_ACTIVE | typeof METHOD_DISABLED;

export interface PaymentMethod {
  payment_method_id: number;
  agreement_id: number;
  enable_auto_payments: boolean;
  status: PaymentMethodStatus;
  method: string;
  title: string;
  system: SystemId;
  created_at: string;
}

export type AutopaymentTrigger = 'before_period' | 'blocking' | 'hourly';

/** A charge by a saved method, made by the billing on one of the spec's three triggers. */
export interface Autopayment {
  autopayment_id: number;
  agreement_id: number;
  payment_method_id: number;
  system: SystemId;
  trigger: AutopaymentTrigger;
  /** The recommended payment at that moment, minor units. */
  amount: bigint;
  status: 'succeeded';
  at: string;
  /** The subscription whose period start or blocking fired it (none for the hourly sweep). */
  subscription_id?: number;
}

/** `payment`: through a payment system; `transfer`: credited otherwise (seed data); the rest are the billing's. */
export type LedgerKind = 'payment' | 'autopayment' | 'transfer' | 'charge' | 'recalculation';

/** One movement of an agreement's balance; the ledger is never edited, only added to. */
export interface LedgerEntry {
  entry_id: number;
  agreement_id: number;
  at: string;
  kind: LedgerKind;
  /** Minor units: positive raises the balance, negative lowers it. */
  amount: bigint;
  balance_after: bigint;
  description: string;
  subscription_id?: number;
  /** The version whose terms the charge follows (for a recalculation: the version that caused it). */
  version?: number;
  payment_id?: number;
  autopayment_id?: number;
  /** For charges: the billing period and the part of it charged (`YYYY-MM-DD HH:MM:SS`). */
  period?: { start: string; end: string; from: string; to: string };
}
export type NewLedgerEntry = Omit<LedgerEntry, 'entry_id' | 'balance_after'>;

export type BillingEventKind =
  | 'charge'
  | 'recalculation'
  | 'not_charged'
  | 'awaiting_activation'
  | 'blocked'
  | 'activated'
  | 'unblocked'
  | 'version'
  | 'autopayment'
  | 'autopayment_skipped';

/** What the billing did, in order: the journal behind `POST /sandbox/clock`'s answer. Amounts as decimal text. */
export interface BillingEvent {
  at: string;
  kind: BillingEventKind;
  agreement_id: number;
  subscription_id?: number;
  trigger?: AutopaymentTrigger;
  payment_method_id?: number;
  amount?: string;
  text: string;
}

export type NewUser = Omit<User, 'user_id'>;
export type NewAgreement = Omit<Agreement, 'agreement_id' | 'balance'>;
export type NewSubscription = Omit<Subscription, 'subscription_id' | 'versions' | 'billing'> &
  Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewVersion = Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewPayment = Pick<
  Payment,
  | 'system'
  | 'eps_uuid'
  | 'agreement_id'
  | 'amount'
  | 'agreement_param_id'
  | 'agreement_param_value'
  | 'params'
  | 'saves_method'
  | 'connects_autopay'
  | 'link_only'
>;
export type NewPaymentMethod = Omit<PaymentMethod, 'payment_method_id'>;
