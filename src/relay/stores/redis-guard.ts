/**
 * Whether the relay's Redis keeps every key now. Every key the relay writes has a TTL, and `volatile-*` eviction (the
 * default of several managed Redis) drops exactly such keys first, `allkeys-*` any: an answered key evicted lets its
 * retry pay again. So only `noeviction` is accepted — Redis at `maxmemory` then refuses writes, and a claim it refuses
 * is a 503 before the billing. The policy is read at start, by each readiness probe, and again before a claim once
 * the last reading is `RECHECK_MS` old; keyed payments are refused while it is not `noeviction`.
 *
 * Managed services may hide `CONFIG` (then `INFO memory` tells), or both: the relay then cannot tell, warns, and serves
 * (refusing every keyed payment would stop a merchant who did set `noeviction`); docs/operating.md says so.
 */
import type { Logger } from 'pino';
import { ErrorReply } from 'redis';
import { withDeadline } from './idempotency/store.js';
import { REDIS_TIMEOUT_MS } from './redis-connection.js';

/** What the guard asks of the connection: read the policy, and prove that Redis takes a write. */
export interface RedisInspection {
  configGet(parameter: string): Promise<Record<string, unknown>>;
  info(section: string): Promise<unknown>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
}

/** The policy read (`null`: neither `CONFIG GET` nor `INFO` tells), or not read yet. */
type Reading = { policy: string | null; at: number } | undefined;

/** A Redis whose eviction policy may drop keys, or that could not be asked yet. */
export class RedisEvictionError extends Error {
  constructor(policy: string | undefined) {
    super(
      policy
        ? `Redis maxmemory-policy is ${policy}: it may evict idempotency keys; set noeviction (CONFIG SET maxmemory-policy noeviction).`
        : 'Redis maxmemory-policy has not been read yet.',
    );
    this.name = 'RedisEvictionError';
  }
}

const RECHECK_MS = 5_000;
const PROBE_TTL_MS = 60_000;

export class RedisGuard {
  #reading: Reading;
  #pending?: Promise<void>;

  constructor(
    private readonly redis: RedisInspection,
    private readonly logger: Logger,
    private readonly prefix: string,
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Before a claim: throws while the policy may evict (or was never read); reads it again once it is stale. */
  async admit(): Promise<void> {
    const reading = this.#reading;
    const stale = !reading || this.now() - reading.at >= RECHECK_MS;
    if (stale) {
      const refresh = this.refresh();
      // A safe reading holds while it is renewed: no claim waits for it.
      if (reading && safe(reading.policy)) refresh.catch(() => {});
      else await refresh.catch(() => {});
    }
    const policy = this.#reading?.policy;
    if (policy === undefined || !safe(policy)) throw new RedisEvictionError(policy ?? undefined);
  }

  /** Readiness: the policy read now, and a write taken (Redis at `maxmemory` under `noeviction` refuses it). */
  async check(): Promise<void> {
    const write = this.redis.set(`${this.prefix}readyz`, String(this.now()), { PX: PROBE_TTL_MS });
    await Promise.all([this.refresh(), withDeadline(write, this.timeoutMs, 'SET (readiness)')]);
    const policy = this.#reading?.policy;
    if (policy !== undefined && !safe(policy)) throw new RedisEvictionError(policy);
  }

  /** Reads the policy (one reading at a time) and logs each change of it. */
  refresh(): Promise<void> {
    return (this.#pending ??= this.#read().finally(() => (this.#pending = undefined)));
  }

  async #read(): Promise<void> {
    const policy = await withDeadline(this.#policy(), this.timeoutMs, 'maxmemory-policy');
    const was = this.#reading?.policy;
    this.#reading = { policy, at: this.now() };
    if (policy === was) return;
    if (policy === null) {
      this.logger.warn(
        'redis maxmemory-policy cannot be read (CONFIG GET and INFO refused): make sure it is noeviction, or keys may be evicted and their payments made twice',
      );
    } else if (!safe(policy)) {
      this.logger.error(
        { maxmemoryPolicy: policy },
        `redis maxmemory-policy is ${policy}: keys may be evicted, so keyed payments are refused (503) until it is noeviction — CONFIG SET maxmemory-policy noeviction (and in redis.conf, or the managed service's parameter group)`,
      );
    } else if (was !== undefined) {
      this.logger.info({ maxmemoryPolicy: policy }, 'redis maxmemory-policy is noeviction: keyed payments served');
    }
  }

  /** `CONFIG GET`, else `INFO memory`: a service that hides one may give the other. */
  async #policy(): Promise<string | null> {
    try {
      const value = (await this.redis.configGet('maxmemory-policy'))['maxmemory-policy'];
      if (typeof value === 'string' && value) return value;
    } catch (error) {
      if (!answered(error)) throw error;
    }
    try {
      const match = /^maxmemory_policy:(\S+)/m.exec(String(await this.redis.info('memory')));
      return match ? match[1]! : null;
    } catch (error) {
      if (!answered(error)) throw error;
      return null;
    }
  }
}

const safe = (policy: string | null) => policy === null || policy === 'noeviction';

/** An error Redis answered (the command is refused, renamed or unknown), not a connection's failure. */
function answered(error: unknown): boolean {
  return error instanceof ErrorReply;
}
