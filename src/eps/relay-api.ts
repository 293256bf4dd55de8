/**
 * The relay's HTTP answers, written once for both sides: the relay builds each answer `satisfies` its type, and the
 * widget reads the relay's JSON into the same types. Types only: the widget imports them with `import type`, so the
 * browser pays no byte for the contract (the idea of Hono's RPC types, without hono in the widget).
 */
import type { ErrorCode } from './errors.js';
import type { ProblemKey } from './messages.js';
import type { SystemId } from './systems.js';

/** One payment system a form may offer. */
export interface OfferedSystem {
  id: SystemId;
  /** The system can save the payment method (and so connect autopayments): `canSaveMethod`. */
  canSave: boolean;
  /** The system can only link a card (a test payment, then cancelled). */
  linkOnly: boolean;
}

/** `GET /config`: the payment options this relay offers a form (not the relay's own configuration). */
export interface PaymentOptions {
  systems: OfferedSystem[];
  /** The agreement lookup kinds on offer (`LookupKind`). */
  lookups: number[];
  /** The largest amount, as canonical amount text (`"100000.00"`). */
  maxAmount: string;
  /** N: autopayments are charged N days before each new period (`AUTOPAYMENT_LEAD_DAYS`; `isAutopayLeadDays`). */
  autopayLeadDays: number;
}

/**
 * `POST /payments` 201: the payment was created. `redirect_url` is the page to send the client to (`isPaymentPage`,
 * in its WHATWG serialisation); it is absent when the billing named no page (a payment confirmed without one, such as
 * A's `confirmation_type` `embedded`): a caller that needs a page (the widget always does) treats that as a wrong
 * answer, not as a failure to retry — the payment exists.
 */
export interface PaymentAnswer {
  redirect_url?: string;
  /** The billing's `payment_id` and the fields listed in `PAYMENT_ANSWER_FIELDS`, scalars only. */
  payment: Record<string, string | number | boolean>;
}

/** One field's problem: its key (the widget's texts are keyed by it) and its English text for API users. */
export interface FieldProblem {
  problem: ProblemKey;
  message: string;
}

/**
 * Every error answer: a code of the closed set, an English message, for a refused request each field's problem, and
 * for `duplicate_payment` when the same payment was made before (ISO 8601).
 */
export interface ErrorAnswer {
  error: { code: ErrorCode; message: string; fields?: Record<string, FieldProblem>; earlier_at?: string };
}
