/**
 * The payment path, loaded after the first screen (late/load.ts): `POST {relay}/payments` and the check of the payment
 * page it answers.
 */
import { isRecord } from '../../eps/is-record.js';
import type { PaymentAnswer } from '../../eps/relay-api.js';
import { isPaymentPage } from '../../eps/url.js';
import { PayError } from '../pay-error.js';
import { NETWORK_RETRIES, readAnswer, relayUrl, request, RETRY_DELAY_MS, sleep } from '../relay-client.js';

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
  let answer: Response;
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
  return readAnswer(answer, (result) => {
    const { redirect_url: url, payment } = (isRecord(result) ? result : {}) as Partial<
      Record<keyof PaymentAnswer, unknown>
    >;
    const id = isRecord(payment) ? payment.payment_id : undefined;
    return typeof url === 'string' && url ? { url, paymentId: id === undefined ? '' : String(id) } : undefined;
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
