/**
 * The payment path, loaded after the first screen (late/load.ts): the form's check, `POST {relay}/payments` and the
 * check of the payment page it answers, and the duplicate question (checkout.ts), with their English texts.
 */
import { completeEnglish } from '../texts/catalog.js';
import { EN } from '../texts/en-later.js';

completeEnglish(EN);

export { Checkout } from '../checkout.js';
export { isSafeRedirect, postPayment, type SentPayment } from '../payment-sender.js';
