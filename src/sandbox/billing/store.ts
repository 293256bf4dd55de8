/**
 * The sandbox's billing data in memory (the records of `records.ts`), with the ids it hands out. Times come from the
 * sandbox clock (`now`). The store records and finds; it knows no HTTP and decides nothing: the routes validate
 * requests, and the billing's rules decide (`charging.ts`, `autopayments.ts`, `payment-decision.ts`,
 * `agreement-lookup.ts`, driven in time by `scheduler.ts`).
 */
import { parseTimestamp, timestamp } from './calendar.js';
import {
  METHOD_DISABLED,
  type Agreement,
  type Autopayment,
  type BillingEvent,
  type Invoice,
  type LedgerEntry,
  type NewAgreement,
  type NewLedgerEntry,
  type NewPayment,
  type NewPaymentMethod,
  type NewSubscription,
  type NewUser,
  type NewVersion,
  type Payment,
  type PaymentMethod,
  type Subscription,
  type SubscriptionVersion,
  type Tariff,
  type User,
} from './records.js';

const FIRST_IDS = {
  user: 1,
  agreement: 1001,
  invoice: 501,
  subscription: 1,
  payment: 1,
  method: 1,
  autopayment: 1,
  entry: 1,
};

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
    for (const map of [
      this.users,
      this.agreements,
      this.invoices,
      this.tariffs,
      this.subscriptions,
      this.payments,
      this.paymentMethods,
      this.autopayments,
      this.methodDisabledAt,
    ])
      map.clear();
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

  /** The agreements of a client, oldest (lowest id) first. */
  agreementsOf(userId: number): Agreement[] {
    return [...this.agreements.values()]
      .filter((a) => a.user_id === userId)
      .sort((a, b) => a.agreement_id - b.agreement_id);
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
    const version: SubscriptionVersion = {
      version: subscription.versions.length + 1,
      ...terms,
      created_at: timestamp(this.now()),
    };
    subscription.versions.push(version);
    return version;
  }

  addPayment(input: NewPayment): Payment {
    const payment: Payment = {
      payment_id: this.#next.payment++,
      ...input,
      status: 'pending',
      credited: false,
      created_at: timestamp(this.now()),
    };
    this.payments.set(payment.payment_id, payment);
    return payment;
  }

  addPaymentMethod(input: NewPaymentMethod): PaymentMethod {
    const method: PaymentMethod = { payment_method_id: this.#next.method++, ...input };
    this.paymentMethods.set(method.payment_method_id, method);
    return method;
  }

  /** Disables a method and its autopayment (idempotent). */
  disableMethod(method: PaymentMethod): PaymentMethod {
    if (!this.methodDisabledAt.has(method.payment_method_id))
      this.methodDisabledAt.set(method.payment_method_id, timestamp(this.now()));
    method.status = METHOD_DISABLED;
    method.enable_auto_payments = false;
    return method;
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
