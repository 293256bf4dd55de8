/**
 * Where idempotency keys live: in memory for one instance, in Redis for many. A key is first claimed (in flight,
 * with a lock that expires should the instance die), then completed with the answer, or released when the billing
 * certainly never saw the request.
 */
import type { RedisClientType } from 'redis';

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

type KeyRecord = { state: 'in_flight'; fingerprint: string } | { state: 'done'; fingerprint: string; answer: StoredAnswer };

function toClaim(record: KeyRecord): Claim {
  return record.state === 'done'
    ? { kind: 'done', fingerprint: record.fingerprint, answer: record.answer }
    : { kind: 'in_flight', fingerprint: record.fingerprint };
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, { record: KeyRecord; expiresAt: number }>();
  #nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, fingerprint: string, lockMs: number): Promise<Claim> {
    this.#sweep();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.now()) return toClaim(entry.record);
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
  #sweep(): void {
    const now = this.now();
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + 10_000;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}

export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix = 'billing-pay:idem:',
  ) {}

  async claim(key: string, fingerprint: string, lockMs: number): Promise<Claim> {
    const redisKey = this.prefix + key;
    const lock = JSON.stringify({ state: 'in_flight', fingerprint } satisfies KeyRecord);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // SET NX is atomic: of any number of instances, exactly one claims the key.
      if ((await this.redis.set(redisKey, lock, { NX: true, PX: lockMs })) === 'OK') return { kind: 'claimed' };
      const existing = await this.redis.get(redisKey);
      if (existing) return toClaim(JSON.parse(existing) as KeyRecord);
      // It expired between the two calls: try to claim it again.
    }
    return { kind: 'in_flight', fingerprint };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify({ state: 'done', fingerprint, answer } satisfies KeyRecord), { PX: ttlMs });
  }

  async release(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
