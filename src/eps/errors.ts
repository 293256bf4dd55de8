/**
 * The relay's error codes: one closed set that the relay answers (`RelayError` takes only these) and the widget gives
 * a text to (its texts are typed `Record<ErrorCode, …>`, so a new code without a text in every built-in language does
 * not compile; test/eps/relay-api.test.ts checks it from the relay's source too). Each code with the HTTP statuses it
 * is answered with and when, for API users: docs/relay.md's table of error codes is made from `ERRORS` (npm run
 * build), and test/eps/relay-api.test.ts checks the statuses against the relay's source. The widget imports only
 * `isBillingCode` and the type, so none of the texts reach its bundle.
 */

/** An error code's HTTP statuses and when it is answered (Markdown). */
export interface ErrorDoc {
  status: readonly number[];
  when: string;
}

export const ERRORS = {
  invalid_json: {
    status: [400],
    when: 'the body is not JSON (RFC 8259: numbers such as `0015`, `00.50`, `+1`, `.5`, `1.` included)',
  },
  invalid_idempotency_key: {
    status: [400],
    when: '`Idempotency-Key` is not 1–255 visible ASCII characters',
  },
  session_invalid: {
    status: [401],
    when: '`/session`, `/payment-methods`: no client session, or a bad, expired, too old (`SESSION_MAX_AGE_SECONDS`) or future-dated one',
  },
  origin_not_allowed: {
    status: [403],
    when: '`POST /payments` or `DELETE /payment-methods/{id}` without an `Origin` in `ALLOWED_ORIGINS`; `GET /config` with an `Origin` not in it (answered with CORS for that origin, so the widget can read why)',
  },
  not_found: {
    status: [404],
    when: 'no such route; a payment method that is not the session’s; a widget bundle that is not built',
  },
  sessions_disabled: {
    status: [404],
    when: '`/session`, `/payment-methods` without `SESSION_SECRET`',
  },
  idempotency_in_flight: {
    status: [409],
    when: 'a request with the same key is still running, or its instance died and its lease (the longest a payment can take) has not run out yet (`Retry-After: 1`)',
  },
  idempotency_outcome_unknown: {
    status: [409],
    when: 'a request with the same key may have reached the billing, but the instance that sent it died (or could not store the answer) before its outcome was recorded: the key is never sent again, until it expires; check the payment, and pay again with a new key',
  },
  duplicate_payment: {
    status: [409],
    when: 'the same payment (system, amount, agreement lookup kind and value) was created, or may have been, within `DUPLICATE_WINDOW_SECONDS`, and the body has no `"confirm_duplicate": true`; `earlier_at` is when the earlier one was sent (ISO 8601); nothing is sent to the billing',
  },
  payload_too_large: {
    status: [413],
    when: 'a body above 16 KB',
  },
  unsupported_media_type: {
    status: [415],
    when: 'a body that is not `application/json`',
  },
  validation_failed: {
    status: [422],
    when: 'a field fails the shared model (a control or invisible character in a text, a parameter the system does not take, a return URL that is not clean or not on an allowed origin included); `fields` names each (path → `{problem, message}`)',
  },
  idempotency_key_reused: {
    status: [422],
    when: 'the key was used for a different request',
  },
  agreement_not_found: {
    status: [422],
    when: 'the billing found no agreement by `agreement_param_value` (`fields.agreement_param_value`); nothing was paid, so the `Idempotency-Key` stays free',
  },
  billing_rejected: {
    status: [422],
    when: 'the billing refused the payment (any other 4xx); the relay’s own message — the billing’s text is logged (`billingMessage`), never passed on',
  },
  rate_limited: {
    status: [429],
    when: 'too many attempts from one address (IPv6: one `RATE_LIMIT_IPV6_PREFIX`) or for one lookup value, too many lookups that found nothing from one address (`RATE_LIMIT_NOT_FOUND`), or calls of `/session` and `/payment-methods` per session or address (`Retry-After`)',
  },
  internal_error: {
    status: [500],
    when: 'a bug; logged with the request id, nothing internal in the answer',
  },
  billing_error: {
    status: [502],
    when: 'the billing answered 5xx or 403, refused the relay’s credentials, or answered more than `BILLING_MAX_RESPONSE_BYTES`, something that is not its JSON, or a payment page the relay does not send payers to (a replayed answer is checked again)',
  },
  billing_unavailable: {
    status: [502, 503],
    when: 'the billing cannot be reached (502), or answered 429: busy (503; `Retry-After`, the billing’s or 5 s)',
  },
  store_unavailable: {
    status: [503],
    when: 'a payment with an `Idempotency-Key` while its store fails (Redis cannot be reached, does not answer within 500 ms, refuses writes or may evict keys — its `maxmemory-policy` is not `noeviction` —, the SQLite file cannot be written), or any payment while the store of recent payments fails (`DUPLICATE_WINDOW_SECONDS` above 0) (`Retry-After`); nothing is sent to the billing',
  },
  not_ready: {
    status: [503],
    when: '`GET /readyz` when Redis does not answer within 500 ms, refuses writes or may evict keys, or the billing does not answer or refuses the relay',
  },
  billing_timeout: {
    status: [504],
    when: 'the billing did not answer within `BILLING_TIMEOUT_MS`',
  },
} as const satisfies Record<string, ErrorDoc>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes of a failure on the billing's side (the billing refused, failed, is down or late). */
export type BillingErrorCode = Extract<ErrorCode, `billing_${string}`>;

export function isBillingCode(code: string): code is BillingErrorCode {
  return code.startsWith('billing_');
}
