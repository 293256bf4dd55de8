/**
 * The relay calls made on behalf of a logged-in client, with the merchant-signed session as
 * `Authorization: Bearer <session>`: `GET /session`, `GET /payment-methods`, `DELETE /payment-methods/{id}`.
 * Failures are `PayError`s, as for the payment itself.
 */
import { PayError, readJson, relayError, relayUrl, request } from './relay-client.js';

/** A saved payment method as the relay shows it to its owner. */
export interface SavedPaymentMethod {
  id: number;
  /** Whether autopayments are made with it. */
  autopayment: boolean;
  /** Display data the billing gives, when it does: `title`, `method`, `system`, `card_mask`, `expires`, … */
  [display: string]: string | number | boolean;
}

async function call(relay: string, path: string, session: string, signal: AbortSignal, method = 'GET'): Promise<unknown> {
  const answer = await request(relayUrl(relay, path), {
    method,
    signal,
    headers: { Accept: 'application/json', Authorization: `Bearer ${session}` },
  });
  const body = await readJson(answer);
  if (!answer.ok) throw relayError(answer, body);
  return body;
}

const bad = (body: unknown) => new PayError('relay', 'bad_answer', 'The relay answered with an unexpected shape.', { cause: body });

/** The agreement the session names (`GET /session`). */
export async function fetchSessionAgreement(relay: string, session: string, signal: AbortSignal): Promise<number> {
  const body = await call(relay, 'session', session, signal);
  const id = (body as { agreement_id?: unknown } | null)?.agreement_id;
  if (!Number.isSafeInteger(id)) throw bad(body);
  return id as number;
}

/** The session's saved methods (`GET /payment-methods`). */
export async function fetchPaymentMethods(relay: string, session: string, signal: AbortSignal): Promise<SavedPaymentMethod[]> {
  return toMethods(await call(relay, 'payment-methods', session, signal));
}

/** Disables one method and its autopayment; answers the updated list (`DELETE /payment-methods/{id}`). */
export async function disablePaymentMethod(relay: string, session: string, id: number, signal: AbortSignal): Promise<SavedPaymentMethod[]> {
  return toMethods(await call(relay, `payment-methods/${id}`, session, signal, 'DELETE'));
}

/** Keeps records with an integer id and only plain display values. */
function toMethods(body: unknown): SavedPaymentMethod[] {
  const list = (body as { payment_methods?: unknown } | null)?.payment_methods;
  if (!Array.isArray(list)) throw bad(body);
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
