/** The events of `<billing-pay>`: each detail type is declared once here; all are sent through `emit`. */
import type { PaymentRequest } from '../eps/request.js';
import type { SystemId } from '../eps/systems.js';

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

export interface BillingPayEvents {
  'billing-pay-ready': BillingPayReadyDetail;
  'billing-pay-submit': BillingPaySubmitDetail;
  'billing-pay-redirect': BillingPayRedirectDetail;
  'billing-pay-error': BillingPayErrorDetail;
}

/**
 * Dispatches a bubbling, composed event from `target`; returns `false` when a listener cancelled it (only
 * meaningful with `cancelable`).
 */
export function emit<K extends keyof BillingPayEvents>(
  target: EventTarget,
  name: K,
  detail: BillingPayEvents[K],
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(
    new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }),
  );
}
