/**
 * The second payment by mistake: a payment to the same agreement (lookup kind and value, normalised), by the same
 * system, of the same amount as one sent within the window (`DUPLICATE_WINDOW_SECONDS`) is answered 409
 * `duplicate_payment` with `earlier_at`, unless the body says `"confirm_duplicate": true`. It runs after idempotency:
 * a retry of the first payment with its key replays its answer, and is never called a duplicate.
 *
 * What counts: a payment the billing created (201), and one whose outcome is unknown (a timeout or a 5xx after the
 * request may have reached the billing) — the payer may have paid. A request the billing refused (4xx) or never saw
 * leaves no mark. The mark is taken before the billing is called, so two payments at once are one payment and one 409.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ValidPayment } from '../../../eps/request.js';
import type { RelayContext } from '../../http/context.js';
import { RelayError } from '../../http/errors.js';
import type { KeyedHash } from '../keyed-hash.js';
import type { RecentPaymentStore } from './store.js';

export interface DuplicateGuardOptions {
  store: RecentPaymentStore;
  /** The window; 0: the guard is off. */
  windowMs: number;
  hash: KeyedHash;
  now?: () => number;
  onDuplicate?: () => void;
  /** A store failure after the payment was answered (the answer goes out all the same). */
  onStoreError?: (c: Context<RelayContext>, error: unknown, operation: 'release') => void;
}

export function duplicateGuard({
  store,
  windowMs,
  hash,
  now = Date.now,
  onDuplicate,
  onStoreError,
}: DuplicateGuardOptions) {
  return createMiddleware<RelayContext>(async (c, next) => {
    if (!windowMs) return next();
    const payment = c.get('payment');
    const key = recentPaymentKey(hash, payment);
    const at = now();
    if (payment.confirm_duplicate) {
      // Marked before it is sent, as a claim is: unmarked, its own repeat would not be asked about. A confirmed
      // payment that then does not count keeps the mark (one more question, never one fewer).
      await stored(store.note(key, at, windowMs));
      return next();
    }
    const claim = await stored(store.claim(key, at, windowMs));
    if (claim.kind === 'recent') {
      onDuplicate?.();
      throw new RelayError('duplicate_payment', { billingReached: false, earlierAt: new Date(claim.at).toISOString() });
    }
    const release = () =>
      store.release(key, claim.token).catch((error: unknown) => onStoreError?.(c, error, 'release'));
    try {
      await next();
    } catch (error) {
      await release();
      throw error;
    }
    if (!counts(c)) await release();
  });
}

/** A mark's write or read; failing (a full disk, Redis gone), a second payment could not be recognised: nothing is sent. */
async function stored<T>(step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw new RelayError('store_unavailable', {
      cause: error,
      billingReached: false,
      retryable: true,
      retryAfterSeconds: 5,
    });
  }
}

/** Whether the answer may stand for a payment: created, or sent with an outcome not known. */
function counts(c: Context<RelayContext>): boolean {
  if (c.error) return !(c.error instanceof RelayError && (!c.error.billingReached || c.error.status < 500));
  return c.res.status === 201;
}

/**
 * The keyed digest that names a payment: its system, amount (canonical) and agreement lookup, the value compared as
 * the billing would find it (Unicode-normalised, case and runs of spaces ignored).
 */
export function recentPaymentKey(hash: KeyedHash, payment: ValidPayment): string {
  const value = payment.agreement_param_value.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  return hash('recent-payment', payment.system, payment.amount, String(payment.agreement_param_id), value);
}
