/**
 * The widget's English texts: `<billing-pay>`'s (`EN`: every label, status and error, every lookup kind and every
 * problem key a form the widget sends can have, `FORM_PROBLEM_TEXTS_EN` — any other gets "correct the highlighted
 * fields") and `<billing-payment-methods>`'s (`METHODS_EN`). Their keys are those of every language.
 */
import type { Texts } from './types.js';

export const FRAMED_EN = 'Inside another site this form does not work. Open the shop’s page directly.';

/** The labels of the first screen (the submit chain's are in texts/en-later.ts). */
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
  // The autopayment disclosure: {days} is N of /config ("1 day"); {link} is where `methods-url`'s link goes.
  autopay_hint:
    'Autopayments will charge the agreement’s recommended payment: {days} before each new period, when a subscription is blocked for non-payment, and every hour at :30 while the balance is negative or a subscription awaits activation.',
  autopay_off: 'You can switch them off at any time on {link}.',
  autopay_methods: 'your payment methods page',
  autopay_ask: 'To switch them off, contact the shop.',
  autopay_terms: 'Autopayment terms',
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
  result_sent_title: 'Payment sent to {system}',
  result_sent:
    'If you completed it on the payment page, the balance changes once {system} confirms it. This page cannot see the outcome: your receipt and balance will show it.',
  result_failed_title: 'Payment not completed',
  result_failed: 'Nothing was charged. You can try again with the same details.',
  result_id: 'Payment ID',
  result_time: 'Started',
  another: 'Make another payment',
};

/**
 * What the first screen says, and a late module that could not be had: the rest (texts/en-later.ts) comes with the
 * submit chain (`completeEnglish`, texts/catalog.ts).
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
} satisfies Omit<Texts, 'labels' | 'errors' | 'problems' | 'missing'> & {
  labels: Partial<Texts['labels']>;
  errors: Partial<Texts['errors']>;
};

export const METHODS_EN = {
  list: 'Saved payment methods',
  loading: 'Loading saved payment methods…',
  empty: 'No saved payment methods.',
  method: 'Payment method {id}',
  bank_card: 'Bank card',
  autopay_on: 'Autopayment on',
  autopay_off: 'Autopayment off',
  disable: 'Disable autopayment',
  disable_for: 'Disable autopayment for {title}',
  question:
    'Disable autopayment with {title}? The method is no longer saved; to pay automatically again, save it with your next payment.',
  confirm: 'Disable',
  keep: 'Keep',
  keep_for: 'Keep autopayment for {title}',
  disabling: 'Disabling autopayment…',
  disabled: 'Autopayment with {title} is disabled.',
  retry: 'Try again',
  error_session: 'Your session has expired; reload the page.',
  error_load: 'Saved payment methods could not be loaded.',
  error_disable: 'The autopayment could not be disabled. Try again later.',
  error_gone: 'This payment method is no longer saved.',
  error_network: 'The payment service could not be reached. Check the connection and try again.',
  error_timeout: 'The payment service did not answer in time. Try again.',
  error_framed: FRAMED_EN,
};
