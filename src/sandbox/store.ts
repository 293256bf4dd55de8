/**
 * The sandbox's in-memory billing data: clients, agreements, invoices, tariffs, subscriptions (with their versions),
 * EPS payments and saved payment methods. Money is held as integer minor units (bigint) and only turned into text
 * ("1500.50") at the edge. The store knows no HTTP; the app validates requests and calls it.
 */
import type { LookupKind } from '../eps/lookup.js';
import { SYSTEMS, type SystemId } from '../eps/systems.js';

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
  months: number;
}

export interface TariffService {
  tariff_service_id: number;
  name: string;
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

export interface Subscription {
  subscription_id: number;
  agreement_id: number;
  /** Oldest first; the last one is the current terms. */
  versions: SubscriptionVersion[];
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
  /** The request saves the method and connects autopayments. */
  saves_method: boolean;
  /** A test payment that only links the method and is then cancelled (A: `cancel_payment`). */
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

export type NewUser = Omit<User, 'user_id'>;
export type NewAgreement = Omit<Agreement, 'agreement_id' | 'balance'>;
export type NewSubscription = Omit<Subscription, 'subscription_id' | 'versions'> & Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewVersion = Omit<SubscriptionVersion, 'version' | 'created_at'>;
export type NewPayment = Pick<Payment, 'system' | 'eps_uuid' | 'agreement_id' | 'amount' | 'agreement_param_id' | 'agreement_param_value' | 'params'>;

/** The outcome of a decision on the hosted page; `first` is false when the payment had already been decided. */
export interface DecisionResult {
  payment: Payment;
  first: boolean;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's date-time format. */
export function timestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export class SandboxStore {
  readonly users = new Map<number, User>();
  readonly agreements = new Map<number, Agreement>();
  readonly invoices = new Map<number, Invoice>();
  readonly tariffs = new Map<number, Tariff>();
  readonly subscriptions = new Map<number, Subscription>();
  readonly payments = new Map<number, Payment>();
  readonly paymentMethods = new Map<number, PaymentMethod>();

  #next = { user: 1, agreement: 1001, invoice: 501, subscription: 1, payment: 1, method: 1 };

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
    const subscription: Subscription = {
      subscription_id: this.#next.subscription++,
      agreement_id,
      versions: [{ version: 1, ...terms, created_at: timestamp() }],
    };
    this.subscriptions.set(subscription.subscription_id, subscription);
    return subscription;
  }

  /** Adds a version to a subscription; the earlier versions stay as they were. */
  addVersion(subscription: Subscription, terms: NewVersion): SubscriptionVersion {
    const version: SubscriptionVersion = { version: subscription.versions.length + 1, ...terms, created_at: timestamp() };
    subscription.versions.push(version);
    return version;
  }

  addPayment(input: NewPayment): Payment {
    const spec = SYSTEMS[input.system];
    const saves_method = spec.autopay !== undefined && Object.keys(spec.autopay).every((name) => input.params[name] === true);
    const link_only = saves_method && Object.keys(spec.linkOnly ?? {}).some((name) => input.params[name] === true);
    const payment: Payment = {
      payment_id: this.#next.payment++,
      ...input,
      status: 'pending',
      saves_method,
      link_only,
      credited: false,
      created_at: timestamp(),
    };
    this.payments.set(payment.payment_id, payment);
    return payment;
  }

  /**
   * Records the client's decision on the hosted page, once. Paying raises the agreement's balance (not for a
   * link-only test payment, which is cancelled) and, when the request asked for it, saves the method with
   * autopayments connected. A payment already decided is returned unchanged.
   */
  decidePayment(payment: Payment, decision: PaymentDecision): DecisionResult {
    if (payment.status !== 'pending') return { payment, first: false };
    payment.decided_at = timestamp();
    if (decision === 'decline') {
      payment.status = 'declined';
      return { payment, first: true };
    }
    payment.status = 'succeeded';
    const agreement = this.agreements.get(payment.agreement_id);
    if (!agreement) throw new Error(`payment ${payment.payment_id} names a missing agreement`);
    if (!payment.link_only) {
      agreement.balance += payment.amount;
      payment.credited = true;
    }
    if (payment.saves_method) {
      const method: PaymentMethod = {
        payment_method_id: this.#next.method++,
        agreement_id: agreement.agreement_id,
        enable_auto_payments: true,
        status: METHOD_ACTIVE,
        method: 'bank_card',
        title: 'Visa •••• 4242',
        system: payment.system,
        created_at: payment.decided_at,
      };
      this.paymentMethods.set(method.payment_method_id, method);
      payment.payment_method_id = method.payment_method_id;
    }
    return { payment, first: true };
  }

  /** Disables a method and its autopayment (idempotent). */
  disableMethod(method: PaymentMethod): PaymentMethod {
    method.status = METHOD_DISABLED;
    method.enable_auto_payments = false;
    return method;
  }
}

/** A store holding the demo data, so the demo and the tests work at once. */
export function createSeededStore(): SandboxStore {
  const store = new SandboxStore();
  const demo = store.addUser({
    type: 1,
    organization: 'Demo LLC',
    email: 'client@example.com',
    login: 'demo',
    full_name: 'Ivan Petrov',
    taxpayer_number: '7707083893',
  });
  const other = store.addUser({
    type: 1,
    organization: 'Second Client LLC',
    email: 'other@example.com',
    login: 'other',
    full_name: 'Anna Smirnova',
    taxpayer_number: '7728168971',
  });
  const main = store.addAgreement({
    user_id: demo.user_id,
    is_offer: false,
    agreement_number: 'AG-1001',
    create_date: '2024-01-15',
    accounting_code: '1C-0001',
    account_number: '40817810099910004312',
  });
  store.addAgreement({
    user_id: other.user_id,
    is_offer: false,
    agreement_number: 'AG-1002',
    create_date: '2024-02-01',
    accounting_code: '1C-0002',
    account_number: '40817810099910004313',
  });
  // A second agreement of the demo client (an offer agreement, no number): client-level lookups still pick 1001.
  store.addAgreement({ user_id: demo.user_id, is_offer: true, create_date: '2024-03-01' });
  store.addInvoice(main.agreement_id, 114000n);
  store.addTariff({
    tariff_id: 1,
    name: 'Business Internet',
    periods: [{ period_id: 1, name: '1 month', months: 1 }],
    services: [
      { tariff_service_id: 11, name: 'Internet 100 Mbit/s', price: 99000n },
      { tariff_service_id: 12, name: 'Static IP address', price: 15000n },
    ],
  });
  return store;
}
