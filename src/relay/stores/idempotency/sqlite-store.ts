/**
 * Keys in an embedded SQLite database (Node's own `node:sqlite`, Node 22.13 and later, opened as ../sqlite.ts says):
 * the default of one instance. A claim and its sending mark are on disk before the payment leaves for the billing, so
 * neither SIGKILL nor a power cut can forget them. Memory stays that of SQLite's page cache however many keys are
 * kept. Several processes may share the file (a rolling deploy on one machine): each write is one atomic statement.
 *
 * Every write runs to its end (`run()`, never `get()`: a statement stepped once returns its row before its commit,
 * whose failure — a full disk, an I/O error — `get()` drops) and is judged by the rows it changed: a write that did
 * not reach the disk throws.
 */
import type { StatementSync } from 'node:sqlite';
import { changed, SqliteTable } from '../sqlite.js';
import { ClaimLostError, type Claim, type ClaimOptions, type IdempotencyStore, type StoredAnswer } from './store.js';

interface KeyRow {
  fingerprint: string;
  lease_until: number | null;
  sending: number;
  status: number | null;
  body: string | null;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    lease_until INTEGER,
    claim_id TEXT,
    sending INTEGER NOT NULL DEFAULT 1,
    status INTEGER,
    body TEXT,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at);
  CREATE TABLE IF NOT EXISTS store_probe (id INTEGER PRIMARY KEY, filler BLOB NOT NULL) STRICT;
`;

/** A file written before claims were marked: its claims count as sent (the safe side), as `sending`'s default says. */
const MIGRATE = `
  ALTER TABLE idempotency_keys ADD COLUMN claim_id TEXT;
  ALTER TABLE idempotency_keys ADD COLUMN sending INTEGER NOT NULL DEFAULT 1;
`;

/** What a probe writes: about a claim's row, so a file that takes it can take a claim. */
const PROBE_BYTES = 512;

/** Opens (or creates) the store at `path`; `:memory:` keeps it in this process only, for tests. */
export async function openSqliteStore(path: string, now: () => number = Date.now): Promise<SqliteIdempotencyStore> {
  const file = await SqliteTable.open(path, 'idempotency_keys', SCHEMA, now);
  const columns = file.db.prepare('SELECT name FROM pragma_table_info(?)').all('idempotency_keys');
  if (!columns.some((column) => column.name === 'sending')) file.db.exec(MIGRATE);
  return new SqliteIdempotencyStore(file, now);
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #file: SqliteTable;
  readonly #sql: Record<'claim' | 'read' | 'complete' | 'sending' | 'release' | 'probe' | 'unprobe', StatementSync>;

  constructor(
    file: SqliteTable,
    private readonly now: () => number,
  ) {
    this.#file = file;
    this.#sql = file.prepare({
      // A new key, one whose time is up, or one whose lease ran out unmarked is claimed; any other is left as it is (no
      // row changes). The same claim resent finds itself and is claimed again.
      claim: `
        INSERT INTO idempotency_keys (key, fingerprint, lease_until, claim_id, sending, status, body, expires_at)
        VALUES (:key, :fingerprint, :lease_until, :id, 0, NULL, NULL, :expires_at)
        ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = excluded.lease_until,
          claim_id = excluded.claim_id, sending = 0, status = NULL, body = NULL, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= :now
          OR (idempotency_keys.status IS NULL AND idempotency_keys.sending = 0
            AND (idempotency_keys.lease_until <= :now OR idempotency_keys.claim_id = :id))`,
      read: 'SELECT fingerprint, lease_until, sending, status, body FROM idempotency_keys WHERE key = ? AND expires_at > ?',
      sending: `
        UPDATE idempotency_keys SET sending = 1
        WHERE key = ? AND claim_id = ? AND status IS NULL AND lease_until > ? AND expires_at > ?`,
      complete: `
        INSERT INTO idempotency_keys (key, fingerprint, lease_until, status, body, expires_at) VALUES (?, ?, NULL, ?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = NULL, status = excluded.status,
          body = excluded.body, expires_at = excluded.expires_at`,
      release: 'DELETE FROM idempotency_keys WHERE key = ? AND claim_id = ? AND status IS NULL',
      probe: 'INSERT OR REPLACE INTO store_probe (id, filler) VALUES (1, zeroblob(?))',
      unprobe: 'DELETE FROM store_probe',
    });
  }

  async claim(key: string, fingerprint: string, { id, leaseMs, ttlMs }: ClaimOptions): Promise<Claim> {
    const now = this.now();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = { key, fingerprint, id, lease_until: now + leaseMs, expires_at: now + ttlMs, now };
      if (changed(this.#sql.claim.run(row))) return { kind: 'claimed' };
      const held = this.#sql.read.get(key, now) as KeyRow | undefined;
      if (held) return toClaim(held, now);
      // Released or expired between the two statements: claim it again.
    }
    return { kind: 'in_flight', fingerprint };
  }

  async sending(key: string, id: string): Promise<void> {
    const now = this.now();
    if (!changed(this.#sql.sending.run(key, id, now, now))) throw new ClaimLostError();
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    this.#sql.complete.run(key, fingerprint, answer.status, answer.body, this.now() + ttlMs);
  }

  async release(key: string, id: string): Promise<void> {
    this.#sql.release.run(key, id);
  }

  /** A write of a claim's size, committed, then taken back: what a claim needs of the file now. */
  async probe(): Promise<void> {
    this.#sql.probe.run(PROBE_BYTES);
    this.#sql.unprobe.run();
  }

  /** Deletes expired keys now (else every minute). */
  sweep(): void {
    this.#file.sweep();
  }

  /** Keys held now, expired or not. */
  get size(): number {
    return Number((this.#file.db.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n);
  }

  async close(): Promise<void> {
    this.#file.close();
  }
}

function toClaim(row: KeyRow, now: number): Claim {
  if (row.status !== null && row.body !== null) {
    return { kind: 'done', fingerprint: row.fingerprint, answer: { status: row.status, body: row.body } };
  }
  const leased = row.lease_until !== null && row.lease_until > now;
  return { kind: leased || !row.sending ? 'in_flight' : 'unknown', fingerprint: row.fingerprint };
}
