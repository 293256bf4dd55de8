/**
 * The English texts of `<billing-pay>`'s submit chain (checkout.ts), which come with its late module: the duplicate
 * question, the autopayment disclosure, the problem of each field, the failures of a payment, and "no agreement found"
 * for each lookup kind.
 */
import { FORM_PROBLEM_TEXTS_EN } from '../../eps/messages.js';
import { EN_FIRST } from './en.js';
import { RETURN_LABELS_EN } from './en-return.js';
import type { ErrorTexts, Texts } from './types.js';

export const CHECKOUT_LABELS_EN = {
  // The autopayment disclosure: {days} is N of /config ("1 day"); {link} is where `methods-url`'s link goes.
  autopay_hint:
    'Autopayments will charge the agreement’s recommended payment: {days} before each new period, when a subscription is blocked for non-payment, and every hour at :30 while the balance is negative or a subscription awaits activation.',
  autopay_off: 'You can switch them off at any time on {link}.',
  autopay_methods: 'your payment methods page',
  autopay_ask: 'To switch them off, contact the shop.',
  autopay_terms: 'Autopayment terms',
  return_url: 'Return address',
  // {time}: when the same payment was started ("12:03").
  duplicate_question: 'You started the same payment at {time}. Pay again?',
  pay_again: 'Pay again',
  cancel: 'Cancel',
  other_system: 'You can also choose another payment system.',
};

// Here, not in en.ts: the payment page's bundle does not keep it, and a late module would then copy all of en.ts.
export const FRAMED_EN = 'Inside another site this form does not work. Open the shop’s page directly.';
const FIX_EN = 'Please correct the highlighted fields.';
const BUSY_EN = 'The payment service is busy. Try again {wait}.';
const NO_ANSWER_EN = 'No answer came in time: the payment may have been made. Check before paying again.';

/** What the submit chain adds to the first screen's English as it loads (`addEnglish`). */
export const EN_CHECKOUT = {
  labels: CHECKOUT_LABELS_EN,
  problems: FORM_PROBLEM_TEXTS_EN,
  errors: {
    validation_failed: FIX_EN,
    agreement_not_found: FIX_EN,
    idempotency_in_flight: 'Your payment is still being processed. Try again {wait}.',
    idempotency_outcome_unknown:
      'Your earlier attempt could not be confirmed: it may have been paid. Check your balance before you pay again.',
    duplicate_payment: 'You made the same payment a moment ago. Check your balance before you pay again.',
    rate_limited: 'Too many attempts. Try again {wait}.',
    billing_rejected: 'The payment system did not accept this payment.',
    billing_unavailable: BUSY_EN,
    store_unavailable: BUSY_EN,
    // The billing may have acted: never invite a blind second payment.
    billing_timeout: NO_ANSWER_EN,
    timeout: NO_ANSWER_EN,
    network_error: 'The payment service could not be reached. Check the connection and try again.',
    unsafe_redirect: 'The payment page address is not safe, so it was not opened.',
    framed: FRAMED_EN,
  },
  missing: {
    login: 'No client with this login.',
    full_name: 'No client with this name.',
    agreement_number: 'No agreement with this number.',
    accounting_code: 'No agreement with this code.',
    email: 'No client with this e-mail.',
    account_number: 'No account with this number.',
    client_id: 'No client with this ID.',
    agreement_id: 'No agreement with this ID.',
    invoice_id: 'No invoice with this number.',
    taxpayer_number: 'No client with this taxpayer number.',
  },
} satisfies Pick<Texts, 'problems' | 'missing'> & {
  labels: typeof CHECKOUT_LABELS_EN;
  errors: Omit<ErrorTexts, 'load_failed' | 'internal_error'>;
};

/** The whole English of `<billing-pay>`: the first screen's, then the submit chain's and the result screen's. */
export const EN: Texts = /* @__PURE__ */ whole();

// A call marked pure, not a literal of spreads: a bundle that takes only the first screen's texts drops it all.
function whole(): Texts {
  return {
    ...EN_FIRST,
    labels: { ...EN_FIRST.labels, ...CHECKOUT_LABELS_EN, ...RETURN_LABELS_EN },
    errors: { ...EN_CHECKOUT.errors, ...EN_FIRST.errors },
    problems: EN_CHECKOUT.problems,
    missing: EN_CHECKOUT.missing,
  };
}
