/**
 * The events of both elements, declared once: each name with its detail type. The registration files add them to
 * `GlobalEventHandlersEventMap` (`EventMapOf`), react.ts makes the `on…` props from the names (`PAY_EVENTS`,
 * `PAYMENT_METHODS_EVENTS`), and every event is sent through `emit`.
 */
import type { PaymentRequest } from '../eps/request.js';
import type { SystemId } from '../eps/systems.js';
import type { SavedPaymentMethod } from './session-client.js';

export interface BillingPayReadyDetail {
  /** The systems the form offers, in order. */
  systems: SystemId[];
  /** The lookup kinds (`agreement_param_id`) the client may use. */
  lookups: number[];
  /** The largest amount the relay accepts, canonical text. */
  maxAmount: string;
}

/** The request about to be sent to the relay (it holds nothing secret). */
export type BillingPaySubmitDetail = PaymentRequest;

export interface BillingPayRedirectDetail {
  /** The payment system's page the client is about to be sent to. */
  url: string;
}

export interface BillingPayErrorDetail {
  /** The relay's error code (`validation_failed`, `billing_rejected`, …) or the widget's own (`network_error`, …). */
  code: string;
  /** What the person was told, in the widget's language. */
  message: string;
  /** Field path (`amount`, `eps_params.email`, …) → what is wrong with it, in the widget's language. */
  fields?: Record<string, string>;
}

export interface BillingPayReturnDetail {
  /** The payment system the payer was sent to. */
  system: SystemId;
  /** The amount, canonical text (`"1500.50"`). */
  amount: string;
  /** The lookup kind (`agreement_param_id`) the agreement was found by. */
  lookup: number;
  /** The lookup value (`agreement_param_value`): the agreement number, login, e-mail… */
  agreement: string;
  /** The billing's payment id. */
  paymentId: string;
  /**
   * `sent`: the payment went to the system, and the balance changes once the system confirms it (the widget cannot
   * know more); `not_completed`: the payer came back by the system's failure address (B's), so nothing was charged.
   */
  outcome: 'sent' | 'not_completed';
  /** When the payer left for the payment page (ISO 8601). */
  time: string;
}

export interface BillingPaymentMethodsErrorDetail {
  /** The relay's error code (`session_invalid`, `not_found`, …) or the widget's own (`network_error`, `timeout`, …). */
  code: string;
  /** What the person was told, in the element's language. */
  message: string;
}

/** A detail type as a value: the maps below are read for their names (react.ts) and types, never for values. */
const detail = <T>() => undefined as T;

/** The events of `<billing-pay>`. */
export const PAY_EVENTS = {
  'billing-pay-ready': detail<BillingPayReadyDetail>(),
  'billing-pay-submit': detail<BillingPaySubmitDetail>(),
  'billing-pay-redirect': detail<BillingPayRedirectDetail>(),
  'billing-pay-error': detail<BillingPayErrorDetail>(),
  'billing-pay-return': detail<BillingPayReturnDetail>(),
};

/** The events of `<billing-payment-methods>`. */
export const PAYMENT_METHODS_EVENTS = {
  'billing-payment-methods-change': detail<SavedPaymentMethod[]>(),
  'billing-payment-methods-error': detail<BillingPaymentMethodsErrorDetail>(),
};

export type BillingPayEvents = typeof PAY_EVENTS;
export type BillingPaymentMethodsEvents = typeof PAYMENT_METHODS_EVENTS;
type AllEvents = BillingPayEvents & BillingPaymentMethodsEvents;

/** Event name → `CustomEvent` with its detail: what a registration file adds to `GlobalEventHandlersEventMap`. */
export type EventMapOf<E> = { [K in keyof E]: CustomEvent<E[K]> };

/**
 * Dispatches a bubbling, composed event from `target`; returns `false` when a listener cancelled it (only
 * meaningful with `cancelable`).
 */
export function emit<K extends keyof AllEvents>(
  target: EventTarget,
  name: K,
  detail: AllEvents[K],
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(
    new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }),
  );
}
