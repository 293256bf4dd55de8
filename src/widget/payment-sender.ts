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
import type { PaymentRequest } from '../eps/request.js';
import { PayError, toPayError } from './pay-error.js';
import { loadLate } from './late/load.js';
import type { SentPayment } from './late/pay.late.js';
import { newIdempotencyKey } from './relay-client.js';

export interface SendOptions {
  /** The payer confirmed paying again after `duplicate_payment`. */
  confirmDuplicate?: boolean;
  /** Another late module the caller needs once the payment is made: it is here, or its failure thrown, before sending. */
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

  /** Starts loading the payment path once the form is ready, so that Pay rarely waits for it (a failure shows at Pay). */
  prefetch(): void {
    loadLate('pay').catch(() => {});
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
      // Loaded after the first screen; a bundle that cannot have its pinned payment path fails here, sending nothing.
      const [{ isSafeRedirect, postPayment }] = await Promise.all([
        loadLate('pay').catch((error: unknown) => {
          throw new PayError('network', 'load_failed', 'The payment path could not be loaded.', { cause: error });
        }),
        options.needs,
      ]);
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
