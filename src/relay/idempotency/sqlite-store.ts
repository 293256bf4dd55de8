/**
 * Keys in an embedded SQLite database (Node's own `node:sqlite`, Node 22.13 and later): the default of one instance.
 * WAL with `synchronous = FULL`: a claim is on disk before its payment leaves for the billing, so neither SIGKILL nor a
 * power cut can forget it. Memory stays that of SQLite's page cache however many keys are kept; expired keys are swept
 * in small batches. Several processes may share the file (a rolling deploy on one machine): each write is one atomic
 * statement, and a writer waits for the file's lock up to `BUSY_TIMEOUT_MS`.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Claim, ClaimTimes, IdempotencyStore, StoredAnswer } from './store.js';

interface KeyRow {
  fingerprint: string;
  lease_until: number | null;
  status: number | null;
  body: string | null;
}

const BUSY_TIMEOUT_MS = 2_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1_000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    lease_until INTEGER,
    status INTEGER,
    body TEXT,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
`;

/** Opens (or creates) the store at `path`; `:memory:` keeps it in this process only, for tests. */
export async function openSqliteStore(path: string, now: () => number = Date.now): Promise<SqliteIdempotencyStore> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch {
    throw new Error(
      `The relay keeps its payment keys in node:sqlite, which Node ${process.version} lacks: run it on Node 22.13 or later, or give it REDIS_URL.`,
    );
  }
  const db = new sqlite.DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; ${SCHEMA}`);
  return new SqliteIdempotencyStore(db, now);
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #db: DatabaseSync;
  readonly #claim: StatementSync;
  readonly #read: StatementSync;
  readonly #complete: StatementSync;
  readonly #release: StatementSync;
  readonly #sweep: StatementSync;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    db: DatabaseSync,
    private readonly now: () => number,
  ) {
    this.#db = db;
    // A new key, or one whose time is up, is claimed; a live one is left as it is (no row comes back).
    this.#claim = db.prepare(`
      INSERT INTO idempotency_keys (key, fingerprint, lease_until, status, body, expires_at)
      VALUES (:key, :fingerprint, :lease_until, NULL, NULL, :expires_at)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = excluded.lease_until,
        status = NULL, body = NULL, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= :now
      RETURNING key`);
    this.#read = db.prepare(
      'SELECT fingerprint, lease_until, status, body FROM idempotency_keys WHERE key = ? AND expires_at > ?',
    );
    this.#complete = db.prepare(`
      INSERT INTO idempotency_keys (key, fingerprint, lease_until, status, body, expires_at) VALUES (?, ?, NULL, ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = NULL, status = excluded.status,
        body = excluded.body, expires_at = excluded.expires_at`);
    this.#release = db.prepare('DELETE FROM idempotency_keys WHERE key = ? AND status IS NULL');
    this.#sweep = db.prepare(
      'DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)',
    );
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();
  }

  async claim(key: string, fingerprint: string, { leaseMs, ttlMs }: ClaimTimes): Promise<Claim> {
    const now = this.now();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claimed = this.#claim.get({ key, fingerprint, lease_until: now + leaseMs, expires_at: now + ttlMs, now });
      if (claimed) return { kind: 'claimed' };
      const row = this.#read.get(key, now) as KeyRow | undefined;
      if (row) return toClaim(row, now);
      // Released or expired between the two statements: claim it again.
    }
    return { kind: 'in_flight', fingerprint };
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    this.#complete.run(key, fingerprint, answer.status, answer.body, this.now() + ttlMs);
  }

  async release(key: string): Promise<void> {
    this.#release.run(key);
  }

  /**
   * Deletes expired keys, a batch at a time, yielding between batches so payments go on meanwhile. A sweep that finds
   * the file locked by another process, or the store closed, stops: the next one comes in a minute.
   */
  sweep(): void {
    if (!this.#db.isOpen) return;
    let changes: number | bigint;
    try {
      ({ changes } = this.#sweep.run(this.now(), SWEEP_BATCH));
    } catch {
      return;
    }
    if (Number(changes) === SWEEP_BATCH) setImmediate(() => this.sweep());
  }

  /** Keys held now, expired or not. */
  get size(): number {
    return Number((this.#db.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    if (this.#db.isOpen) this.#db.close();
  }
}

function toClaim(row: KeyRow, now: number): Claim {
  if (row.status !== null && row.body !== null) {
    return { kind: 'done', fingerprint: row.fingerprint, answer: { status: row.status, body: row.body } };
  }
  return {
    kind: row.lease_until !== null && row.lease_until > now ? 'in_flight' : 'unknown',
    fingerprint: row.fingerprint,
  };
}
