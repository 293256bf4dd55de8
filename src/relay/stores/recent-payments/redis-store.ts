/**
 * Recent payments in Redis, shared by every relay of a fleet on the connection the relay already holds. A mark is one
 * Redis key that expires with its window, by Redis's own clock; claiming and letting go are each one Lua script,
 * atomic on the server, so of two relays sent the same payment at once exactly one sends it. Every command has a
 * deadline of its own, as the idempotency store's.
 */
import { randomUUID } from 'node:crypto';
import { StoreTimeoutError, withDeadline } from '../idempotency/store.js';
import { REDIS_TIMEOUT_MS } from '../redis-connection.js';
import type { RecentClaim, RecentPaymentStore } from './store.js';

/** What the store needs of a Redis connection (a client, or a Sentinel-managed one). */
export interface RedisEval {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** KEYS: mark. ARGV: "at token", window ms. Nil when claimed, else the live mark. */
const CLAIM = `
local mark = redis.call('GET', KEYS[1])
if mark then return mark end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

/** KEYS: mark. ARGV: "at token", window ms. */
const NOTE = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** KEYS: mark. ARGV: token. Deletes the mark only while it is that claim's. */
const RELEASE = `
local mark = redis.call('GET', KEYS[1])
if mark and string.sub(mark, -string.len(ARGV[1])) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

export class RedisRecentPayments implements RecentPaymentStore {
  constructor(
    private readonly redis: RedisEval,
    private readonly prefix = 'billing-pay:',
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {}

  async claim(key: string, at: number, windowMs: number): Promise<RecentClaim> {
    const token = randomUUID();
    const sent = this.#send(CLAIM, key, [`${at} ${token}`, String(windowMs)]);
    let reply: unknown;
    try {
      reply = await withDeadline(sent, this.timeoutMs, 'claim');
    } catch (error) {
      // Answered late, the claim is nobody's (its payment was refused, 503): let go, so the retry is not a duplicate.
      if (error instanceof StoreTimeoutError)
        void sent.then((late) => (late === null ? this.release(key, token) : undefined)).catch(() => {});
      throw error;
    }
    if (typeof reply !== 'string') return { kind: 'claimed', token };
    return { kind: 'recent', at: Number(reply.split(' ')[0]) };
  }

  async note(key: string, at: number, windowMs: number): Promise<void> {
    await this.#run('note', NOTE, key, [`${at} ${randomUUID()}`, String(windowMs)]);
  }

  async release(key: string, token: string): Promise<void> {
    await this.#run('release', RELEASE, key, [token]);
  }

  /** The connection is the relay's: it closes it. */
  async close(): Promise<void> {}

  #run(operation: string, script: string, key: string, args: string[]): Promise<unknown> {
    return withDeadline(this.#send(script, key, args), this.timeoutMs, operation);
  }

  #send(script: string, key: string, args: string[]): Promise<unknown> {
    return this.redis.eval(script, { keys: [`${this.prefix}recent:${key}`], arguments: args });
  }
}
