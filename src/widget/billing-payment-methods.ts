/**
 * The `<billing-payment-methods>` element: registers the tag (unless the page already has one) and re-exports the
 * class and its types. Import this file (or load `dist/billing-pay-account.js`, which holds both elements) to use it.
 */
import { BillingPaymentMethods } from './billing-payment-methods.component.js';
import { canDefine } from './define.js';
import type { BillingPaymentMethodsEvents, EventMapOf } from './events.js';

export { BillingPaymentMethods, type PaymentMethodsState } from './billing-payment-methods.component.js';
export type { BillingPaymentMethodsErrorDetail, BillingPaymentMethodsEvents } from './events.js';
export type { SavedPaymentMethod } from './session-client.js';

if (canDefine('billing-payment-methods')) customElements.define('billing-payment-methods', BillingPaymentMethods);

declare global {
  interface HTMLElementTagNameMap {
    'billing-payment-methods': BillingPaymentMethods;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the events are declared once, in events.ts
  interface GlobalEventHandlersEventMap extends EventMapOf<BillingPaymentMethodsEvents> {}
}
