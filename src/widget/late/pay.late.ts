/**
 * The submit chain, loaded after the first screen (late/load.ts): the form's check, `POST {relay}/payments` and the
 * check of the payment page it answers, the duplicate question and the autopayment disclosure (checkout.ts), with
 * their English texts.
 */
import { addEnglish } from '../texts/catalog.js';
import { EN_CHECKOUT } from '../texts/en-checkout.js';

addEnglish(EN_CHECKOUT);

export { Checkout } from '../checkout.js';
