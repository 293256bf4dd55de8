/**
 * One billing token for a fleet of relays on one Redis. A billing may keep one live token per credential (each
 * `GET /auth` revoking the one before): instances that each fetched their own would revoke one another's. Here the
 * token lives in Redis and one instance at a time refreshes it, under a lock with a deadline; the others wait for it
 * and read it. After a 401 an instance first looks for a newer fleet token, and asks the billing only when the fleet
 * still holds the refused one.
 *
 * The token is stored sealed (AES-256-GCM, under a key derived by HKDF from `TOKEN_SECRET` or else from the billing
 * credentials), so Redis alone never yields a usable bearer. Should Redis fail, each instance goes on with a token
 * of its own. While the secret is rotated, the token is sealed under the current secret and the previous one (one
 * sealed copy each, current first) and opened under either, so instances still on the previous secret share it too.
 * An instance that finds a token sealed under no secret it knows uses a token of its own without writing it, until
 * the fleet's expires: two instances with unrelated secrets never take turns overwriting each other's.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { RedisConnection } from '../stores/redis-connection.js';
import { REDIS_TIMEOUT_MS } from '../stores/redis-connection.js';
import { withDeadline } from '../stores/idempotency/store.js';
import { tokenTimes, type IssuedToken, type TokenSource } from './token-cache.js';

export type RedisTokenCommands = Pick<RedisConnection, 'get' | 'set' | 'eval'>;

interface SharedToken {
  token: string;
  refreshAt: number;
  expiresAt: number;
}

export interface FleetTokenOptions {
  redis: RedisTokenCommands;
  /** The secrets the sealing keys are derived from: the current one, then the previous one while it is rotated. */
  secrets: readonly string[];
  /** Told once each time the fleet's token is found sealed under no secret this instance knows. */
  onForeignToken?: () => void;
  /** How long one instance may hold the refresh lock: longer than a `GET /auth` with its retries can take. */
  lockMs: number;
  prefix?: string;
  now?: () => number;
}

const POLL_MS = 50;
/** Deletes the lock only if it is still this instance's. */
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** What `#read` answers for a token sealed under no secret of this instance's. */
const FOREIGN = Symbol('foreign');

export class FleetTokenCache implements TokenSource {
  #current?: SharedToken;
  #refused?: string;
  #pending?: Promise<string>;
  #foreignTold = false;
  readonly #keys: Buffer[];
  readonly #tokenKey: string;
  readonly #lockKey: string;
  readonly #now: () => number;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly options: FleetTokenOptions,
  ) {
    const prefix = options.prefix ?? 'billing-pay:';
    this.#tokenKey = `${prefix}billing-token`;
    this.#lockKey = `${prefix}billing-token:lock`;
    this.#keys = options.secrets.map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, 'billing-pay fleet token', this.#tokenKey, 32)),
    );
    this.#now = options.now ?? Date.now;
  }

  async get(): Promise<string> {
    const current = this.#current;
    const now = this.#now();
    if (current && now < current.refreshAt) return current.token;
    const sync = (this.#pending ??= this.#sync().finally(() => (this.#pending = undefined)));
    // Inside the margin the old token still works: use it while the fleet renews it.
    if (current && now < current.expiresAt) {
      sync.catch(() => {});
      return current.token;
    }
    return sync;
  }

  invalidate(token: string): void {
    this.#refused = token;
    if (this.#current?.token === token) this.#current = undefined;
  }

  /** The fleet's token when it is usable; else this instance renews it, or waits for the one renewing it. */
  async #sync(): Promise<string> {
    const lockId = randomUUID();
    // Past a lock's deadline its holder is gone and the lock free: one more deadline to take it.
    const giveUpAt = this.#now() + 2 * this.options.lockMs;
    try {
      for (;;) {
        const shared = await this.#read();
        if (shared === FOREIGN) return await this.#own();
        if (shared && this.#usable(shared, shared.refreshAt)) return this.#keep(shared);
        if (await this.#lock(lockId)) {
          try {
            // Renewed by another instance just before the lock was taken?
            const again = await this.#read();
            if (again === FOREIGN) return await this.#own();
            if (again && this.#usable(again, again.refreshAt)) return this.#keep(again);
            return this.#keep(await this.#renew());
          } finally {
            await this.#unlock(lockId);
          }
        }
        // Another instance is renewing: its predecessor still serves until it expires.
        if (shared && this.#usable(shared, shared.expiresAt)) return this.#keep(shared);
        if (this.#now() >= giveUpAt) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (error) {
      if (!isRedisFailure(error)) throw error;
    }
    // Redis failed, or the renewing instance never finished: a token of this instance's own.
    return this.#own();
  }

  /** A token for this instance alone, never written to Redis. */
  async #own(): Promise<string> {
    const { token, lifetimeMs } = await this.issue();
    return this.#keep({ token, ...tokenTimes(this.#now(), lifetimeMs) });
  }

  #usable(shared: SharedToken, until: number): boolean {
    return shared.token !== this.#refused && this.#now() < until;
  }

  #keep(shared: SharedToken): string {
    this.#current = shared;
    return shared.token;
  }

  async #renew(): Promise<SharedToken> {
    const { token, lifetimeMs } = await this.issue();
    const shared = { token, ...tokenTimes(this.#now(), lifetimeMs) };
    const write = this.options.redis.set(this.#tokenKey, this.#seal(shared), { PX: Math.max(1, lifetimeMs) });
    // Unshared, the token still serves this instance: asking the billing again would revoke it for nothing.
    await this.#redis(write).catch(() => {});
    return shared;
  }

  async #read(): Promise<SharedToken | undefined | typeof FOREIGN> {
    const sealed = await this.#redis(this.options.redis.get(this.#tokenKey));
    if (typeof sealed !== 'string') return undefined;
    const shared = this.#open(sealed);
    if (shared) this.#foreignTold = false;
    else if (!this.#foreignTold) {
      this.#foreignTold = true;
      this.options.onForeignToken?.();
    }
    return shared ?? FOREIGN;
  }

  async #lock(lockId: string): Promise<boolean> {
    const set = this.options.redis.set(this.#lockKey, lockId, { NX: true, PX: this.options.lockMs });
    return (await this.#redis(set)) === 'OK';
  }

  async #unlock(lockId: string): Promise<void> {
    await this.#redis(this.options.redis.eval(UNLOCK, { keys: [this.#lockKey], arguments: [lockId] })).catch(() => {});
  }

  #redis<T>(command: Promise<T>): Promise<T> {
    return withDeadline(command, REDIS_TIMEOUT_MS, 'token').catch((error: unknown) => {
      throw new RedisFailure(error);
    });
  }

  /**
   * One copy per key, joined by `.`: each iv (12 bytes) · tag (16) · ciphertext, base64url; the Redis key is the
   * associated data. With one secret, one copy.
   */
  #seal(shared: SharedToken): string {
    const plain = JSON.stringify(shared);
    return this.#keys
      .map((key) => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(this.#tokenKey));
        const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
        return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
      })
      .join('.');
  }

  /** The token, or `undefined` when no copy is sealed under a key of this instance's (another secret, tampering). */
  #open(sealed: string): SharedToken | undefined {
    for (const copy of sealed.split('.')) {
      for (const key of this.#keys) {
        try {
          const bytes = Buffer.from(copy, 'base64url');
          const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
          decipher.setAAD(Buffer.from(this.#tokenKey)).setAuthTag(bytes.subarray(12, 28));
          const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
          return JSON.parse(text) as SharedToken;
        } catch {
          // Not this key: the next one.
        }
      }
    }
    return undefined;
  }
}

class RedisFailure extends Error {
  constructor(cause: unknown) {
    super('Redis failed while sharing the billing token', { cause });
    this.name = 'RedisFailure';
  }
}

const isRedisFailure = (error: unknown) => error instanceof RedisFailure;
