/**
 * Rate limits with rate-limiter-flexible: per client IP and per agreement lookup value, in memory or in Redis
 * (shared by every relay instance). A refused request is a 429 with `Retry-After`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { RelayError } from './errors.js';

export interface RateLimit {
  points: number;
  seconds: number;
}

export function createLimiter(name: string, limit: RateLimit, redis?: RedisClientType): RateLimiterAbstract {
  const options = { keyPrefix: `billing-pay:rl:${name}`, points: limit.points, duration: limit.seconds };
  if (!redis) return new RateLimiterMemory(options);
  // Should Redis fail, each instance goes on limiting on its own rather than letting everything through.
  return new RateLimiterRedis({ ...options, storeClient: redis, useRedisPackage: true, insuranceLimiter: new RateLimiterMemory(options) });
}

/** Consumes one point of `limiter` under the key `keyOf(c)` gives (no key: not limited). */
export function rateLimit(limiter: RateLimiterAbstract, keyOf: (c: Context) => string | undefined, onReject?: () => void): MiddlewareHandler {
  return async (c, next) => {
    const key = keyOf(c);
    if (key !== undefined) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        onReject?.();
        // Refused before the billing: the Idempotency-Key stays free for the retry.
        throw new RelayError(429, 'rate_limited', 'Too many payment attempts; try again in a moment.', {
          billingReached: false,
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
    }
    await next();
  };
}
