/**
 * The entry of `dist/billing-pay-account.js` (see vite.config.ts), for a "My account" page: both elements,
 * `<billing-pay>` and `<billing-payment-methods>`, in one file that shares Lit, the styles, the texts and the relay
 * client. A payment page loads the lighter `dist/billing-pay.js`.
 */
export * from './billing-pay.js';
export * from './billing-payment-methods.js';
