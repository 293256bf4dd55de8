/**
 * The relay calls made on behalf of a logged-in client, with the merchant-signed session as
 * `Authorization: Bearer <session>`: `GET /session`, `GET /payment-methods`, `DELETE /payment-methods/{id}`.
 * Failures are `PayError`s, as for the payment itself.
 */
import { readAnswer, relayUrl, request } from './relay-client.js';

/** A saved payment method as the relay shows it to its owner. */
export interface SavedPaymentMethod {
  id: number;
  /** Whether autopayments are made with it. */
  autopayment: boolean;
  /** Display data the billing gives, when it does: `title`, `method`, `system`, `card_mask`, `expires`, … */
  [display: string]: string | number | boolean;
}

/** One session call, its answer read by `read` (see `readAnswer`). */
async function call<T>(
  relay: string,
  path: string,
  session: string,
  signal: AbortSignal,
  read: (body: unknown) => T | undefined,
  method = 'GET',
): Promise<T> {
  const answer = await request(relayUrl(relay, path), {
    method,
    signal,
    headers: { Accept: 'application/json', Authorization: `Bearer ${session}` },
  });
  return readAnswer(answer, read);
}

/** The agreement the session names (`GET /session`). */
export async function fetchSessionAgreement(relay: string, session: string, signal: AbortSignal): Promise<number> {
  return call(relay, 'session', session, signal, (body) => {
    const id = (body as { agreement_id?: unknown } | null)?.agreement_id;
    return Number.isSafeInteger(id) ? (id as number) : undefined;
  });
}

/** The session's saved methods (`GET /payment-methods`). */
export async function fetchPaymentMethods(
  relay: string,
  session: string,
  signal: AbortSignal,
): Promise<SavedPaymentMethod[]> {
  return call(relay, 'payment-methods', session, signal, toMethods);
}

/** Disables one method and its autopayment; answers the updated list (`DELETE /payment-methods/{id}`). */
export async function disablePaymentMethod(
  relay: string,
  session: string,
  id: number,
  signal: AbortSignal,
): Promise<SavedPaymentMethod[]> {
  return call(relay, `payment-methods/${id}`, session, signal, toMethods, 'DELETE');
}

/** Keeps records with an integer id and only plain display values (`undefined`: not a list of methods). */
function toMethods(body: unknown): SavedPaymentMethod[] | undefined {
  const list = (body as { payment_methods?: unknown } | null)?.payment_methods;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((record: unknown) => {
    if (typeof record !== 'object' || !record || !Number.isSafeInteger((record as { id?: unknown }).id)) return [];
    const method: SavedPaymentMethod = { id: 0, autopayment: false };
    for (const [key, value] of Object.entries(record)) {
      if (['string', 'number', 'boolean'].includes(typeof value)) method[key] = value as string | number | boolean;
    }
    method.autopayment = (record as { autopayment?: unknown }).autopayment === true;
    return [method];
  });
}
