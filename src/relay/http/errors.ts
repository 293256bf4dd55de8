/**
 * Every error the relay answers has one JSON shape: `{"error": {"code", "message", "fields"?}}`. A field's problem
 * travels as its key (`amount_decimals`) with the English text for API users beside it, never as a sentence alone.
 */
import { ERRORS, type ErrorCode } from '../../eps/errors.js';
import { problemText, type ProblemKey } from '../../eps/messages.js';
import type { ErrorAnswer } from '../../eps/relay-api.js';

export type { ErrorCode } from '../../eps/errors.js';

/** The statuses the error table (`ERRORS`) gives a code. */
export type StatusOf<C extends ErrorCode> = (typeof ERRORS)[C]['status'][number];

export interface RelayErrorOptions<C extends ErrorCode> {
  /** The table's message unless the answer says more (a limit, a status, an origin). */
  message?: string;
  /** One of the code's statuses in the table; its first by default. */
  status?: StatusOf<C>;
  /** Field path → problem key. */
  fields?: Record<string, ProblemKey>;
  cause?: unknown;
  billingReached?: boolean;
  retryable?: boolean;
  retryAfterSeconds?: number;
  billingMessage?: string | null;
  /** `duplicate_payment`: when the earlier payment was sent (ISO 8601). */
  earlierAt?: string;
}

/**
 * An error with its answer: a stable code for programs, and the status and message for people that the error table
 * gives it — a throw site names the code, and only what the table cannot know.
 */
export class RelayError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: StatusOf<C>;

  constructor(
    readonly code: C,
    options: RelayErrorOptions<C> = {},
  ) {
    const entry = ERRORS[code];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = 'RelayError';
    this.status = options.status ?? (entry.status[0] as StatusOf<C>);
    this.fields = options.fields;
    this.billingReached = options.billingReached ?? true;
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.billingMessage = options.billingMessage ?? undefined;
    this.earlierAt = options.earlierAt;
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
