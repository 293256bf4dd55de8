/**
 * Rate limits with rate-limiter-flexible: per client IP, per agreement lookup value and per client session, in memory
 * or in Redis (shared by every relay instance). A refused request is a 429 with `Retry-After`.
 *
 * In memory, each limiter tracks at most `maxKeys` keys (each lives for its window): at the maximum a request under a
 * new key is a 503 with `Retry-After` — a flood of distinct keys cannot grow the relay's memory without bound, and
 * forgetting a key early would reset its count. In Redis, every call has a deadline (`REDIS_TIMEOUT_MS`): a Redis that
 * stops answering sends each instance to its own memory limiter within it, instead of holding the request.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RelayEnv } from './env.js';
import { RelayError } from './errors.js';
import type { RedisConnection } from './redis-connection.js';

export interface RateLimit {
  points: number;
  seconds: number;
}

/**
 * How long any Redis call (a rate limit, an idempotency key) may take: a request makes at most two before the billing
 * is asked, so a Redis that stops answering costs it about a second. Redis answers in well under a millisecond.
 */
export const REDIS_TIMEOUT_MS = 500;

/** A memory limiter that refuses (503) a new key once it tracks `maxKeys`. */
class BoundedMemoryLimiter extends RateLimiterMemory {
  readonly #keys: Map<string, unknown>;

  constructor(
    options: IRateLimiterOptions,
    private readonly maxKeys: number,
  ) {
    super(options);
    // rate-limiter-flexible's memory storage: a Map of key → record, each deleted by its own timer when its window ends.
    const storage = (this as unknown as { _memoryStorage?: { _storage?: unknown } })._memoryStorage?._storage;
    if (!(storage instanceof Map))
      throw new Error('rate-limiter-flexible: the memory storage is not a Map (library changed)');
    this.#keys = storage as Map<string, unknown>;
  }

  override consume(
    key: string | number,
    points?: number,
    options?: { [key: string]: unknown },
  ): Promise<RateLimiterRes> {
    if (this.#keys.size >= this.maxKeys && !this.#keys.has(this.getKey(key))) {
      return Promise.reject(
        new RelayError(503, 'store_unavailable', 'The relay tracks as many clients as it may; try again in a moment.', {
          billingReached: false,
          retryAfterSeconds: this.duration,
        }),
      );
    }
    return super.consume(key, points, options);
  }
}

export function createLimiter(
  name: string,
  limit: RateLimit,
  redis?: RedisConnection,
  maxKeys = Number.POSITIVE_INFINITY,
  prefix = 'billing-pay:',
): RateLimiterAbstract {
  const options = { keyPrefix: `${prefix}rl:${name}`, points: limit.points, duration: limit.seconds };
  const memory = new BoundedMemoryLimiter(options, maxKeys);
  if (!redis) return memory;
  // Should Redis fail, or not answer within the deadline, each instance goes on limiting on its own rather than
  // letting everything through.
  return new RLWrapperTimeouts({
    limiter: new RateLimiterRedis({ ...options, storeClient: redis, useRedisPackage: true }),
    timeoutMs: REDIS_TIMEOUT_MS,
    insuranceLimiter: memory,
  }) as unknown as RateLimiterAbstract;
}

/** The relay's four limiters, in Redis when one is given, each bounded in memory by `RATE_LIMIT_MAX_KEYS`. */
export function createLimiters(
  config: LimitsConfig,
  redis?: RedisConnection,
): Record<LimiterName, RateLimiterAbstract> {
  const limiter = (name: string, limit: RateLimit) =>
    createLimiter(name, limit, redis, config.rateLimitMaxKeys, config.redisKeyPrefix);
  return {
    ip: limiter('ip', config.rateLimitIp),
    agreement: limiter('agreement', config.rateLimitAgreement),
    session: limiter('session', config.rateLimitSession),
    sessionIp: limiter('session-ip', config.rateLimitSessionIp),
  };
}

export type LimiterName = 'ip' | 'agreement' | 'session' | 'sessionIp';

/** The part of the relay's configuration the limiters read. */
interface LimitsConfig {
  rateLimitIp: RateLimit;
  rateLimitAgreement: RateLimit;
  rateLimitSession: RateLimit;
  rateLimitSessionIp: RateLimit;
  rateLimitMaxKeys: number;
  /** The start of the limiters' keys in Redis (`REDIS_KEY_PREFIX`). */
  redisKeyPrefix?: string;
}

/** Consumes one point of `limiter` under the key `keyOf(c)` gives (no key: not limited). */
export function rateLimit(
  limiter: RateLimiterAbstract,
  keyOf: (c: Context<RelayEnv>) => string | undefined,
  onReject?: () => void,
  message = 'Too many payment attempts; try again in a moment.',
) {
  return createMiddleware<RelayEnv>(async (c, next) => {
    const key = keyOf(c);
    if (key !== undefined) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        onReject?.();
        // Refused before the billing: the Idempotency-Key stays free for the retry.
        throw new RelayError(429, 'rate_limited', message, {
          billingReached: false,
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
    }
    await next();
  });
}
