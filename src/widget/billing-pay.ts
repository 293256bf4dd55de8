/**
 * The `<billing-pay>` element: registers the tag (unless the page already has one) and re-exports the class and
 * its types. Import this file (or load `dist/billing-pay.js`) to use the element.
 */
import { BillingPay } from './billing-pay.component.js';
import { canDefine } from './define.js';
import type { BillingPayEvents, EventMapOf } from './events.js';

export { BillingPay, type SubmitState } from './billing-pay.component.js';
export type {
  BillingPayErrorDetail,
  BillingPayEvents,
  BillingPayReadyDetail,
  BillingPayRedirectDetail,
  BillingPayReturnDetail,
  BillingPaySubmitDetail,
} from './events.js';
export { PayError, type PayErrorType } from './pay-error.js';

if (canDefine('billing-pay')) customElements.define('billing-pay', BillingPay);

declare global {
  interface HTMLElementTagNameMap {
    'billing-pay': BillingPay;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the events are declared once, in events.ts
  interface GlobalEventHandlersEventMap extends EventMapOf<BillingPayEvents> {}
}
