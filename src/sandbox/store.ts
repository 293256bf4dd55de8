/**
 * The sandbox's in-memory billing data: clients, agreements, invoices, tariffs, subscriptions (with their versions
 * and billing state), EPS payments, saved payment methods, autopayments, the ledger of every balance movement and
 * the journal of what the billing did. Money is held as integer minor units (bigint) and only turned into text
 * ("1500.50") at the edge. Times come from the sandbox clock (`now`). The store knows no HTTP and no billing rules:
 * the app validates requests, the charging rules and the scheduler decide, and the store records.
 */
import type { LookupKind } from '../eps/lookup.js';
import { SYSTEMS, type SystemId } from '../eps/systems.js';
import { parseTimestamp, timestamp, type Period } from './calendar.js';

export { timestamp } from './calendar.js';

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

/** The test cards the hosted page offers, the first by default; a saved method is titled by its card. */
export const TEST_CARDS = ['Visa •••• 4242', 'Mastercard •••• 4444', 'Mir •••• 0018'] as const;

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
export type NewSubscription = Omit<Subscription, 'subscription_id' | 'versions' | 'billing'> & Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewVersion = Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewPayment = Pick<Payment, 'system' | 'eps_uuid' | 'agreement_id' | 'amount' | 'agreement_param_id' | 'agreement_param_value' | 'params'>;

/** The outcome of a decision on the hosted page; `first` is false when the payment had already been decided. */
export interface DecisionResult {
  payment: Payment;
  first: boolean;
}

const FIRST_IDS = { user: 1, agreement: 1001, invoice: 501, subscription: 1, payment: 1, method: 1, autopayment: 1, entry: 1 };

export class SandboxStore {
  readonly users = new Map<number, User>();
  readonly agreements = new Map<number, Agreement>();
  readonly invoices = new Map<number, Invoice>();
  readonly tariffs = new Map<number, Tariff>();
  readonly subscriptions = new Map<number, Subscription>();
  readonly payments = new Map<number, Payment>();
  readonly paymentMethods = new Map<number, PaymentMethod>();
  readonly autopayments = new Map<number, Autopayment>();
  /**
   * When each disabled payment method was first disabled (`YYYY-MM-DD HH:MM:SS`), by method id: for the client card.
   * Kept beside the method, not in it, so `GET /payment_methods` answers the spec's fields only.
   */
  readonly methodDisabledAt = new Map<number, string>();
  /** Every balance movement of every agreement, in order. */
  readonly ledger: LedgerEntry[] = [];
  /** What the billing did, in order. */
  readonly journal: BillingEvent[] = [];

  #next = { ...FIRST_IDS };

  /** @param now the sandbox clock, epoch ms. */
  constructor(readonly now: () => number = Date.now) {}

  /** Empties the store in place (ids start over), for a reset to the seed: whoever holds it keeps a live store. */
  clear(): void {
    for (const map of [this.users, this.agreements, this.invoices, this.tariffs, this.subscriptions, this.payments, this.paymentMethods, this.autopayments, this.methodDisabledAt]) map.clear();
    this.ledger.length = 0;
    this.journal.length = 0;
    this.#next = { ...FIRST_IDS };
  }

  addUser(input: NewUser): User {
    const user: User = { user_id: this.#next.user++, ...input };
    this.users.set(user.user_id, user);
    return user;
  }

  addAgreement(input: NewAgreement): Agreement {
    const agreement: Agreement = { agreement_id: this.#next.agreement++, ...input, balance: 0n };
    this.agreements.set(agreement.agreement_id, agreement);
    return agreement;
  }

  addInvoice(agreement_id: number, amount: bigint): Invoice {
    const invoice: Invoice = { invoice_id: this.#next.invoice++, agreement_id, amount };
    this.invoices.set(invoice.invoice_id, invoice);
    return invoice;
  }

  addTariff(tariff: Tariff): Tariff {
    this.tariffs.set(tariff.tariff_id, tariff);
    return tariff;
  }

  agreementByNumber(agreementNumber: string): Agreement | undefined {
    return [...this.agreements.values()].find((a) => a.agreement_number === agreementNumber);
  }

  /** The agreements of a client, oldest (lowest id) first. */
  agreementsOf(userId: number): Agreement[] {
    return [...this.agreements.values()].filter((a) => a.user_id === userId).sort((a, b) => a.agreement_id - b.agreement_id);
  }

  /**
   * The agreement a payment goes to, found by one of the spec's lookup kinds. A value that names a client (login,
   * full name, e-mail, client id, taxpayer number) selects that client's first agreement. Values are compared after
   * trimming; e-mail and full name ignore case, and a full name also ignores repeated spaces.
   */
  findAgreement(kind: LookupKind, rawValue: string): Agreement | undefined {
    const value = rawValue.trim();
    const agreements = [...this.agreements.values()];
    const id = /^\d{1,15}$/.test(value) ? Number(value) : undefined;
    switch (kind) {
      case 5:
        return agreements.find((a) => a.agreement_number === value);
      case 6:
        return agreements.find((a) => a.accounting_code === value);
      case 8:
        return agreements.find((a) => a.account_number === value);
      case 11:
        return id === undefined ? undefined : this.agreements.get(id);
      case 14: {
        const invoice = id === undefined ? undefined : this.invoices.get(id);
        return invoice && this.agreements.get(invoice.agreement_id);
      }
      default:
        return this.#clientsMatching(kind, value)
          .map((user) => this.agreementsOf(user.user_id)[0])
          .find((agreement) => agreement !== undefined);
    }
  }

  #clientsMatching(kind: 1 | 4 | 7 | 10 | 15, value: string): User[] {
    const users = [...this.users.values()].sort((a, b) => a.user_id - b.user_id);
    const folded = (text: string | undefined) => text?.trim().replace(/\s+/g, ' ').toLowerCase();
    switch (kind) {
      case 1:
        return users.filter((u) => u.login === value);
      case 4:
        return users.filter((u) => u.full_name !== undefined && folded(u.full_name) === folded(value));
      case 7:
        return users.filter((u) => u.email.toLowerCase() === value.toLowerCase());
      case 10:
        return users.filter((u) => /^\d{1,15}$/.test(value) && u.user_id === Number(value));
      case 15:
        return users.filter((u) => u.taxpayer_number === value);
    }
  }

  addSubscription(input: NewSubscription): Subscription {
    const { agreement_id, ...terms } = input;
    const now = this.now();
    const subscription: Subscription = {
      subscription_id: this.#next.subscription++,
      agreement_id,
      versions: [{ version: 1, ...terms, created_at: timestamp(now) }],
      billing: {
        state: 'scheduled',
        since: timestamp(now),
        next_start: parseTimestamp(terms.starts_at),
        next_start_known_at: now,
        applied_versions: 1,
        charged: [],
      },
    };
    this.subscriptions.set(subscription.subscription_id, subscription);
    return subscription;
  }

  /** Adds a version to a subscription; the earlier versions stay as they were. */
  addVersion(subscription: Subscription, terms: NewVersion): SubscriptionVersion {
    const version: SubscriptionVersion = { version: subscription.versions.length + 1, ...terms, created_at: timestamp(this.now()) };
    subscription.versions.push(version);
    return version;
  }

  addPayment(input: NewPayment): Payment {
    const spec = SYSTEMS[input.system];
    const saves_method = spec.saveFlag !== undefined && input.params[spec.saveFlag] === true;
    const connects_autopay = saves_method && Object.keys(spec.autopay ?? {}).every((name) => input.params[name] === true);
    const link_only = Object.keys(spec.linkOnly ?? {}).some((name) => input.params[name] === true);
    const payment: Payment = {
      payment_id: this.#next.payment++,
      ...input,
      status: 'pending',
      saves_method,
      connects_autopay,
      link_only,
      credited: false,
      created_at: timestamp(this.now()),
    };
    this.payments.set(payment.payment_id, payment);
    return payment;
  }

  /**
   * Records the client's decision on the hosted page, once. Paying raises the agreement's balance (not for a
   * test payment, which is cancelled) and, when the request asked for it, saves the card paid with — with autopayment
   * when the request connects it. A card the agreement already holds as an active method of the same system is not
   * saved twice: that method is used (and gets autopayment if this request connects it). A payment already decided is
   * returned unchanged.
   */
  decidePayment(payment: Payment, decision: PaymentDecision, card: string = this.defaultCard(payment.agreement_id, payment.system)): DecisionResult {
    if (payment.status !== 'pending') return { payment, first: false };
    payment.decided_at = timestamp(this.now());
    if (decision === 'decline') {
      payment.status = 'declined';
      return { payment, first: true };
    }
    payment.status = 'succeeded';
    const agreement = this.agreements.get(payment.agreement_id);
    if (!agreement) throw new Error(`payment ${payment.payment_id} names a missing agreement`);
    if (!payment.link_only) {
      this.post({
        agreement_id: agreement.agreement_id,
        at: payment.decided_at,
        kind: 'payment',
        amount: payment.amount,
        description: `Payment no. ${payment.payment_id} through system ${payment.system}`,
        payment_id: payment.payment_id,
      });
      payment.credited = true;
    }
    if (payment.saves_method) {
      const known = this.methodsOf(agreement.agreement_id).find((m) => m.status === METHOD_ACTIVE && m.system === payment.system && m.title === card);
      const method: PaymentMethod = known ?? {
        payment_method_id: this.#next.method++,
        agreement_id: agreement.agreement_id,
        enable_auto_payments: false,
        status: METHOD_ACTIVE,
        method: 'bank_card',
        title: card,
        system: payment.system,
        created_at: payment.decided_at,
      };
      method.enable_auto_payments ||= payment.connects_autopay;
      this.paymentMethods.set(method.payment_method_id, method);
      payment.payment_method_id = method.payment_method_id;
    }
    return { payment, first: true };
  }

  /**
   * The test card the hosted page offers first: one the agreement has not saved yet as an active method of this
   * system (so saving twice in a row gives two cards, as a client with two cards would), else the first.
   */
  defaultCard(agreementId: number, system: SystemId): string {
    const saved = new Set(this.methodsOf(agreementId).filter((m) => m.status === METHOD_ACTIVE && m.system === system).map((m) => m.title));
    return TEST_CARDS.find((card) => !saved.has(card)) ?? TEST_CARDS[0];
  }

  /** Disables a method and its autopayment (idempotent). */
  disableMethod(method: PaymentMethod): PaymentMethod {
    if (!this.methodDisabledAt.has(method.payment_method_id)) this.methodDisabledAt.set(method.payment_method_id, timestamp(this.now()));
    method.status = METHOD_DISABLED;
    method.enable_auto_payments = false;
    return method;
  }

  /** The method autopayments of an agreement use: its latest active one with autopayment connected. */
  autopaymentMethodOf(agreementId: number): PaymentMethod | undefined {
    return [...this.paymentMethods.values()]
      .filter((m) => m.agreement_id === agreementId && m.status === METHOD_ACTIVE && m.enable_auto_payments)
      .at(-1);
  }

  /** Moves an agreement's balance and records the movement in the ledger. */
  post(input: NewLedgerEntry): LedgerEntry {
    const agreement = this.agreements.get(input.agreement_id);
    if (!agreement) throw new Error(`a ledger entry names a missing agreement ${input.agreement_id}`);
    agreement.balance += input.amount;
    const entry: LedgerEntry = { entry_id: this.#next.entry++, ...input, balance_after: agreement.balance };
    this.ledger.push(entry);
    return entry;
  }

  /** Records an autopayment (the caller credits it through `post`). */
  addAutopayment(input: Omit<Autopayment, 'autopayment_id' | 'status'>): Autopayment {
    const autopayment: Autopayment = { autopayment_id: this.#next.autopayment++, ...input, status: 'succeeded' };
    this.autopayments.set(autopayment.autopayment_id, autopayment);
    return autopayment;
  }

  /** Notes what the billing did. */
  record(event: BillingEvent): BillingEvent {
    this.journal.push(event);
    return event;
  }

  subscriptionsOf(agreementId: number): Subscription[] {
    return [...this.subscriptions.values()].filter((s) => s.agreement_id === agreementId);
  }

  paymentsOf(agreementId: number): Payment[] {
    return [...this.payments.values()].filter((p) => p.agreement_id === agreementId);
  }

  methodsOf(agreementId: number): PaymentMethod[] {
    return [...this.paymentMethods.values()].filter((m) => m.agreement_id === agreementId);
  }

  autopaymentsOf(agreementId: number): Autopayment[] {
    return [...this.autopayments.values()].filter((a) => a.agreement_id === agreementId);
  }

  ledgerOf(agreementId: number): LedgerEntry[] {
    return this.ledger.filter((e) => e.agreement_id === agreementId);
  }
}
