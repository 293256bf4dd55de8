/**
 * Rate limits with rate-limiter-flexible: per client address group, per agreement lookup value, per client session
 * and, for lookups that find no agreement, per address group again (keys are keyed digests, keyed-hash.ts), in memory
 * or in Redis (shared by every relay instance). A refused request is a 429 with `Retry-After`.
 *
 * In memory, each limiter tracks at most `maxKeys` keys (each lives for its window): at the maximum a new key makes it
 * forget the oldest. A flood of distinct keys can neither grow the relay's memory without bound nor shut out a client
 * it has not seen; what it costs is the count of the key forgotten. In Redis, every call has a deadline
 * (`REDIS_TIMEOUT_MS`): a Redis that stops answering sends each instance to its own memory limiter within it, instead
 * of holding the request.
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
import type { RelayContext } from '../http/context.js';
import { RelayError } from '../http/errors.js';
import { REDIS_TIMEOUT_MS, type RedisConnection } from '../stores/redis-connection.js';

export interface RateLimit {
  points: number;
  seconds: number;
}

/**
 * A memory limiter that tracks at most `maxKeys` keys: past it, a new key makes it forget the oldest one. Every window
 * lasts `duration` from a key's first point, so the oldest key is the one nearest its end, the least count to lose.
 */
class BoundedMemoryLimiter extends RateLimiterMemory {
  /** Each key's window end (epoch ms), in the order the windows began. */
  readonly #ends = new Map<string, number>();

  constructor(
    options: IRateLimiterOptions,
    private readonly maxKeys: number,
  ) {
    super(options);
  }

  override consume(
    key: string | number,
    points?: number,
    options?: { [key: string]: unknown },
  ): Promise<RateLimiterRes> {
    this.#admit(String(key));
    return super.consume(key, points, options);
  }

  #admit(key: string): void {
    const now = Date.now();
    if ((this.#ends.get(key) ?? 0) > now) return;
    this.#ends.delete(key);
    for (const [oldest, end] of this.#ends) {
      if (end > now && this.#ends.size < this.maxKeys) break;
      this.#ends.delete(oldest);
      // Ended windows are gone from the library's store already (each by its own timer).
      if (end > now) void this.delete(oldest);
    }
    this.#ends.set(key, now + this.duration * 1000);
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

/** The relay's limiters, in Redis when one is given, each bounded in memory by `RATE_LIMIT_MAX_KEYS`. */
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
    notFound: limiter('not-found', config.rateLimitNotFound),
  };
}

export type LimiterName = 'ip' | 'agreement' | 'session' | 'sessionIp' | 'notFound';

/** The part of the relay's configuration the limiters read. */
interface LimitsConfig {
  rateLimitIp: RateLimit;
  rateLimitAgreement: RateLimit;
  rateLimitSession: RateLimit;
  rateLimitSessionIp: RateLimit;
  rateLimitNotFound: RateLimit;
  rateLimitMaxKeys: number;
  /** The start of the limiters' keys in Redis (`REDIS_KEY_PREFIX`). */
  redisKeyPrefix?: string;
}

/** Consumes one point of `limiter` under the key `keyOf(c)` gives (no key: not limited). */
export function rateLimit(
  limiter: RateLimiterAbstract,
  keyOf: (c: Context<RelayContext>) => string | undefined,
  onReject?: () => void,
  /** The table's (`rate_limited`) unless given. */
  message?: string,
) {
  return createMiddleware<RelayContext>(async (c, next) => {
    const key = keyOf(c);
    if (key !== undefined) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        onReject?.();
        // Refused before the billing: the Idempotency-Key stays free for the retry.
        throw new RelayError('rate_limited', {
          message,
          billingReached: false,
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
    }
    await next();
  });
}

/**
 * Limits the requests whose outcome `counts` picks (a lookup that found no agreement) rather than all of them: each
 * such outcome spends a point of `keyOf(c)`'s budget, and once it is spent every request under that key is refused
 * before it goes on. Concurrent requests may each pass the check before the first is counted: the limit per address
 * bounds how many.
 */
export function limitOutcome(
  limiter: RateLimiterAbstract,
  keyOf: (c: Context<RelayContext>) => string | undefined,
  counts: (outcome: unknown) => boolean,
  onReject?: () => void,
  message = 'Too many attempts with values that found nothing; try again later.',
) {
  return createMiddleware<RelayContext>(async (c, next) => {
    const key = keyOf(c);
    if (key === undefined) return next();
    const spent = await limiter.get(key);
    if (spent && spent.remainingPoints <= 0 && spent.msBeforeNext > 0) {
      onReject?.();
      throw new RelayError('rate_limited', {
        message,
        billingReached: false,
        retryAfterSeconds: Math.max(1, Math.ceil(spent.msBeforeNext / 1000)),
      });
    }
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failure = error;
    }
    if (counts(failure ?? c.error)) {
      // Over the budget already (a concurrent request), or a store that failed: the answer goes out all the same.
      await limiter.consume(key).catch(() => undefined);
    }
    if (failure !== undefined) throw failure;
  });
}
