/**
 * `Idempotency-Key` on `POST /payments`, after the IETF draft and the payment APIs that do it well: the same key
 * with the same request replays the first answer without calling the billing again; the same key with another
 * request is a 422; a key still in flight is a 409, and so is a key whose outcome is unknown (the instance that held
 * it died, or could not store the answer, after the request may have reached the billing) — such a key is never sent
 * again. Runs after validation, so refused input is never stored.
 *
 * The route calls `beforeBilling` (set on the context) last before its request leaves: it marks the claim as sending,
 * durably, or throws a 503 and nothing is sent. A claim never marked never reached the billing: once its lease ends,
 * a retry claims it afresh.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ValidPayment } from '../../../eps/request.js';
import type { RelayContext } from '../../http/context.js';
import { RelayError } from '../../http/errors.js';
import type { KeyedHash } from '../keyed-hash.js';
import type { Claim, IdempotencyStore } from './store.js';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** Makes the request's fingerprint (nothing personal is stored in clear). */
  hash: KeyedHash;
  /** How long answers are kept. */
  ttlMs: number;
  /** How long a key's lease lasts while its request runs (longer than any billing call can take). */
  leaseMs: number;
  onReplay?: () => void;
  /** A store failure the client is not told about (the answer goes out all the same). */
  onStoreError?: (c: Context<RelayContext>, error: unknown, operation: 'complete' | 'release') => void;
}

/** The answer when the store cannot record what a payment needs: nothing was sent, and a retry is safe. */
function storeUnavailable(cause: unknown): RelayError {
  return new RelayError('store_unavailable', { cause, billingReached: false, retryable: true, retryAfterSeconds: 5 });
}

const KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotency({ store, hash, ttlMs, leaseMs, onReplay, onStoreError }: IdempotencyOptions) {
  return createMiddleware<RelayContext>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      throw new RelayError('invalid_idempotency_key');
    }
    const fingerprint = paymentFingerprint(hash, c.get('payment'));
    const id = randomUUID();
    let claim: Claim;
    try {
      claim = await store.claim(key, fingerprint, { id, leaseMs, ttlMs });
    } catch (error) {
      // Without the store no retry could be recognised: nothing is sent to the billing.
      throw storeUnavailable(error);
    }
    if (claim.kind !== 'claimed' && claim.fingerprint !== fingerprint) {
      throw new RelayError('idempotency_key_reused');
    }
    if (claim.kind === 'in_flight') {
      throw new RelayError('idempotency_in_flight', { retryAfterSeconds: 1 });
    }
    if (claim.kind === 'unknown') {
      throw new RelayError('idempotency_outcome_unknown');
    }
    if (claim.kind === 'done') {
      onReplay?.();
      // Through the context, so the answer carries the headers set so far (CORS, request id, security headers).
      return c.body(claim.answer.body, claim.answer.status as ContentfulStatusCode, REPLAY_HEADERS);
    }

    const release = () => store.release(key, id).catch((error: unknown) => onStoreError?.(c, error, 'release'));
    c.set('beforeBilling', () =>
      store.sending(key, id).catch((error: unknown) => Promise.reject(storeUnavailable(error))),
    );
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    // A failure before the billing could have seen the request frees the key for a retry; any other answer is final.
    if (c.error instanceof RelayError && !c.error.billingReached) {
      await release();
    } else {
      // The billing has acted: its answer reaches the client even if it cannot be stored now. The key stays claimed
      // (a retry meanwhile is a 409) while storing it is tried again, until shortly before the lease runs out; past
      // that, unstored, its outcome is unknown for good.
      const answer = { status: c.res.status, body: c.get('answerText') ?? (await c.res.clone().text()) };
      const giveUpAt = Date.now() + leaseMs - STORE_RETRY_MAX_MS;
      const complete = (delayMs: number): Promise<void> =>
        store.complete(key, fingerprint, answer, ttlMs).catch((error: unknown) => {
          onStoreError?.(c, error, 'complete');
          if (Date.now() + delayMs >= giveUpAt) return;
          setTimeout(() => void complete(Math.min(delayMs * 2, STORE_RETRY_MAX_MS)), delayMs).unref();
        });
      await complete(STORE_RETRY_FIRST_MS);
    }
  });
}

const STORE_RETRY_FIRST_MS = 250;
const STORE_RETRY_MAX_MS = 5_000;

const REPLAY_HEADERS = { 'content-type': 'application/json', 'idempotent-replayed': 'true' };

/**
 * The keyed digest (keyed-hash.ts) of the validated request: the same payment gives the same fingerprint, however its
 * JSON was written, and a store that leaks cannot have its lookup values guessed back from a plain hash.
 */
export function paymentFingerprint(hash: KeyedHash, payment: ValidPayment): string {
  const canonical = JSON.stringify([
    payment.system,
    payment.amount,
    payment.agreement_param_id,
    payment.agreement_param_value,
    Object.entries(payment.params).sort(([a], [b]) => (a < b ? -1 : 1)),
  ]);
  return hash('fingerprint', canonical);
}
