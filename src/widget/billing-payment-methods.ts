/**
 * The `<billing-payment-methods>` element: registers the tag (unless the page already has one) and re-exports the
 * class and its types. Import this file (or load `dist/billing-pay-account.js`, which holds both elements) to use it.
 */
import { BillingPaymentMethods, type BillingPaymentMethodsErrorDetail } from './billing-payment-methods.component.js';
import type { SavedPaymentMethod } from './session-client.js';

export {
  BillingPaymentMethods,
  type BillingPaymentMethodsErrorDetail,
  type PaymentMethodsState,
} from './billing-payment-methods.component.js';
export type { SavedPaymentMethod } from './session-client.js';

// Guarded so that importing in Node (server-side rendering) does not throw.
if (typeof customElements !== 'undefined' && !customElements.get('billing-payment-methods')) {
  customElements.define('billing-payment-methods', BillingPaymentMethods);
}

declare global {
  interface HTMLElementTagNameMap {
    'billing-payment-methods': BillingPaymentMethods;
  }
  interface GlobalEventHandlersEventMap {
    'billing-payment-methods-change': CustomEvent<SavedPaymentMethod[]>;
    'billing-payment-methods-error': CustomEvent<BillingPaymentMethodsErrorDetail>;
  }
}
