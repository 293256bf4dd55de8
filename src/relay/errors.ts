/**
 * Every error the relay answers has one JSON shape: `{"error": {"code", "message", "fields"?}}`.
 */

/**
 * The statuses an error may have: 4xx and 5xx (the same numbers as Hono's `ClientErrorStatusCode` and
 * `ServerErrorStatusCode`). Spelled out rather than imported: this module reaches the published package's types (via
 * `billing-pay/relay/session`), where hono is not installed.
 */
export type ErrorStatus =
  | 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409 | 410 | 411 | 412 | 413 | 414 | 415 | 416 | 417 | 418 | 421
  | 422 | 423 | 424 | 425 | 426 | 428 | 429 | 431 | 451
  | 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 510 | 511;

export type ErrorCode =
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'validation_failed'
  | 'invalid_idempotency_key'
  | 'idempotency_key_reused'
  | 'idempotency_in_flight'
  | 'rate_limited'
  | 'origin_not_allowed'
  | 'not_found'
  | 'system_not_offered'
  | 'billing_rejected'
  | 'billing_error'
  | 'billing_unavailable'
  | 'billing_timeout'
  | 'not_ready'
  | 'store_unavailable'
  | 'session_invalid'
  | 'sessions_disabled'
  | 'internal_error';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string> };
}

/** An error with its answer: the status, a stable code for programs and a message for people. */
export class RelayError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    options?: { fields?: Record<string, string>; cause?: unknown; billingReached?: boolean; retryable?: boolean; retryAfterSeconds?: number },
  ) {
    super(message, { cause: options?.cause });
    this.name = 'RelayError';
    this.fields = options?.fields;
    this.billingReached = options?.billingReached ?? true;
    this.retryable = options?.retryable ?? false;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  readonly fields?: Record<string, string>;
  /** False when the billing certainly did not act on the request (never sent, or refused unread): trying again cannot pay twice. */
  readonly billingReached: boolean;
  /** True for a transient upstream failure (network, timeout, 5xx) where trying again later may succeed. */
  readonly retryable: boolean;
  /** Sent as `Retry-After` (by `app.onError`, for every error that has it): when trying again makes sense. */
  readonly retryAfterSeconds?: number;

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields && { fields: this.fields }) } };
  }
}
