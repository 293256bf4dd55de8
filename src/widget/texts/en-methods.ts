/**
 * `<billing-payment-methods>`'s English texts (`METHODS_EN`), in that element's bundle alone; their keys are those of
 * every language.
 */
import { FRAMED_EN } from './en-checkout.js';

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
