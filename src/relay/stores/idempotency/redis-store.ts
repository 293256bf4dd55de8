/**
 * Keys in Redis, shared by every instance. A key is two Redis keys: its record (kept for the retention time) and its
 * lease (gone when the lease runs out, by Redis's own clock, so instances' clocks never matter). Each step is one Lua
 * script, atomic on the server: of any number of instances exactly one claims a key.
 *
 * Every command has a deadline of its own (`timeoutMs`): node-redis's command timeout covers only the wait to be
 * written, so a Redis that holds the socket open and never answers would otherwise hold the payment until it is back.
 *
 * Redis replicates asynchronously: a claim the primary took may die with it, and a replica promoted in its place would
 * then let a retry pay again. With `waitReplicas`, a claim, its sending mark and an answer are each followed by `WAIT`,
 * in one pipeline with their script (so on the same connection, to the same primary): a claim or a mark that not
 * enough replicas acknowledged within `waitTimeoutMs` is refused (and let go) — its payment never leaves — and an
 * answer not acknowledged is a failure to store it (the middleware tries again). A key is then read first, alone
 * (`GET`, no `WAIT`): the replay of an answered key never waits for replicas, and the `WAIT`-ed writes go on a
 * connection of their own (`waitConnection`), so a read is never queued behind a `WAIT` that replica lag stretches.
 */
import { randomUUID } from 'node:crypto';
import { REDIS_TIMEOUT_MS } from '../redis-connection.js';
import {
  ClaimLostError,
  StoreTimeoutError,
  withDeadline,
  type Claim,
  type ClaimOptions,
  type IdempotencyStore,
  type StoredAnswer,
} from './store.js';

interface EvalOptions {
  keys: string[];
  arguments: string[];
}

/** A script and a `WAIT` sent together (node-redis's `multi()`, run as a pipeline: no MULTI/EXEC). */
interface ScriptPipeline {
  eval(script: string, options: EvalOptions): ScriptPipeline;
  wait(replicas: number, timeoutMs: number): ScriptPipeline;
  execAsPipeline(): Promise<unknown[]>;
}

/** What the store needs of a Redis connection (a client, or a Sentinel-managed one). */
export interface RedisScripting {
  eval(script: string, options: EvalOptions): Promise<unknown>;
  multi(): ScriptPipeline;
  get(key: string): Promise<string | null>;
}

export interface RedisStoreOptions {
  /** How many replicas must acknowledge a claim and an answer (`WAIT`); 0: none asked for. */
  waitReplicas?: number;
  /** How long `WAIT` waits for them: well within the store's deadline. */
  waitTimeoutMs?: number;
  /** The connection the `WAIT`-ed writes go on (a blocked `WAIT` holds up what follows it on its connection). */
  waitConnection?: RedisScripting;
  /** Before each claim: throws while the Redis may lose keys (redis-guard.ts), so no payment leaves on it. */
  admit?: () => Promise<void>;
}

/** A write the primary took but not enough replicas acknowledged in time: it could be lost in a failover. */
export class StoreReplicationError extends Error {
  constructor(operation: string, acknowledged: number, wanted: number) {
    super(`${operation}: ${acknowledged} of ${wanted} replicas acknowledged the write in time.`);
    this.name = 'StoreReplicationError';
  }
}

/** `WAIT`'s time limit: a replica on the same network acknowledges within a millisecond or two. */
const WAIT_TIMEOUT_MS = 300;

/** `id`: the claim's; `sending`: marked before its request left. A record without an id counts as sent. */
type KeyRecord = { fingerprint: string; id?: string; sending?: true; answer?: StoredAnswer };

/**
 * KEYS: record, lease. ARGV: record, ttl ms, lease ms, this claim's id. Nil when claimed, else the record and whether
 * it is leased. A record whose lease ran out unmarked never reached the billing: it is claimed afresh. The lease holds
 * the claim's id: the same claim sent again — node-redis's Sentinel connection sends a command again on the new
 * primary when the old one died before answering it — finds its own lease and is claimed, not left in flight as
 * another's.
 */
const CLAIM = `
local record = redis.call('GET', KEYS[1])
if record then
  local lease = redis.call('GET', KEYS[2])
  if lease == ARGV[4] then return false end
  local held = cjson.decode(record)
  if lease or held.answer or held.sending or not held.id then return {record, lease and 1 or 0} end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
return false`;

/** KEYS: record, lease. ARGV: the claim's id. 1 once marked sending; 0 when the key is no longer the claim's. */
const SENDING = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
local record = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if not record or ttl <= 0 then return 0 end
local held = cjson.decode(record)
if held.answer or held.id ~= ARGV[1] then return 0 end
held.sending = true
redis.call('SET', KEYS[1], cjson.encode(held), 'PX', ttl)
return 1`;

/** KEYS: record, lease. ARGV: record with its answer, ttl ms. */
const COMPLETE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2])
return 1`;

/** KEYS: record, lease. ARGV: the claim's id. Deletes the claim, marked or not, unless it holds an answer. */
const RELEASE = `
local record = redis.call('GET', KEYS[1])
if not record then return 1 end
local held = cjson.decode(record)
if held.answer == nil and held.id == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1`;

/** KEYS: the probe key. ARGV: a value. Written, then read back. */
const PROBE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000)
return redis.call('GET', KEYS[1])`;

export class RedisIdempotencyStore implements IdempotencyStore {
  readonly #waitReplicas: number;
  readonly #waitTimeoutMs: number;
  readonly #waitConnection: RedisScripting;
  readonly #admit?: () => Promise<void>;

  constructor(
    private readonly redis: RedisScripting,
    private readonly prefix = 'billing-pay:',
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
    {
      waitReplicas = 0,
      waitTimeoutMs = Math.min(WAIT_TIMEOUT_MS, Math.floor(timeoutMs / 2)),
      waitConnection = redis,
      admit,
    }: RedisStoreOptions = {},
  ) {
    this.#waitReplicas = waitReplicas;
    this.#waitTimeoutMs = waitTimeoutMs;
    this.#waitConnection = waitConnection;
    this.#admit = admit;
  }

  async claim(key: string, fingerprint: string, { id, leaseMs, ttlMs }: ClaimOptions): Promise<Claim> {
    await this.#admit?.();
    if (this.#waitReplicas) {
      const [recordKey] = this.#keys(key);
      const text = await withDeadline(this.redis.get(recordKey), this.timeoutMs, 'read');
      const record = text === null ? undefined : (JSON.parse(text) as KeyRecord);
      if (record?.answer) return { kind: 'done', fingerprint: record.fingerprint, answer: record.answer };
    }
    const fresh = JSON.stringify({ fingerprint, id } satisfies KeyRecord);
    const claim = this.#write(CLAIM, key, [fresh, ttlMs, leaseMs, id]);
    let written: Written;
    try {
      written = await withDeadline(claim, this.timeoutMs, 'claim');
    } catch (error) {
      // Answered late, this claim is nobody's: the payment was refused (503) before the billing. Its key is let go,
      // so the client's retry once Redis is back is served, not told the outcome is unknown.
      if (error instanceof StoreTimeoutError) {
        void claim.then(async ({ reply }) => (reply === null ? this.release(key, id) : undefined)).catch(() => {});
      }
      throw error;
    }
    const { reply, acknowledged } = written;
    if (reply === null && acknowledged < this.#waitReplicas) {
      // On the primary alone, the claim would not outlive it: refused before the billing, and let go (a release that
      // fails leaves the key in flight, then unknown — never paid twice).
      await this.release(key, id).catch(() => {});
      throw new StoreReplicationError('claim', acknowledged, this.#waitReplicas);
    }
    if (reply === null) return { kind: 'claimed' };
    const [text, leased] = reply as [string, number];
    const record = JSON.parse(text) as KeyRecord;
    if (record.answer) return { kind: 'done', fingerprint: record.fingerprint, answer: record.answer };
    return { kind: leased ? 'in_flight' : 'unknown', fingerprint: record.fingerprint };
  }

  async sending(key: string, id: string): Promise<void> {
    const { reply, acknowledged } = await withDeadline(this.#write(SENDING, key, [id]), this.timeoutMs, 'sending');
    if (reply !== 1) throw new ClaimLostError();
    if (acknowledged < this.#waitReplicas) throw new StoreReplicationError('sending', acknowledged, this.#waitReplicas);
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    const record = JSON.stringify({ fingerprint, answer } satisfies KeyRecord);
    const write = this.#write(COMPLETE, key, [record, ttlMs]);
    const { acknowledged } = await withDeadline(write, this.timeoutMs, 'complete');
    if (acknowledged < this.#waitReplicas)
      throw new StoreReplicationError('complete', acknowledged, this.#waitReplicas);
  }

  async release(key: string, id: string): Promise<void> {
    await withDeadline(this.#run(RELEASE, key, [id]), this.timeoutMs, 'release');
  }

  /** A write and its read back, within the store's deadline. */
  async probe(): Promise<void> {
    const value = randomUUID();
    const probe = this.redis.eval(PROBE, { keys: [`${this.prefix}probe`], arguments: [value] });
    if ((await withDeadline(probe, this.timeoutMs, 'probe')) !== value)
      throw new Error('The store did not keep a write.');
  }

  /** The connection is the relay's: it closes it. */
  async close(): Promise<void> {}

  /** The script's reply, and how many replicas acknowledged it (`WAIT`, when asked for). */
  async #write(script: string, key: string, args: (string | number)[]): Promise<Written> {
    if (!this.#waitReplicas) return { reply: await this.#run(script, key, args), acknowledged: 0 };
    const [reply, acknowledged] = await this.#waitConnection
      .multi()
      .eval(script, this.#evalOptions(key, args))
      .wait(this.#waitReplicas, this.#waitTimeoutMs)
      .execAsPipeline();
    return { reply, acknowledged: Number(acknowledged) };
  }

  #run(script: string, key: string, args: (string | number)[]): Promise<unknown> {
    return this.redis.eval(script, this.#evalOptions(key, args));
  }

  #evalOptions(key: string, args: (string | number)[]): EvalOptions {
    return { keys: this.#keys(key), arguments: args.map(String) };
  }

  /** The key's record, and its lease. */
  #keys(key: string): [string, string] {
    return [`${this.prefix}idem:${key}`, `${this.prefix}idem-lease:${key}`];
  }
}

type Written = { reply: unknown; acknowledged: number };
