/**
 * Keys in Redis, shared by every instance. A key is two Redis keys: its record (kept for the retention time) and its
 * lease (gone when the lease runs out, by Redis's own clock, so instances' clocks never matter). Each step is one Lua
 * script, atomic on the server: of any number of instances exactly one claims a key.
 *
 * Every command has a deadline of its own (`timeoutMs`): node-redis's command timeout covers only the wait to be
 * written, so a Redis that holds the socket open and never answers would otherwise hold the payment until it is back.
 */
import type { RedisClientType } from 'redis';
import { REDIS_TIMEOUT_MS } from '../rate-limit.js';
import {
  StoreTimeoutError,
  withDeadline,
  type Claim,
  type ClaimTimes,
  type IdempotencyStore,
  type StoredAnswer,
} from './store.js';

/** What the store needs of a Redis connection (a client, or a Sentinel-managed one). */
export type RedisScripting = Pick<RedisClientType, 'eval'>;

type KeyRecord = { fingerprint: string; answer?: StoredAnswer };

/** KEYS: record, lease. ARGV: record, ttl ms, lease ms. Nil when claimed, else the record and whether it is leased. */
const CLAIM = `
local record = redis.call('GET', KEYS[1])
if record then return {record, redis.call('EXISTS', KEYS[2])} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
return false`;

/** KEYS: record, lease. ARGV: record with its answer, ttl ms. */
const COMPLETE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
return 1`;

/** KEYS: record, lease. Deletes a claim that holds no answer. */
const RELEASE = `
local record = redis.call('GET', KEYS[1])
if record and cjson.decode(record).answer == nil then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1`;

export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisScripting,
    private readonly prefix = 'billing-pay:',
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {}

  async claim(key: string, fingerprint: string, { leaseMs, ttlMs }: ClaimTimes): Promise<Claim> {
    const claim = this.#run(CLAIM, key, [JSON.stringify({ fingerprint } satisfies KeyRecord), ttlMs, leaseMs]);
    let reply: unknown;
    try {
      reply = await withDeadline(claim, this.timeoutMs, 'claim');
    } catch (error) {
      // Answered late, this claim is nobody's: the payment was refused (503) before the billing. Its key is let go,
      // so the client's retry once Redis is back is served, not told the outcome is unknown.
      if (error instanceof StoreTimeoutError) {
        void claim.then(async (reply) => (reply === null ? this.release(key) : undefined)).catch(() => {});
      }
      throw error;
    }
    if (reply === null) return { kind: 'claimed' };
    const [text, leased] = reply as [string, number];
    const record = JSON.parse(text) as KeyRecord;
    if (record.answer) return { kind: 'done', fingerprint: record.fingerprint, answer: record.answer };
    return { kind: leased ? 'in_flight' : 'unknown', fingerprint: record.fingerprint };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    const record = JSON.stringify({ fingerprint, answer } satisfies KeyRecord);
    await withDeadline(this.#run(COMPLETE, key, [record, ttlMs]), this.timeoutMs, 'complete');
  }

  async release(key: string): Promise<void> {
    await withDeadline(this.#run(RELEASE, key, []), this.timeoutMs, 'release');
  }

  /** The connection is the relay's: it closes it. */
  async close(): Promise<void> {}

  #run(script: string, key: string, args: (string | number)[]): Promise<unknown> {
    return this.redis.eval(script, {
      keys: [`${this.prefix}idem:${key}`, `${this.prefix}idem-lease:${key}`],
      arguments: args.map(String),
    });
  }
}
