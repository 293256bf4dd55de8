/**
 * The payment path, loaded after the first screen (late/load.ts): the form's check, `POST {relay}/payments` and the
 * check of the payment page it answers, and the duplicate question (checkout.ts).
 */
export { Checkout } from '../checkout.js';
export { isSafeRedirect, postPayment, type SentPayment } from '../payment-sender.js';
