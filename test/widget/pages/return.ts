/**
 * The script of return.html, a merchant's page the payer comes back to: its language and relay come from its address
 * (`?lang=ru&relay=…`, which the return address carries), and it keeps every `billing-pay-return` in `window.returns`
 * for the test. It runs after the widget's module, as a page's own later script does.
 */
import type { BillingPayReturnDetail } from '../../../src/widget/events.js';

declare global {
  interface Window {
    returns: BillingPayReturnDetail[];
  }
}

const query = new URLSearchParams(location.search);
document.documentElement.lang = query.get('lang') ?? 'en';
window.returns = [];
document.addEventListener('billing-pay-return', (e) => window.returns.push(e.detail));
document.querySelector('billing-pay')!.relay = query.get('relay') ?? '';
