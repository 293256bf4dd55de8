/**
 * The relay's error codes: one closed set that the relay answers and the widget gives a text to (its texts are typed
 * `Record<ErrorCode, …>`, so a new code without a text in every built-in language does not compile). The README's
 * error table lists the same codes; `test/widget/error-texts.test.ts` walks it.
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

/** One field's problem on the wire: the problem key (the widget's texts are keyed by it) and its English text. */
export interface FieldProblem {
  problem: string;
  message: string;
}
