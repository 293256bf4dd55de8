/**
 * Keys in an embedded SQLite database (Node's own `node:sqlite`, Node 22.13 and later): the default of one instance.
 * WAL with `synchronous = FULL`: a claim and its sending mark are on disk before the payment leaves for the billing,
 * so neither SIGKILL nor a power cut can forget them. Memory stays that of SQLite's page cache however many keys are
 * kept; expired keys are swept in small batches. Several processes may share the file (a rolling deploy on one
 * machine): each write is one atomic statement, and a writer waits for the file's lock up to `BUSY_TIMEOUT_MS`.
 *
 * Every write runs to its end (`run()`, never `get()`: a statement stepped once returns its row before its commit,
 * whose failure — a full disk, an I/O error — `get()` drops) and is judged by the rows it changed: a write that did
 * not reach the disk throws. The file and its `-wal` and `-shm` are the owner's alone (0600).
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ClaimLostError, type Claim, type ClaimOptions, type IdempotencyStore, type StoredAnswer } from './store.js';

interface KeyRow {
  fingerprint: string;
  lease_until: number | null;
  sending: number;
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
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch {
    throw new Error(
      `The relay keeps its payment keys in node:sqlite, which Node ${process.version} lacks: run it on Node 22.13 or later, or give it REDIS_URL.`,
    );
  }
  if (path !== ':memory:' && path !== '') ownerOnly(path);
  const db = new sqlite.DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; ${SCHEMA}`);
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('idempotency_keys');
  if (!columns.some((column) => column.name === 'sending')) db.exec(MIGRATE);
  return new SqliteIdempotencyStore(db, now);
}

/**
 * Creates the file 0600 (whatever the umask) before SQLite opens it, and takes any group or other access from it and
 * its `-wal` and `-shm`: SQLite creates those two with the mode of the file.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #db: DatabaseSync;
  readonly #claim: StatementSync;
  readonly #read: StatementSync;
  readonly #complete: StatementSync;
  readonly #sending: StatementSync;
  readonly #release: StatementSync;
  readonly #sweep: StatementSync;
  readonly #probe: StatementSync;
  readonly #unprobe: StatementSync;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    db: DatabaseSync,
    private readonly now: () => number,
  ) {
    this.#db = db;
    // A new key, one whose time is up, or one whose lease ran out unmarked is claimed; any other is left as it is (no
    // row changes). The same claim resent finds itself and is claimed again.
    this.#claim = db.prepare(`
      INSERT INTO idempotency_keys (key, fingerprint, lease_until, claim_id, sending, status, body, expires_at)
      VALUES (:key, :fingerprint, :lease_until, :id, 0, NULL, NULL, :expires_at)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = excluded.lease_until,
        claim_id = excluded.claim_id, sending = 0, status = NULL, body = NULL, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= :now
        OR (idempotency_keys.status IS NULL AND idempotency_keys.sending = 0
          AND (idempotency_keys.lease_until <= :now OR idempotency_keys.claim_id = :id))`);
    this.#read = db.prepare(
      'SELECT fingerprint, lease_until, sending, status, body FROM idempotency_keys WHERE key = ? AND expires_at > ?',
    );
    this.#sending = db.prepare(`
      UPDATE idempotency_keys SET sending = 1
      WHERE key = ? AND claim_id = ? AND status IS NULL AND lease_until > ? AND expires_at > ?`);
    this.#complete = db.prepare(`
      INSERT INTO idempotency_keys (key, fingerprint, lease_until, status, body, expires_at) VALUES (?, ?, NULL, ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease_until = NULL, status = excluded.status,
        body = excluded.body, expires_at = excluded.expires_at`);
    this.#release = db.prepare('DELETE FROM idempotency_keys WHERE key = ? AND claim_id = ? AND status IS NULL');
    this.#sweep = db.prepare(
      'DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)',
    );
    this.#probe = db.prepare('INSERT OR REPLACE INTO store_probe (id, filler) VALUES (1, zeroblob(?))');
    this.#unprobe = db.prepare('DELETE FROM store_probe');
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();
  }

  async claim(key: string, fingerprint: string, { id, leaseMs, ttlMs }: ClaimOptions): Promise<Claim> {
    const now = this.now();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = { key, fingerprint, id, lease_until: now + leaseMs, expires_at: now + ttlMs, now };
      if (changed(this.#claim.run(row))) return { kind: 'claimed' };
      const held = this.#read.get(key, now) as KeyRow | undefined;
      if (held) return toClaim(held, now);
      // Released or expired between the two statements: claim it again.
    }
    return { kind: 'in_flight', fingerprint };
  }

  async sending(key: string, id: string): Promise<void> {
    const now = this.now();
    if (!changed(this.#sending.run(key, id, now, now))) throw new ClaimLostError();
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number): Promise<void> {
    this.#complete.run(key, fingerprint, answer.status, answer.body, this.now() + ttlMs);
  }

  async release(key: string, id: string): Promise<void> {
    this.#release.run(key, id);
  }

  /** A write of a claim's size, committed, then taken back: what a claim needs of the file now. */
  async probe(): Promise<void> {
    this.#probe.run(PROBE_BYTES);
    this.#unprobe.run();
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
  const leased = row.lease_until !== null && row.lease_until > now;
  return { kind: leased || !row.sending ? 'in_flight' : 'unknown', fingerprint: row.fingerprint };
}

const changed = ({ changes }: { changes: number | bigint }) => Number(changes) > 0;
