/**
 * The widget's failures: one error type (`PayError`) of a small closed set of types, the widget's own codes beside the
 * relay's. Both elements use it; error-text.ts words a failure for the payer.
 */
import type { ErrorCode } from '../eps/errors.js';

/** The widget's own failure codes, beside the relay's `ErrorCode`s. */
export const WIDGET_ERROR_CODES = [
  'network_error',
  'timeout',
  'bad_answer',
  'unsafe_redirect',
  'load_failed',
  'framed',
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];

/**
 * Codes the payer can do nothing about but try later or tell the shop (the site's mistakes, a billing that is down or
 * does not accept the relay, a page whose origin the relay does not allow): `internal_error`'s text serves them all
 * (a page may still give one its own).
 */
export const FAULT_CODES = [
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'not_found',
  'not_ready',
  'session_invalid',
  'sessions_disabled',
  'bad_answer',
  'billing_error',
  'origin_not_allowed',
] as const satisfies readonly (ErrorCode | WidgetErrorCode)[];
export type FaultCode = (typeof FAULT_CODES)[number];

/** `framing`: refused inside a frame of another site (framing.ts). */
export type PayErrorType = 'validation' | 'network' | 'relay' | 'billing' | 'framing';

/**
 * A failure's code: the relay's (`ErrorCode`; a newer relay's code is kept as it came, and gets the general text),
 * `http_<status>` for an answer that is not the relay's (a proxy's), or the widget's own.
 */
export type PayErrorCode = ErrorCode | WidgetErrorCode | `http_${number}`;

export class PayError extends Error {
  constructor(
    readonly type: PayErrorType,
    /** The relay's error code, or the widget's own (`WIDGET_ERROR_CODES`). */
    readonly code: PayErrorCode,
    message: string,
    options: { fields?: Record<string, string>; retryAfter?: number; earlierAt?: Date | null; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'PayError';
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
    this.earlierAt = options.earlierAt ?? undefined;
  }

  /** Field path → problem key. */
  readonly fields?: Record<string, string>;
  /** The relay's `Retry-After`, in seconds. */
  readonly retryAfter?: number;
  /** `duplicate_payment`: when the same payment was sent before (the relay's `earlier_at`). */
  readonly earlierAt?: Date;
}

/**
 * The relay's answer that the same payment was sent a moment ago (`duplicate_payment`): the payer is asked, and pays
 * again only by sending with `confirmDuplicate` (`PaymentSender.send`). `earlierAt` is `null` when the relay gave no
 * readable time.
 */
export interface DuplicatePayment {
  kind: 'duplicate';
  earlierAt: Date | null;
}

/** `error` as a duplicate payment, or `null` when it is another failure. */
export function duplicateOf(error: unknown): DuplicatePayment | null {
  if (!(error instanceof PayError) || error.code !== 'duplicate_payment') return null;
  return { kind: 'duplicate', earlierAt: error.earlierAt ?? null };
}

/** Any failure as a `PayError` (an unexpected one is an `internal_error` that keeps its cause). */
export function toPayError(error: unknown): PayError {
  return error instanceof PayError ? error : new PayError('relay', 'internal_error', String(error), { cause: error });
}
