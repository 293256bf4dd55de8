/**
 * The relay's SQLite file (`STORE_FILE`, Node's own `node:sqlite`), as each store opens it: a connection of its own,
 * WAL with `synchronous = FULL` (a write is on disk before its payment leaves), a wait of `BUSY_TIMEOUT_MS` for
 * another process's lock (a rolling deploy on one machine), the file and its `-wal` and `-shm` the owner's alone
 * (0600), and the table's expired rows swept in small batches.
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

const BUSY_TIMEOUT_MS = 2_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1_000;

/** One store's connection to the file, for its `table` (whose rows have a `key` and an `expires_at`). */
export class SqliteTable {
  readonly #db: DatabaseSync;
  readonly #sweep: StatementSync;
  readonly #sweeper: NodeJS.Timeout;

  private constructor(
    db: DatabaseSync,
    table: string,
    private readonly now: () => number,
  ) {
    this.#db = db;
    this.#sweep = db.prepare(
      `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expires_at <= ? LIMIT ?)`,
    );
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();
  }

  /** Opens (or creates) the file at `path` with `schema`; `:memory:` keeps it in this process only, for tests. */
  static async open(path: string, table: string, schema: string, now: () => number): Promise<SqliteTable> {
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
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; ${schema}`);
    return new SqliteTable(db, table, now);
  }

  /** The store's statements, each prepared once. */
  prepare<Name extends string>(statements: Record<Name, string>): Record<Name, StatementSync> {
    const entries = Object.entries<string>(statements).map(([name, sql]) => [name, this.#db.prepare(sql)]);
    return Object.fromEntries(entries) as Record<Name, StatementSync>;
  }

  /** The connection, for what runs once (a migration, a count). */
  get db(): DatabaseSync {
    return this.#db;
  }

  /**
   * Deletes expired rows, a batch at a time, yielding between batches so payments go on meanwhile. A sweep that finds
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

  close(): void {
    clearInterval(this.#sweeper);
    if (this.#db.isOpen) this.#db.close();
  }
}

/** Whether a write changed a row: a write that did not reach the disk throws, one that found nothing to do changed none. */
export const changed = ({ changes }: { changes: number | bigint }): boolean => Number(changes) > 0;

/**
 * Creates the file 0600 (whatever the umask) before SQLite opens it, and takes any group or other access from it and
 * its `-wal` and `-shm`: SQLite creates those two with the mode of the file.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}
