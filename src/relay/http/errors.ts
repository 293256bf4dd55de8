/**
 * Every error the relay answers has one JSON shape: `{"error": {"code", "message", "fields"?}}`. A field's problem
 * travels as its key (`amount_decimals`) with the English text for API users beside it, never as a sentence alone.
 */
import type { ErrorCode } from '../../eps/errors.js';
import { problemText, type ProblemKey } from '../../eps/messages.js';
import type { ErrorAnswer } from '../../eps/relay-api.js';

/**
 * The statuses an error may have: 4xx and 5xx (the same numbers as Hono's `ClientErrorStatusCode` and
 * `ServerErrorStatusCode`). Spelled out rather than imported: this module reaches the published package's types (via
 * `billing-pay/relay/session`), where hono is not installed.
 */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511;

export type { ErrorCode } from '../../eps/errors.js';

/** An error with its answer: the status, a stable code for programs and a message for people. */
export class RelayError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    options?: {
      /** Field path → problem key. */
      fields?: Record<string, ProblemKey>;
      cause?: unknown;
      billingReached?: boolean;
      retryable?: boolean;
      retryAfterSeconds?: number;
      billingMessage?: string | null;
      /** `duplicate_payment`: when the earlier payment was sent (ISO 8601). */
      earlierAt?: string;
    },
  ) {
    super(message, { cause: options?.cause });
    this.name = 'RelayError';
    this.fields = options?.fields;
    this.billingReached = options?.billingReached ?? true;
    this.retryable = options?.retryable ?? false;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.billingMessage = options?.billingMessage ?? undefined;
    this.earlierAt = options?.earlierAt;
  }

  /** Field path (`amount`, `eps_params.email`) → problem key (`amount_decimals`). */
  readonly fields?: Record<string, ProblemKey>;
  /** False when the billing certainly did not act on the request (never sent, or refused unread): trying again cannot pay twice. */
  readonly billingReached: boolean;
  /** True for a transient upstream failure (network, timeout, 5xx) where trying again later may succeed. */
  readonly retryable: boolean;
  /** Sent as `Retry-After` (by `app.onError`, for every error that has it): when trying again makes sense. */
  readonly retryAfterSeconds?: number;
  /** The billing's own text of a refusal: logged with the request, never sent to the client. */
  readonly billingMessage?: string;
  /** `duplicate_payment`: when the earlier payment was sent (ISO 8601), answered as `earlier_at`. */
  readonly earlierAt?: string;

  toBody(): ErrorAnswer {
    const fields =
      this.fields &&
      Object.fromEntries(
        Object.entries(this.fields).map(([path, problem]) => [path, { problem, message: problemText(problem) }]),
      );
    const earlier = this.earlierAt && { earlier_at: this.earlierAt };
    return { error: { code: this.code, message: this.message, ...(fields && { fields }), ...earlier } };
  }
}
