/**
 * Where idempotency keys live: in memory for one instance, in Redis for many. A key is first claimed (in flight,
 * with a lock that expires should the instance die), then completed with the answer, or released when the billing
 * certainly never saw the request.
 */
import type { RedisClientType } from 'redis';
import { REDIS_TIMEOUT_MS } from './rate-limit.js';

export interface StoredAnswer {
  status: number;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_flight'; fingerprint: string }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer };

export interface IdempotencyStore {
  claim(key: string, fingerprint: string, lockMs: number): Promise<Claim>;
  complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void>;
  release(key: string): Promise<void>;
}

/** The in-memory store holds its maximum of live keys: a new one cannot be kept without evicting one that may be replayed. */
export class StoreFullError extends Error {
  constructor(readonly maxKeys: number) {
    super(`The idempotency store holds its maximum of ${maxKeys} live keys.`);
    this.name = 'StoreFullError';
  }
}

/** A store call that did not settle within its deadline (a Redis that stopped answering). */
export class StoreTimeoutError extends Error {
  constructor(operation: string, ms: number) {
    super(`Redis did not answer ${operation} within ${ms} ms.`);
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

type KeyRecord =
  { state: 'in_flight'; fingerprint: string } | { state: 'done'; fingerprint: string; answer: StoredAnswer };

function toClaim(record: KeyRecord): Claim {
  return record.state === 'done'
    ? { kind: 'done', fingerprint: record.fingerprint, answer: record.answer }
    : { kind: 'in_flight', fingerprint: record.fingerprint };
}

/**
 * Keys in a Map, at most `maxKeys` live ones. At the maximum a new key is refused (`StoreFullError`) rather than one
 * evicted: an evicted key whose answer a client may still replay would let that retry pay twice.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, { record: KeyRecord; expiresAt: number }>();
  #nextSweep = 0;
  #nextFullSweep = 0;

  constructor(
    private readonly maxKeys = Number.POSITIVE_INFINITY,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(key: string, fingerprint: string, lockMs: number): Promise<Claim> {
    this.#sweep();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.now()) return toClaim(entry.record);
    if (!entry && this.#entries.size >= this.maxKeys) {
      // Full: expired keys make room (a sweep at most once a second, so a flood at the maximum costs little).
      if (this.now() >= this.#nextFullSweep) {
        this.#nextFullSweep = this.now() + 1_000;
        this.#sweep(true);
      }
      if (this.#entries.size >= this.maxKeys) throw new StoreFullError(this.maxKeys);
    }
    this.#entries.set(key, { record: { state: 'in_flight', fingerprint }, expiresAt: this.now() + lockMs });
    return { kind: 'claimed' };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    this.#entries.set(key, { record: { state: 'done', fingerprint, answer }, expiresAt: this.now() + ttlMs });
  }

  async release(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops expired keys now and then, so memory follows the traffic of the retention window only. */
  #sweep(force = false): void {
    const now = this.now();
    if (now < this.#nextSweep && !force) return;
    this.#nextSweep = now + 10_000;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}

/**
 * Keys in Redis, shared by every instance. Every command has a deadline of its own (`timeoutMs`): node-redis's command
 * timeout covers only the wait to be written, so a Redis that holds the socket open and never answers (frozen,
 * swapping, a network partition that drops packets) would otherwise hold the payment until it comes back.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix = 'billing-pay:idem:',
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {}

  async claim(key: string, fingerprint: string, lockMs: number): Promise<Claim> {
    const redisKey = this.prefix + key;
    const lock = JSON.stringify({ state: 'in_flight', fingerprint } satisfies KeyRecord);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // SET NX is atomic: of any number of instances, exactly one claims the key.
      const set = this.redis.set(redisKey, lock, { NX: true, PX: lockMs });
      let claimed: string | null;
      try {
        claimed = await withDeadline(set, this.timeoutMs, 'SET NX');
      } catch (error) {
        // Answered late, this claim is nobody's: the payment was refused (503). Its lock is let go, so the client's
        // retry after Redis is back is served, not held off as in flight until the lock runs out.
        if (error instanceof StoreTimeoutError)
          void set.then((r) => (r === 'OK' ? this.redis.del(redisKey) : 0)).catch(() => {});
        throw error;
      }
      if (claimed === 'OK') return { kind: 'claimed' };
      const existing = await withDeadline(this.redis.get(redisKey), this.timeoutMs, 'GET');
      if (existing) return toClaim(JSON.parse(existing) as KeyRecord);
      // It expired between the two calls: try to claim it again.
    }
    return { kind: 'in_flight', fingerprint };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    const record = JSON.stringify({ state: 'done', fingerprint, answer } satisfies KeyRecord);
    await withDeadline(this.redis.set(this.prefix + key, record, { PX: ttlMs }), this.timeoutMs, 'SET');
  }

  async release(key: string): Promise<void> {
    await withDeadline(this.redis.del(this.prefix + key), this.timeoutMs, 'DEL');
  }
}
