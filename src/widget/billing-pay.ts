/**
 * The `<billing-pay>` element: registers the tag (unless the page already has one) and re-exports the class and
 * its types. Import this file (or load `dist/billing-pay.js`) to use the element.
 */
import { BillingPay } from './billing-pay.component.js';
import type {
  BillingPayErrorDetail,
  BillingPayReadyDetail,
  BillingPayRedirectDetail,
  BillingPaySubmitDetail,
} from './emit.js';

export { BillingPay, type SubmitState } from './billing-pay.component.js';
export type * from './emit.js';
export { PayError, type PayErrorType } from './relay-client.js';

// Guarded so that importing in Node (server-side rendering) does not throw.
if (typeof customElements !== 'undefined' && !customElements.get('billing-pay')) {
  customElements.define('billing-pay', BillingPay);
}

declare global {
  interface HTMLElementTagNameMap {
    'billing-pay': BillingPay;
  }
  interface GlobalEventHandlersEventMap {
    'billing-pay-ready': CustomEvent<BillingPayReadyDetail>;
    'billing-pay-submit': CustomEvent<BillingPaySubmitDetail>;
    'billing-pay-redirect': CustomEvent<BillingPayRedirectDetail>;
    'billing-pay-error': CustomEvent<BillingPayErrorDetail>;
  }
}
