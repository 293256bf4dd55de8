/**
 * Recent payments in the relay's SQLite file (`STORE_FILE`), on a connection of their own beside the idempotency
 * store's (../sqlite.ts): a mark is on disk before its payment leaves. Each step is one statement, atomic for every
 * process that shares the file.
 */
import { randomUUID } from 'node:crypto';
import type { StatementSync } from 'node:sqlite';
import { SqliteTable } from '../sqlite.js';
import type { RecentClaim, RecentPaymentStore } from './store.js';

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
  return new SqliteRecentPayments(await SqliteTable.open(path, 'recent_payments', SCHEMA, now), now);
}

export class SqliteRecentPayments implements RecentPaymentStore {
  readonly #file: SqliteTable;
  readonly #sql: Record<'claim' | 'read' | 'note' | 'release', StatementSync>;

  constructor(
    file: SqliteTable,
    private readonly now: () => number,
  ) {
    this.#file = file;
    this.#sql = file.prepare({
      // A new mark, or one whose window has passed, is taken; a live one is left as it is (no row comes back).
      claim: `
        INSERT INTO recent_payments (key, at, token, expires_at) VALUES (:key, :at, :token, :expires_at)
        ON CONFLICT (key) DO UPDATE SET at = excluded.at, token = excluded.token, expires_at = excluded.expires_at
        WHERE recent_payments.expires_at <= :now
        RETURNING key`,
      read: 'SELECT at FROM recent_payments WHERE key = ? AND expires_at > ?',
      note: `
        INSERT INTO recent_payments (key, at, token, expires_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET at = excluded.at, token = excluded.token, expires_at = excluded.expires_at`,
      release: 'DELETE FROM recent_payments WHERE key = ? AND token = ?',
    });
  }

  async claim(key: string, at: number, windowMs: number): Promise<RecentClaim> {
    const now = this.now();
    const token = randomUUID();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // all(), not get(): get() of INSERT … RETURNING hands back the row even when its commit failed (a full disk).
      if (this.#sql.claim.all({ key, at, token, expires_at: now + windowMs, now }).length)
        return { kind: 'claimed', token };
      const row = this.#sql.read.get(key, now) as { at: number } | undefined;
      if (row) return { kind: 'recent', at: Number(row.at) };
      // Released or expired between the two statements: claim it again.
    }
    throw new Error('recent payment mark kept changing');
  }

  async note(key: string, at: number, windowMs: number): Promise<void> {
    this.#sql.note.run(key, at, randomUUID(), this.now() + windowMs);
  }

  async release(key: string, token: string): Promise<void> {
    this.#sql.release.run(key, token);
  }

  /** Deletes expired marks now (else every minute). */
  sweep(): void {
    this.#file.sweep();
  }

  async close(): Promise<void> {
    this.#file.close();
  }
}
