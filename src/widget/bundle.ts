/**
 * The entry of `dist/billing-pay.js` (see vite.config.ts): both elements, `<billing-pay>` and
 * `<billing-payment-methods>`, in one file that shares Lit, the styles, the texts and the relay client.
 */
export * from './billing-pay.js';
export * from './billing-payment-methods.js';
