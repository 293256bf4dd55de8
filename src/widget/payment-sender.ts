/**
 * The sending step of `<billing-pay>`'s submit chain: posts the payment to the relay and verifies the answer (a payment
 * page the browser may safely open). Pay pressed again after an attempt whose outcome is unknown — no answer, an answer
 * that could not be read, or the element removed while the request was in flight (it aborts the request) — sends the
 * same request with the same idempotency key, so the relay cannot pay it twice. So does a key the relay still holds in
 * flight (its instance may have died mid-payment): the retry then learns its outcome is unknown, and only the Pay after
 * that message makes a new key.
 *
 * A payment the relay calls a duplicate of one sent a moment ago (`duplicate_payment`, read with `duplicateOf`) is sent
 * again only when the payer confirms it: `send(…, {confirmDuplicate: true})` adds `"confirm_duplicate": true`, which
 * makes it another request, with a new key.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isRecord } from '../eps/is-record.js';
import type { PaymentAnswer } from '../eps/relay-api.js';
import type { PaymentRequest } from '../eps/request.js';
import { isPaymentPage } from '../eps/url.js';
import { PayError, toPayError } from './pay-error.js';
import { errorOf, readAnswer, relayError, relayUrl, request, sleep, type Answer } from './relay-client.js';

/** A network failure of one attempt is retried this many times, with the same idempotency key. */
const NETWORK_RETRIES = 1;
const RETRY_DELAY_MS = 400;

export interface SendOptions {
  /** The payer confirmed paying again after `duplicate_payment`. */
  confirmDuplicate?: boolean;
  /** A late module the caller needs once the payment is made: it is here, or its failure thrown, before sending. */
  needs?: Promise<unknown>;
}

/**
 * Where a submit is, with what that step holds: an invalid form or a failed request ends in `error`, the relay's
 * question about the same payment in `duplicate`; a cancelled one goes back to `idle`.
 */
export type SubmitState =
  | { name: 'idle' }
  | { name: 'checking' }
  | { name: 'sending' }
  | { name: 'redirecting'; url: string }
  | { name: 'duplicate'; request: PaymentRequest; earlierAt: string }
  | { name: 'error'; failure: PayError };

/** The relay's answer to the same payment sent again within its window (its error code). */
const DUPLICATE = 'duplicate_payment';

/** When the same payment was started, from the relay's `duplicate_payment` answer; else `null`. */
export function earlierAt(failure: PayError): string | null {
  if ((failure.code as string) !== DUPLICATE) return null;
  const { body } = (failure.cause ?? {}) as { body?: { error?: { earlier_at?: unknown } } };
  const at = body?.error?.earlier_at;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : '';
}

export class PaymentSender implements ReactiveController {
  private abort?: AbortController;
  /** A payment that may have been made without the widget knowing its outcome, with its key. */
  private unanswered?: { json: string; key: string };

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.abort?.abort();
  }

  /**
   * The verified payment page and the payment's id, or `null` when the element was removed meanwhile; a failure throws
   * a `PayError`.
   */
  async send(relay: string, body: PaymentRequest, options: SendOptions = {}): Promise<SentPayment | null> {
    const controller = (this.abort = new AbortController());
    const json = JSON.stringify(options.confirmDuplicate ? { ...body, confirm_duplicate: true } : body);
    const key = this.unanswered?.json === json ? this.unanswered.key : newIdempotencyKey();
    this.unanswered = undefined;
    try {
      await options.needs;
      const sent = await postPayment(relay, json, key, controller.signal);
      if (!isSafeRedirect(sent.url))
        throw new PayError('relay', 'unsafe_redirect', 'The payment page address is not https.', { cause: sent.url });
      return sent;
    } catch (error) {
      if (controller.signal.aborted) {
        this.unanswered = { json, key };
        return null;
      }
      const failure = toPayError(error);
      if (failure.type === 'network' || failure.code === 'bad_answer' || failure.code === 'idempotency_in_flight')
        this.unanswered = { json, key };
      throw failure;
    } finally {
      if (this.abort === controller) this.abort = undefined;
    }
  }
}

/** The relay's 201 as the widget uses it: the payment page, and the billing's payment id (`''` when it gave none). */
export interface SentPayment {
  url: string;
  paymentId: string;
}

/**
 * Sends one attempt of a payment (`json`: the `PaymentRequest` as the caller serialized it, once) and answers the
 * payment page's address with the payment's id. The same `idempotencyKey` is used for the retry of a network failure, so the relay never
 * creates the payment twice.
 */
export async function postPayment(
  relay: string,
  json: string,
  idempotencyKey: string,
  signal: AbortSignal,
): Promise<SentPayment> {
  const init = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey, Accept: 'application/json' },
    body: json,
    signal,
  };
  let answer: Answer;
  for (let attempt = 0; ; attempt++) {
    try {
      answer = await request(relayUrl(relay, 'payments'), init);
      break;
    } catch (error) {
      if (attempt >= NETWORK_RETRIES || !(error instanceof PayError) || error.code !== 'network_error') throw error;
      await sleep(RETRY_DELAY_MS, signal);
    }
  }
  // A 201 without a page (`PaymentAnswer`) is a bad answer: the payment exists, but there is nowhere to send the client.
  return readAnswer(
    answer,
    (result) => {
      const { redirect_url: url, payment } = (isRecord(result) ? result : {}) as Partial<
        Record<keyof PaymentAnswer, unknown>
      >;
      const id = isRecord(payment) ? payment.payment_id : undefined;
      return typeof url === 'string' && url ? { url, paymentId: id === undefined ? '' : String(id) } : undefined;
    },
    paymentError,
  );
}

/**
 * The relay's refusal of a payment: `relayError`, with its fields' problem keys (`{problem, message}` on the wire: a
 * validation failure) and a duplicate's `earlier_at`.
 */
export function paymentError(answer: Answer, body: unknown): PayError {
  const failure = relayError(answer, body);
  const error = errorOf(body);
  const fields = isRecord(error.fields)
    ? Object.fromEntries(
        Object.entries(error.fields).flatMap(([path, f]) =>
          isRecord(f) && typeof f.problem === 'string' ? [[path, f.problem]] : [],
        ),
      )
    : undefined;
  const earlier = typeof error.earlier_at === 'string' ? new Date(error.earlier_at) : null;
  return new PayError(fields ? 'validation' : failure.type, failure.code, failure.message, {
    fields,
    retryAfter: failure.retryAfter,
    earlierAt: earlier && !Number.isNaN(earlier.getTime()) ? earlier : null,
    cause: failure.cause,
  });
}

/**
 * Whether the widget may send the client to `url`: the model's one payment-page rule (`isPaymentPage`, which the
 * relay applies too), judged from `page`, the address of the page the element is in (read when called, never at
 * import): `http:` is followed only to this machine and only from a page on this machine over `http:`.
 */
export function isSafeRedirect(url: string, page: string = location.href): boolean {
  return isPaymentPage(url, page);
}

/**
 * A fresh idempotency key, a v4 UUID: `crypto.randomUUID` where the page is a secure context, else the same from
 * `crypto.getRandomValues` (the classic template: each 0, 1 or 8 becomes a random hex digit, keeping the version and
 * variant bits).
 */
export function newIdempotencyKey(): string {
  return (
    crypto.randomUUID?.() ??
    '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
      (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16),
    )
  );
}
