/**
 * The one writer of the relay's JSON answers, errors included (`RelayError` is beside it, in errors.ts, which has no
 * Hono in it: it reaches the published package's types). Every failure becomes a `RelayError`, and its answer.
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import type { RelayContext } from './context.js';
import { RelayError, type StatusOf } from './errors.js';

/** A JSON answer whose text the idempotency store can keep (the payment's answer and every error). */
export function jsonAnswer(c: Context<RelayContext>, body: unknown, status: ContentfulStatusCode): Response {
  const text = JSON.stringify(body);
  c.set('answerText', text);
  return c.body(text, status, { 'content-type': 'application/json' });
}

/** `app.onError`: the error's answer; a 5xx is logged with its cause, a billing's refusal text goes to the log line. */
export function answerError(logger: Logger): ErrorHandler<RelayContext> {
  return (error, c) => {
    const known = toRelayError(error);
    // The billing's own text of a refusal goes to the request's log line, never to the client.
    if (known.billingMessage !== undefined)
      c.set('logFields', { ...c.get('logFields'), billingMessage: known.billingMessage });
    if (known.status >= 500) {
      logger.error({ reqId: c.get('requestId'), code: known.code, err: error.cause ?? error }, known.message);
    }
    if (known.retryAfterSeconds !== undefined) c.header('Retry-After', String(known.retryAfterSeconds));
    return jsonAnswer(c, known.toBody(), known.status);
  };
}

/** `app.notFound`. */
export function notFound(): never {
  throw new RelayError('not_found');
}

function toRelayError(error: Error): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return new RelayError('payload_too_large');
    // Hono's own 4xx (none on the relay's routes: app.mount's 400) keeps its status, outside the table's.
    if (status >= 400 && status < 500)
      return new RelayError('validation_failed', {
        status: status as StatusOf<'validation_failed'>,
        message: error.message || 'The request is not valid.',
      });
  }
  return new RelayError('internal_error', { cause: error });
}
