/**
 * The relay's error codes: one closed set that the relay answers (`RelayError` takes only these) and the widget gives
 * a text to (its texts are typed `Record<ErrorCode, …>`, so a new code without a text in every built-in language does
 * not compile). Each code with the HTTP statuses it is answered with, the relay's message and when, for API users:
 * `RelayError` takes its status and message from here (a status the table does not give the code does not compile),
 * and docs/relay.md's table of error codes is made from `ERRORS` (npm run build). The widget imports only
 * `isBillingCode` and the type, so none of the texts reach its bundle.
 */

/** An error code's HTTP statuses (the first unless the relay says which), its message, and when it is answered. */
export interface ErrorDoc {
  status: readonly number[];
  /** The relay's message for people, unless the answer says more (a limit, a status, an origin). */
  message: string;
  /** Markdown, for the docs. */
  when: string;
}

export const ERRORS = {
  invalid_json: {
    status: [400],
    message: 'The request body is not valid JSON.',
    when: 'the body is not JSON (RFC 8259: numbers such as `0015`, `00.50`, `+1`, `.5`, `1.` included)',
  },
  invalid_idempotency_key: {
    status: [400],
    message: 'Idempotency-Key must be 1–255 visible ASCII characters.',
    when: '`Idempotency-Key` is not 1–255 visible ASCII characters',
  },
  session_invalid: {
    status: [401],
    message: 'The client session is not valid.',
    when: '`/session`, `/payment-methods`: no client session, or a bad, expired, too old (`SESSION_MAX_AGE_SECONDS`) or future-dated one',
  },
  origin_not_allowed: {
    status: [403],
    message: 'Payments may only be started from the merchant’s own pages.',
    when: '`POST /payments` or `DELETE /payment-methods/{id}` without an `Origin` in `ALLOWED_ORIGINS`; `GET /config` with an `Origin` not in it (answered with CORS for that origin, so the widget can read why)',
  },
  not_found: {
    status: [404],
    message: 'There is nothing at this address.',
    when: 'no such route; a payment method that is not the session’s; a widget bundle that is not built',
  },
  sessions_disabled: {
    status: [404],
    message: 'Client sessions are not configured on this relay (SESSION_SECRET).',
    when: '`/session`, `/payment-methods` without `SESSION_SECRET`',
  },
  idempotency_in_flight: {
    status: [409],
    message: 'A request with this Idempotency-Key is still being processed.',
    when: 'a request with the same key is still running, or its instance died and its lease (the longest a payment can take) has not run out yet (`Retry-After: 1`)',
  },
  idempotency_outcome_unknown: {
    status: [409],
    message:
      'An earlier request with this Idempotency-Key may have reached the billing, but its outcome was not recorded; it is not sent again. Check the payment before paying with a new key.',
    when: 'a request with the same key may have reached the billing, but the instance that sent it died (or could not store the answer) before its outcome was recorded: the key is never sent again, until it expires; check the payment, and pay again with a new key',
  },
  duplicate_payment: {
    status: [409],
    message: 'The same payment was sent a moment ago. To pay again, send it with "confirm_duplicate": true.',
    when: 'the same payment (system, amount, agreement lookup kind and value) was created, or may have been, within `DUPLICATE_WINDOW_SECONDS`, and the body has no `"confirm_duplicate": true`; `earlier_at` is when the earlier one was sent (ISO 8601); nothing is sent to the billing',
  },
  payload_too_large: {
    status: [413],
    message: 'The request body is too large.',
    when: 'a body above 16 KB',
  },
  unsupported_media_type: {
    status: [415],
    message: 'Send the payment as JSON (Content-Type: application/json).',
    when: 'a body that is not `application/json`',
  },
  validation_failed: {
    status: [422],
    message: 'The payment request is not valid.',
    when: 'a field fails the shared model (a control or invisible character in a text, a parameter the system does not take, a return URL that is not clean or not on an allowed origin included); `fields` names each (path → `{problem, message}`)',
  },
  idempotency_key_reused: {
    status: [422],
    message: 'This Idempotency-Key was used for a different payment request.',
    when: 'the key was used for a different request',
  },
  agreement_not_found: {
    status: [422],
    message: 'The billing found no agreement by agreement_param_value.',
    when: 'the billing found no agreement by `agreement_param_value` (`fields.agreement_param_value`); nothing was paid, so the `Idempotency-Key` stays free',
  },
  billing_rejected: {
    status: [422],
    message: 'The billing service refused this payment.',
    when: 'the billing refused the payment (any other 4xx); the relay’s own message — the billing’s text is logged (`billingMessage`), never passed on',
  },
  rate_limited: {
    status: [429],
    message: 'Too many payment attempts; try again in a moment.',
    when: 'too many attempts from one address (IPv6: one `RATE_LIMIT_IPV6_PREFIX`) or for one lookup value, too many lookups that found nothing from one address (`RATE_LIMIT_NOT_FOUND`), or calls of `/session` and `/payment-methods` per session or address (`Retry-After`)',
  },
  internal_error: {
    status: [500],
    message: 'Something went wrong in the relay; it has been logged.',
    when: 'a bug; logged with the request id, nothing internal in the answer',
  },
  billing_error: {
    status: [502],
    message: 'The billing service gave an answer the relay does not understand.',
    when: 'the billing answered 5xx or 403, refused the relay’s credentials, or answered more than `BILLING_MAX_RESPONSE_BYTES`, something that is not its JSON, or a payment page the relay does not send payers to (a replayed answer is checked again)',
  },
  billing_unavailable: {
    status: [502, 503],
    message: 'The billing service cannot be reached.',
    when: 'the billing cannot be reached (502), or answered 429: busy (503; `Retry-After`, the billing’s or 5 s)',
  },
  store_unavailable: {
    status: [503],
    message: 'Payments are paused for a moment; try again shortly.',
    when: 'a payment with an `Idempotency-Key` while its store fails (Redis cannot be reached, does not answer within 500 ms, refuses writes or may evict keys — its `maxmemory-policy` is not `noeviction` —, the SQLite file cannot be written), or any payment while the store of recent payments fails (`DUPLICATE_WINDOW_SECONDS` above 0) (`Retry-After`); nothing is sent to the billing',
  },
  not_ready: {
    status: [503],
    message:
      'The relay’s key store cannot record a payment now (it does not answer, refuses writes, or may evict keys).',
    when: '`GET /readyz` when Redis does not answer within 500 ms, refuses writes or may evict keys, or the billing does not answer or refuses the relay',
  },
  billing_timeout: {
    status: [504],
    message: 'The billing service did not answer in time.',
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
