/**
 * Recent payments in the relay's SQLite file (`STORE_FILE`), on a connection of their own beside the idempotency
 * store's: WAL with `synchronous = FULL`, so a mark is on disk before its payment leaves. Each step is one statement,
 * atomic for every process that shares the file. Expired marks are swept in small batches.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RecentClaim, RecentPaymentStore } from './store.js';

const BUSY_TIMEOUT_MS = 2_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1_000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS recent_payments (
    key TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    token TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS recent_payments_expiry ON recent_payments (expires_at);
`;

/** Opens (or creates) the table in the file at `path`; `:memory:` keeps it in this process only, for tests. */
export async function openSqliteRecentPayments(
  path: string,
  now: () => number = Date.now,
): Promise<SqliteRecentPayments> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; ${SCHEMA}`);
  return new SqliteRecentPayments(db, now);
}

export class SqliteRecentPayments implements RecentPaymentStore {
  readonly #db: DatabaseSync;
  readonly #claim: StatementSync;
  readonly #read: StatementSync;
  readonly #note: StatementSync;
  readonly #release: StatementSync;
  readonly #sweep: StatementSync;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    db: DatabaseSync,
    private readonly now: () => number,
  ) {
    this.#db = db;
    // A new mark, or one whose window has passed, is taken; a live one is left as it is (no row comes back).
    this.#claim = db.prepare(`
      INSERT INTO recent_payments (key, at, token, expires_at) VALUES (:key, :at, :token, :expires_at)
      ON CONFLICT (key) DO UPDATE SET at = excluded.at, token = excluded.token, expires_at = excluded.expires_at
      WHERE recent_payments.expires_at <= :now
      RETURNING key`);
    this.#read = db.prepare('SELECT at FROM recent_payments WHERE key = ? AND expires_at > ?');
    this.#note = db.prepare(`
      INSERT INTO recent_payments (key, at, token, expires_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET at = excluded.at, token = excluded.token, expires_at = excluded.expires_at`);
    this.#release = db.prepare('DELETE FROM recent_payments WHERE key = ? AND token = ?');
    this.#sweep = db.prepare(
      'DELETE FROM recent_payments WHERE key IN (SELECT key FROM recent_payments WHERE expires_at <= ? LIMIT ?)',
    );
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();
  }

  async claim(key: string, at: number, windowMs: number): Promise<RecentClaim> {
    const now = this.now();
    const token = randomUUID();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // all(), not get(): get() of INSERT … RETURNING hands back the row even when its commit failed (a full disk).
      if (this.#claim.all({ key, at, token, expires_at: now + windowMs, now }).length)
        return { kind: 'claimed', token };
      const row = this.#read.get(key, now) as { at: number } | undefined;
      if (row) return { kind: 'recent', at: Number(row.at) };
      // Released or expired between the two statements: claim it again.
    }
    throw new Error('recent payment mark kept changing');
  }

  async note(key: string, at: number, windowMs: number): Promise<void> {
    this.#note.run(key, at, randomUUID(), this.now() + windowMs);
  }

  async release(key: string, token: string): Promise<void> {
    this.#release.run(key, token);
  }

  /** Deletes expired marks, a batch at a time; a sweep that finds the file locked or the store closed stops. */
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

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    if (this.#db.isOpen) this.#db.close();
  }
}
