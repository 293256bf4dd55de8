/**
 * `<billing-pay>`'s English texts of the first screen (`EN_FIRST`); the submit chain brings the rest (texts/en-checkout.ts,
 * where `EN` is the whole), the return its result screen's (texts/en-return.ts), and `<billing-payment-methods>` its own
 * (texts/en-methods.ts). Their keys are those of
 * every language.
 */
import type { FirstTexts } from './types.js';

/** The labels of the first screen (the submit chain's are in texts/en-checkout.ts). */
export const FIRST_LABELS_EN = {
  form: 'Payment',
  system: 'Payment system',
  system_name: 'System {id}',
  amount: 'Amount',
  amount_currency: 'Amount, {currency}',
  lookup_kind: 'Find the agreement by',
  contact: 'E-mail or phone for the receipt',
  name: 'Name',
  comment: 'Comment',
  add_comment: 'Add a comment',
  optional: 'optional',
  save: 'Save payment method',
  autopay: 'Connect autopayments',
  link_only: 'Only link the card (no charge)',
  link_only_hint: 'A test payment is made and then cancelled.',
  pay: 'Pay',
  link: 'Link card',
  sending: 'Sending the payment…',
  redirecting: 'Opening the payment page…',
  loading: 'Loading payment options…',
  card_note: 'You pay on the payment system’s own page; card details are never entered here.',
  error_config: 'Payment options could not be loaded.',
  error_origin: 'Payments cannot be taken on this page yet. Please tell the shop.',
  retry: 'Try again',
  no_systems: 'No payment system is available.',
};

/**
 * What the first screen says, and a late module that could not be had: the rest (texts/en-checkout.ts) comes with the
 * submit chain (`addEnglish`, texts/catalog.ts).
 */
export const EN_FIRST = {
  labels: FIRST_LABELS_EN,
  kinds: {
    login: 'Login',
    full_name: 'Full name',
    agreement_number: 'Agreement number',
    accounting_code: 'Agreement code',
    email: 'E-mail',
    account_number: 'Account number',
    client_id: 'Client ID',
    agreement_id: 'Agreement ID',
    invoice_id: 'Invoice number',
    taxpayer_number: 'Taxpayer number (INN)',
  },
  errors: {
    internal_error: 'A fault on this site stopped the payment. Try again later or contact the shop.',
    load_failed: 'Part of the payment form could not be loaded, so nothing was sent. Reload the page and try again.',
  },
  systems: {},
} satisfies FirstTexts;
