/**
 * The relay's error codes: one closed set that the relay answers (`RelayError` takes only these) and the widget gives
 * a text to (its texts are typed `Record<ErrorCode, …>`, so a new code without a text in every built-in language does
 * not compile; test/eps/relay-api.test.ts checks it from the relay's source too). The README's error table lists the
 * same codes; `test/widget/error-texts.test.ts` walks it.
 */
export const ERROR_CODES = [
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'validation_failed',
  'agreement_not_found',
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_in_flight',
  'idempotency_outcome_unknown',
  'rate_limited',
  'origin_not_allowed',
  'not_found',
  'billing_rejected',
  'billing_error',
  'billing_unavailable',
  'billing_timeout',
  'not_ready',
  'store_unavailable',
  'session_invalid',
  'sessions_disabled',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The codes of a failure on the billing's side (the billing refused, failed, is down or late). */
export type BillingErrorCode = Extract<ErrorCode, `billing_${string}`>;

export function isBillingCode(code: string): code is BillingErrorCode {
  return code.startsWith('billing_');
}
