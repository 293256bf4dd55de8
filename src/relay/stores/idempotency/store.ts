/**
 * Where idempotency keys live: in an embedded SQLite file for one instance (sqlite-store.ts), in Redis for a fleet
 * (redis-store.ts). A key is claimed before its payment may reach the billing and holds a *lease* while the request
 * runs. Just before the request leaves for the billing, its claim is marked *sending*; it is then completed with the
 * answer, or released when the billing certainly never saw the request. A claim whose lease runs out unmarked never
 * left the relay: the key is free again. A claim marked sending is never given back otherwise: should the instance
 * holding it die, or fail to store the answer, the lease runs out and the key's outcome is *unknown* until the key
 * expires — a retry is told so and is never sent again.
 *
 * Every write is durable (on disk, or acknowledged by Redis) when it resolves; one that cannot be throws, and the
 * payment is refused before the billing.
 */

export interface StoredAnswer {
  status: number;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_flight'; fingerprint: string }
  | { kind: 'unknown'; fingerprint: string }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer };

export interface ClaimOptions {
  /** This claim's own id (random): its mark, its release and the same claim resent are told from another's by it. */
  id: string;
  /** How long the claim holds its lease: longer than its request can take. */
  leaseMs: number;
  /** How long the key is kept, from now: the claim, then the answer. */
  ttlMs: number;
}

export interface IdempotencyStore {
  claim(key: string, fingerprint: string, times: ClaimOptions): Promise<Claim>;
  /**
   * Marks claim `id` as sending, durably, just before its request leaves; throws (and nothing may be sent) when it
   * cannot, or the claim is no longer `id`'s.
   */
  sending(key: string, id: string): Promise<void>;
  complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void>;
  /** Frees claim `id` of a key whose request certainly never reached the billing. */
  release(key: string, id: string): Promise<void>;
  /** Throws unless the store can take a claim now (readiness). */
  probe?(): Promise<void>;
  close(): Promise<void>;
}

/** A mark for a claim that is no longer the caller's (its lease ran out, and another retry claimed the key). */
export class ClaimLostError extends Error {
  constructor() {
    super('The key is no longer held by this claim.');
    this.name = 'ClaimLostError';
  }
}

/** A store call that did not settle within its deadline (a Redis that stopped answering). */
export class StoreTimeoutError extends Error {
  constructor(operation: string, ms: number) {
    super(`The store did not answer ${operation} within ${ms} ms.`);
    this.name = 'StoreTimeoutError';
  }
}

/** `promise`, or a `StoreTimeoutError` after `ms`: a command sent to a frozen server may never be answered. */
export function withDeadline<T>(promise: Promise<T>, ms: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(operation, ms)), ms);
  });
  // The late answer (or failure) of the command itself is dropped.
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
