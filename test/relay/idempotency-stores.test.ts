/**
 * The idempotency stores against their contract (src/relay/stores/idempotency/store.ts), each on its own: one suite run on
 * SQLite in memory (with a clock of the test's own), SQLite in a file (two connections, the real clock) and Redis (two
 * clients of a private redis-server, redis-server.ts, whose own clock runs the leases). Then what only one store has:
 * SQLite's file across a close and a reopen, its modes, a disk that takes no more writes, its sweep and truly parallel
 * writers (worker threads); Redis that stops answering mid-claim or mid-mark (SIGSTOP), and its probe.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { createClient, type RedisClientType } from 'redis';
import { RedisIdempotencyStore, type RedisScripting } from '../../src/relay/stores/idempotency/redis-store.js';
import { openSqliteStore, type SqliteIdempotencyStore } from '../../src/relay/stores/idempotency/sqlite-store.js';
import {
  ClaimLostError,
  StoreTimeoutError,
  type Claim,
  type IdempotencyStore,
  type StoredAnswer,
} from '../../src/relay/stores/idempotency/store.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

/** Leases short enough to wait out for real; every wait keeps at least 100 ms away from the edge it tests. */
const LEASE_MS = 150;
const PAST_LEASE_MS = LEASE_MS + 100;

const ANSWER: StoredAnswer = {
  status: 201,
  body: ` ${JSON.stringify({ id: 'pay-1', note: 'Grüße, "quoted", \\ back\u2028slash 💶', pad: 'x'.repeat(20_000) })}\n`,
};

interface Backend {
  store: Tracked;
  /** Another connection to the same keys (for SQLite in memory, which no other connection can see: the same store). */
  other: Tracked;
  /** Lets `ms` pass for the store: a test clock moved on, or real waiting. */
  elapse(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Every claim's id, by key: the one a test's `sending` and `release` speak for, as the middleware keeps its own. */
const claimIds = new Map<string, string>();

/** A store whose every claim has an id of its own, remembered for its key when it claims it. */
function tracked(store: IdempotencyStore) {
  return {
    raw: store,
    async claim(key: string, fingerprint: string, times: { leaseMs: number; ttlMs: number }): Promise<Claim> {
      const id = randomUUID();
      const claim = await store.claim(key, fingerprint, { id, ...times });
      if (claim.kind === 'claimed') claimIds.set(key, id);
      return claim;
    },
    sending: (key: string) => store.sending(key, claimIds.get(key) ?? 'none'),
    release: (key: string) => store.release(key, claimIds.get(key) ?? 'none'),
    complete: (key: string, fingerprint: string, answer: StoredAnswer, ttlMs: number) =>
      store.complete(key, fingerprint, answer, ttlMs),
    close: () => store.close(),
  };
}
type Tracked = ReturnType<typeof tracked>;

const claimed: Claim = { kind: 'claimed' };
const inFlight = (fingerprint: string): Claim => ({ kind: 'in_flight', fingerprint });
const unknown = (fingerprint: string): Claim => ({ kind: 'unknown', fingerprint });
const done = (fingerprint: string, answer: StoredAnswer = ANSWER): Claim => ({ kind: 'done', fingerprint, answer });

/** How a worker thread imports the TypeScript of src/ (tsx's loader is not inherited by a thread's code). */
const WORKER_ENV = {
  tsx: import.meta.resolve('tsx/esm/api'),
  module: new URL('../../src/relay/stores/idempotency/sqlite-store.ts', import.meta.url).href,
};
const IMPORT_STORE = `const { openSqliteStore } = await (await import(workerData.tsx)).tsImport(workerData.module, workerData.module);`;

/** A temporary directory of its own, removed by `after`. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idempotency-stores-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A clock for a SQLite store that moves only when told. */
function testClock() {
  let t = Date.now();
  return { now: () => t, elapse: async (ms: number) => void (t += ms) };
}

async function redisClient(url: string): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url });
  client.on('error', () => {}); // a frozen server's socket is not an error of these tests
  await client.connect();
  return client;
}

/** The contract every store keeps, whatever holds its keys. */
function contract(name: string, setup: () => Promise<Backend>) {
  describe(`idempotency store contract: ${name}`, () => {
    let b: Backend;
    before(async () => {
      b = await setup();
    });
    after(() => b?.close());

    it('a claim marked sending: in flight while its lease lasts, past it unknown until its TTL ends', async () => {
      const key = randomUUID();
      const times = { leaseMs: LEASE_MS, ttlMs: 1_000 };
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), claimed);
      await b.store.sending(key);
      // The fingerprint is the first claim's, whoever asks and with whatever request.
      assert.deepEqual(await b.other.claim(key, 'fp-B', times), inFlight('fp-A'));
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), inFlight('fp-A'));
      await b.elapse(PAST_LEASE_MS); // 250 ms
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), unknown('fp-A'));
      assert.deepEqual(await b.other.claim(key, 'fp-B', times), unknown('fp-A'));
      // Asking again neither claims it nor lengthens its life: the TTL counts from the first claim.
      await b.elapse(250); // 500 ms
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), unknown('fp-A'));
      assert.deepEqual(await b.other.claim(key, 'fp-A', times), unknown('fp-A'));
      await b.elapse(600); // 1 100 ms: past the TTL (a TTL counted again from a later claim would not be)
      assert.deepEqual(await b.other.claim(key, 'fp-C', times), claimed);
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), inFlight('fp-C'));
    });

    it('a claim never marked is free once its lease ends; the old claim can no longer mark it', async () => {
      const key = randomUUID();
      const [first, retry] = [randomUUID(), randomUUID()];
      const times = { leaseMs: LEASE_MS, ttlMs: 10_000 };
      assert.deepEqual(await b.store.raw.claim(key, 'fp-A', { id: first, ...times }), claimed);
      assert.deepEqual(await b.other.claim(key, 'fp-A', times), inFlight('fp-A'));
      await b.elapse(PAST_LEASE_MS);
      assert.deepEqual(await b.other.raw.claim(key, 'fp-A', { id: retry, ...times }), claimed);
      await assert.rejects(b.store.raw.sending(key, first), ClaimLostError);
      await b.store.raw.release(key, first); // not the first claim's to let go any more
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), inFlight('fp-A'));
      await b.other.raw.sending(key, retry);
      await b.elapse(PAST_LEASE_MS);
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), unknown('fp-A'));
      // The same claim sent again (a resend on a new connection) finds itself: claimed, not in flight.
      const resent = randomUUID();
      const other = randomUUID();
      assert.deepEqual(await b.store.raw.claim(other, 'fp-A', { id: resent, ...times }), claimed);
      assert.deepEqual(await b.other.raw.claim(other, 'fp-A', { id: resent, ...times }), claimed);
    });

    it('a completed key is done with exactly the stored answer, past its lease and past the claim’s TTL', async () => {
      const key = randomUUID();
      const empty = randomUUID();
      const times = { leaseMs: LEASE_MS, ttlMs: 400 };
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), claimed);
      assert.deepEqual(await b.store.claim(empty, 'fp-E', times), claimed);
      // The answer's TTL counts from its completion and replaces the claim's.
      await b.store.complete(key, 'fp-A', ANSWER, 5_000);
      await b.store.complete(empty, 'fp-E', { status: 502, body: '' }, 5_000);
      assert.deepEqual(await b.other.claim(key, 'fp-B', times), done('fp-A'));
      await b.elapse(500);
      assert.deepEqual(await b.other.claim(key, 'fp-B', times), done('fp-A'));
      assert.deepEqual(await b.store.claim(key, 'fp-A', times), done('fp-A'));
      assert.deepEqual(await b.store.claim(empty, 'fp-E', times), done('fp-E', { status: 502, body: '' }));
    });

    it('release frees a key in flight or unknown, never a completed one', async () => {
      const [leased, lapsed, answered] = [randomUUID(), randomUUID(), randomUUID()];
      const times = { leaseMs: LEASE_MS, ttlMs: 10_000 };
      assert.deepEqual(await b.store.claim(lapsed, 'fp-A', times), claimed);
      await b.store.sending(lapsed);
      assert.deepEqual(await b.store.claim(answered, 'fp-A', times), claimed);
      await b.store.complete(answered, 'fp-A', ANSWER, 10_000);
      await b.elapse(PAST_LEASE_MS);
      assert.deepEqual(await b.store.claim(lapsed, 'fp-A', times), unknown('fp-A'));

      assert.deepEqual(await b.store.claim(leased, 'fp-A', times), claimed);
      await b.store.release(leased);
      assert.deepEqual(await b.other.claim(leased, 'fp-B', times), claimed);
      assert.deepEqual(await b.store.claim(leased, 'fp-A', times), inFlight('fp-B'));

      await b.store.release(lapsed);
      assert.deepEqual(await b.other.claim(lapsed, 'fp-B', times), claimed);

      await b.store.release(answered);
      await b.other.release(answered);
      assert.deepEqual(await b.store.claim(answered, 'fp-B', times), done('fp-A'));

      await b.store.release(randomUUID()); // a key no one holds: nothing to do, no failure
    });

    it('past its TTL a key, claimed or completed, is claimed anew', async () => {
      const [held, answered] = [randomUUID(), randomUUID()];
      const times = { leaseMs: 100, ttlMs: 300 };
      assert.deepEqual(await b.store.claim(held, 'fp-A', times), claimed);
      assert.deepEqual(await b.store.claim(answered, 'fp-A', times), claimed);
      await b.store.complete(answered, 'fp-A', ANSWER, 300);
      assert.deepEqual(await b.other.claim(answered, 'fp-B', times), done('fp-A'));
      await b.elapse(400);
      const fresh = { leaseMs: LEASE_MS, ttlMs: 10_000 };
      assert.deepEqual(await b.other.claim(held, 'fp-B', fresh), claimed);
      assert.deepEqual(await b.other.claim(answered, 'fp-B', fresh), claimed);
      // A new claim with a lease of its own, and nothing left of the old answer.
      assert.deepEqual(await b.store.claim(held, 'fp-A', fresh), inFlight('fp-B'));
      assert.deepEqual(await b.store.claim(answered, 'fp-A', fresh), inFlight('fp-B'));
    });

    for (const [label, storeFor] of [
      ['one connection', (b: Backend) => b.store],
      ['two connections', (b: Backend, i: number) => (i % 2 ? b.other : b.store)],
    ] as const) {
      it(`50 concurrent claims of one key (${label}): exactly one claims it, all others see its claim`, async () => {
        const key = randomUUID();
        const times = { leaseMs: 10_000, ttlMs: 60_000 };
        const claims = await Promise.all(
          Array.from({ length: 50 }, (_, i) => storeFor(b, i).claim(key, `fp-${i}`, times)),
        );
        const winners = claims.flatMap((claim, i) => (claim.kind === 'claimed' ? [i] : []));
        assert.equal(winners.length, 1, `claimed by ${winners.length}: ${JSON.stringify(claims)}`);
        const winner = `fp-${winners[0]}`;
        for (const [i, claim] of claims.entries()) {
          if (i !== winners[0]) assert.deepEqual(claim, inFlight(winner), `claim ${i}`);
        }
        // Once completed, every one of 50 concurrent claims is the same answer.
        await storeFor(b, 1).complete(key, winner, ANSWER, 60_000);
        const replays = await Promise.all(Array.from({ length: 50 }, (_, i) => storeFor(b, i).claim(key, 'x', times)));
        assert.deepEqual(replays, Array(50).fill(done(winner)));
      });
    }
  });
}

contract('SQLite in memory (test clock)', async () => {
  const clock = testClock();
  const store = tracked(await openSqliteStore(':memory:', clock.now));
  return { store, other: store, elapse: clock.elapse, close: () => store.close() };
});

contract('SQLite file, two connections (real clock)', async () => {
  const file = join(tempDir(), 'keys.db');
  const store = tracked(await openSqliteStore(file));
  const other = tracked(await openSqliteStore(file));
  return {
    store,
    other,
    elapse: (ms) => sleep(ms),
    close: async () => {
      await store.close();
      await other.close();
    },
  };
});

let redis: RedisServer | undefined;
before(async () => {
  redis = await startRedisServer();
});
after(() => redis?.stop());

contract('Redis, two clients (Redis’s clock)', async () => {
  const [one, two] = [await redisClient(redis!.url), await redisClient(redis!.url)];
  return {
    store: tracked(new RedisIdempotencyStore(one)),
    other: tracked(new RedisIdempotencyStore(two)),
    elapse: (ms) => sleep(ms),
    close: async () => {
      await one.close();
      await two.close();
    },
  };
});

describe('SQLite store: its file', () => {
  it('survives a close and a reopen: a claimed key is never claimable again, a completed one replays', async () => {
    const file = join(tempDir(), 'keys.db');
    const clock = testClock();
    const times = { leaseMs: 1_000, ttlMs: 60_000 };
    const [held, answered] = [randomUUID(), randomUUID()];
    const first = tracked(await openSqliteStore(file, clock.now));
    assert.deepEqual(await first.claim(held, 'fp-A', times), claimed);
    await first.sending(held);
    assert.deepEqual(await first.claim(answered, 'fp-A', times), claimed);
    await first.complete(answered, 'fp-A', ANSWER, 60_000);
    await first.close();

    const second = tracked(await openSqliteStore(file, clock.now));
    assert.equal((second.raw as SqliteIdempotencyStore).size, 2);
    assert.deepEqual(await second.claim(held, 'fp-B', times), inFlight('fp-A'));
    assert.deepEqual(await second.claim(answered, 'fp-B', times), done('fp-A'));
    await clock.elapse(2_000); // past the lease: its holder is gone, the outcome unknown
    assert.deepEqual(await second.claim(held, 'fp-B', times), unknown('fp-A'));
    await second.close();

    const third = tracked(await openSqliteStore(file, clock.now));
    assert.deepEqual(await third.claim(held, 'fp-B', times), unknown('fp-A'));
    assert.deepEqual(await third.claim(answered, 'fp-B', times), done('fp-A'));
    await clock.elapse(60_000); // past the TTL
    assert.deepEqual(await third.claim(held, 'fp-B', times), claimed);
    await third.close();
  });

  it('its file, -wal and -shm are the owner’s alone (0600), whatever the umask; an older 0644 file is made so', async () => {
    const dir = tempDir();
    const old = process.umask(0o022);
    try {
      const file = join(dir, 'keys.db');
      const store = await openSqliteStore(file);
      await store.claim(randomUUID(), 'fp-A', { id: randomUUID(), leaseMs: 1_000, ttlMs: 60_000 });
      const modes = (path: string) => ['', '-wal', '-shm'].map((end) => statSync(path + end).mode & 0o777);
      assert.deepEqual(modes(file), [0o600, 0o600, 0o600]);
      await store.close();

      const loose = join(dir, 'loose.db');
      const looseStore = await openSqliteStore(loose);
      await looseStore.claim(randomUUID(), 'fp-A', { id: randomUUID(), leaseMs: 1_000, ttlMs: 60_000 });
      for (const end of ['', '-wal', '-shm']) chmodSync(loose + end, 0o644);
      const again = await openSqliteStore(loose);
      assert.deepEqual(modes(loose), [0o600, 0o600, 0o600]);
      await again.close();
      await looseStore.close();
    } finally {
      process.umask(old);
    }
  });

  it('writers in parallel threads on one file: each key is claimed exactly once', { timeout: 10_000 }, async () => {
    const file = join(tempDir(), 'keys.db');
    const workers = 4;
    const keys = Array.from({ length: 50 }, () => randomUUID());
    const gate = new SharedArrayBuffer(4);
    // Each thread opens the file, waits for all the others to have opened it, then claims every key (in an order of
    // its own); all at once, not one after the other as the connections of one thread do.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      (async () => {
        ${IMPORT_STORE}
        const store = await openSqliteStore(workerData.file);
        const gate = new Int32Array(workerData.gate);
        Atomics.add(gate, 0, 1);
        while (Atomics.load(gate, 0) < workerData.workers) Atomics.wait(gate, 0, Atomics.load(gate, 0), 5);
        const claims = {};
        for (const key of workerData.keys) claims[key] = await store.claim(key, workerData.fingerprint, { ...workerData.times, id: crypto.randomUUID() });
        await store.close();
        parentPort.postMessage(claims);
      })();`;
    const results = await Promise.all(
      Array.from(
        { length: workers },
        (_, w) =>
          new Promise<Record<string, Claim>>((resolve, reject) => {
            const order = w % 2 ? [...keys].reverse() : keys.slice(w).concat(keys.slice(0, w));
            const worker = new Worker(code, {
              eval: true,
              workerData: {
                ...WORKER_ENV,
                file,
                gate,
                workers,
                keys: order,
                fingerprint: `fp-${w}`,
                times: { leaseMs: 10_000, ttlMs: 60_000 },
              },
            });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    const check = tracked(await openSqliteStore(file));
    for (const key of keys) {
      const claims = results.map((r) => r[key]);
      const winners = claims.flatMap((claim, w) => (claim?.kind === 'claimed' ? [w] : []));
      assert.equal(winners.length, 1, `${key}: ${JSON.stringify(claims)}`);
      for (const [w, claim] of claims.entries()) {
        if (w !== winners[0]) assert.deepEqual(claim, inFlight(`fp-${winners[0]}`), `${key}, thread ${w}`);
      }
      assert.deepEqual(await check.claim(key, 'x', { leaseMs: 1, ttlMs: 1 }), inFlight(`fp-${winners[0]}`));
    }
    assert.equal((check.raw as SqliteIdempotencyStore).size, keys.length);
    await check.close();
  });
});

describe('SQLite store: a disk that takes no more writes', () => {
  it('every write throws (claim, mark, answer, release, probe), never reports success; with room, all work again', async () => {
    // In a process of its own, SIGXFSZ ignored: past its file size limit (set on itself with prlimit) a write fails
    // as on a full disk, after SQLite has done the statement's work in memory, at its commit.
    const code = `
      import { execFileSync } from 'node:child_process';
      import { statSync } from 'node:fs';
      const { tsImport } = await import(process.env.TSX);
      const { openSqliteStore } = await tsImport(process.env.MODULE, process.env.MODULE);
      const file = process.env.FILE;
      const limit = (size) => execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=' + size + ':']);
      const times = (id) => ({ id, leaseMs: 60000, ttlMs: 600000 });
      const store = await openSqliteStore(file);
      await store.claim('held', 'fp', times('c1'));
      await store.claim('sent', 'fp', times('c2'));
      await store.sending('sent', 'c2');
      const outcome = async (write) => write().then(() => 'done', (error) => 'threw: ' + error.message);
      const writes = {
        claim: () => store.claim('new', 'fp', times('c3')),
        sending: () => store.sending('held', 'c1'),
        complete: () => store.complete('sent', 'fp', { status: 201, body: '{}' }, 600000),
        release: () => store.release('held', 'c1'),
        probe: () => store.probe(),
      };
      const full = {};
      limit(statSync(file + '-wal').size);
      for (const [name, write] of Object.entries(writes)) full[name] = await outcome(write);
      limit('unlimited');
      const room = {};
      for (const [name, write] of Object.entries(writes)) room[name] = await outcome(write);
      console.log(JSON.stringify({ full, room }));
      await store.close();`;
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        '/bin/sh',
        ['-c', `trap '' XFSZ; exec "$@"`, 'sh', process.execPath, '--input-type=module', '-e', code],
        { env: { ...process.env, TSX: WORKER_ENV.tsx, MODULE: WORKER_ENV.module, FILE: join(tempDir(), 'keys.db') } },
      );
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.once('exit', (exitCode) =>
        exitCode === 0 ? resolve(out) : reject(new Error(`exited ${exitCode}: ${out}`)),
      );
    });
    const { full, room } = JSON.parse(output) as Record<'full' | 'room', Record<string, string>>;
    for (const [write, outcome] of Object.entries(full!)) assert.match(outcome, /^threw: /, `${write} on a full disk`);
    assert.deepEqual(room, { claim: 'done', sending: 'done', complete: 'done', release: 'done', probe: 'done' });
  });
});

describe('SQLite store: sweep', () => {
  it('removes expired keys, claimed or completed, and keeps live ones', async () => {
    const clock = testClock();
    const sqlite = await openSqliteStore(':memory:', clock.now);
    const store = Object.assign(tracked(sqlite), { sweep: () => sqlite.sweep(), size: () => sqlite.size });
    const short = { leaseMs: 100, ttlMs: 1_000 };
    const long = { leaseMs: 100, ttlMs: 10_000 };
    const [old1, old2, oldDone, live, liveDone] = Array.from({ length: 5 }, () => randomUUID());
    for (const key of [old1, old2, oldDone]) assert.deepEqual(await store.claim(key!, 'fp-A', short), claimed);
    await store.complete(oldDone!, 'fp-A', ANSWER, 1_000);
    for (const key of [live, liveDone]) assert.deepEqual(await store.claim(key!, 'fp-A', long), claimed);
    await store.sending(live!);
    await store.complete(liveDone!, 'fp-A', ANSWER, 10_000);

    store.sweep(); // nothing has expired yet
    assert.equal(store.size(), 5);
    await clock.elapse(1_000); // exactly at the TTL: expired
    assert.equal(store.size(), 5, 'expired keys are held until swept');
    store.sweep();
    assert.equal(store.size(), 2);
    assert.deepEqual(await store.claim(live!, 'fp-B', long), unknown('fp-A'));
    assert.deepEqual(await store.claim(liveDone!, 'fp-B', long), done('fp-A'));
    assert.deepEqual(await store.claim(old1!, 'fp-B', long), claimed);
    await store.close();
  });

  it('sweeps more than one batch (1 000 keys) without blocking: the rest follow on the event loop', async () => {
    const clock = testClock();
    const store = await openSqliteStore(':memory:', clock.now);
    const times = (leaseMs: number, ttlMs: number) => ({ id: randomUUID(), leaseMs, ttlMs });
    for (let i = 0; i < 2_500; i += 1) await store.claim(`old-${i}`, 'fp', times(10, 1_000));
    const live = randomUUID();
    await store.claim(live, 'fp-A', times(10_000, 60_000));
    await clock.elapse(2_000);
    store.sweep();
    assert.equal(store.size, 1_501, 'one batch at a time');
    for (let i = 0; i < 10 && store.size > 1; i += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(store.size, 1);
    assert.deepEqual(await store.claim(live, 'fp-B', times(1, 1)), inFlight('fp-A'));
    await store.close();
  });

  it('a store closed while a batched sweep goes on stops sweeping (no error thrown on the closed database)', async () => {
    // In a thread of its own: an uncaught error there is the thread's 'error' event, not this process's end.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      (async () => {
        ${IMPORT_STORE}
        let t = Date.now();
        const store = await openSqliteStore(':memory:', () => t);
        for (let i = 0; i < 1500; i += 1) await store.claim('k' + i, 'fp', { id: 'c' + i, leaseMs: 10, ttlMs: 100 });
        t += 1000;
        store.sweep(); // 1 000 deleted, the next batch set for the next turn of the event loop
        await store.close(); // as a relay shutting down does
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, 20));
        parentPort.postMessage('closed cleanly');
      })();`;
    const outcome = await new Promise<string>((resolve) => {
      const worker = new Worker(code, { eval: true, workerData: WORKER_ENV });
      worker.once('message', resolve);
      worker.once('error', (error) => resolve(`uncaught: ${error.message}`));
    });
    assert.equal(outcome, 'closed cleanly');
  });
});

describe('Redis store: a Redis that stops answering mid-claim', () => {
  let client: RedisClientType;
  before(async () => {
    client = await redisClient(redis!.url);
  });
  after(async () => {
    redis?.thaw();
    await client.close();
  });

  it('the claim is refused within its deadline; answered late, the key is let go, never left claimed', async () => {
    const [key, answered, held] = [randomUUID(), randomUUID(), randomUUID()];
    const times = { leaseMs: 10_000, ttlMs: 60_000 };
    // Every command's own answer, to see what the server did with the claims it answered late.
    const sent: Promise<unknown>[] = [];
    const spy = {
      eval: (...args: Parameters<RedisScripting['eval']>) => {
        const reply = client.eval(...args);
        sent.push(reply);
        return reply;
      },
    } as RedisScripting;
    const store = tracked(new RedisIdempotencyStore(spy, 'billing-pay:', 150));
    assert.deepEqual(await store.claim(answered, 'fp-A', times), claimed);
    await store.complete(answered, 'fp-A', ANSWER, 60_000);
    assert.deepEqual(await store.claim(held, 'fp-A', times), claimed);
    const before = sent.length;

    redis!.freeze();
    try {
      const started = Date.now();
      await assert.rejects(store.claim(key, 'fp-A', times), StoreTimeoutError);
      await assert.rejects(store.claim(answered, 'fp-A', times), StoreTimeoutError);
      await assert.rejects(store.claim(held, 'fp-B', times), StoreTimeoutError);
      assert.ok(Date.now() - started < 1_000, `refused after ${Date.now() - started} ms`);
    } finally {
      redis!.thaw();
    }
    // The server did claim the key, after the deadline; the other claims found the keys' records.
    const [late, lateAnswered, lateHeld] = await Promise.all(sent.slice(before, before + 3));
    assert.equal(late, null, 'the late claim took the key');
    assert.ok(Array.isArray(lateAnswered), 'the late claim of the answered key found its record');
    assert.ok(Array.isArray(lateHeld), 'the late claim of the held key found its record');

    // A retry is served once the store has let the late claim go (at once, not when its lease ends in 10 s).
    let retry: Claim = { kind: 'unknown', fingerprint: '' };
    for (const until = Date.now() + 2_000; Date.now() < until; await sleep(20)) {
      retry = await store.claim(key, 'fp-B', times);
      if (retry.kind !== 'in_flight') break;
    }
    assert.deepEqual(retry, claimed);
    // The retry's own claim stays (the late release was for the old one only); the keys whose late claims found them
    // claimed already are left as they were: not a late claim's to let go.
    await sleep(100);
    assert.deepEqual(await store.claim(key, 'fp-C', times), inFlight('fp-B'));
    assert.deepEqual(await store.claim(answered, 'fp-C', times), done('fp-A'));
    assert.deepEqual(await store.claim(held, 'fp-C', times), inFlight('fp-A'));
  });

  it('the probe writes and reads back; a frozen Redis fails it within its deadline, and it passes after the thaw', async () => {
    const store = new RedisIdempotencyStore(client, 'billing-pay:', 150);
    await store.probe();
    redis!.freeze();
    try {
      const started = Date.now();
      await assert.rejects(store.probe(), StoreTimeoutError);
      assert.ok(Date.now() - started < 1_000);
    } finally {
      redis!.thaw();
    }
    await store.probe();
  });

  it('a mark refused at its deadline and applied late is undone by the release sent after it: the key is free', async () => {
    const key = randomUUID();
    const times = { leaseMs: 10_000, ttlMs: 60_000 };
    const store = tracked(new RedisIdempotencyStore(client, 'billing-pay:', 150));
    assert.deepEqual(await store.claim(key, 'fp-A', times), claimed);
    redis!.freeze();
    try {
      await assert.rejects(store.sending(key), StoreTimeoutError);
      await assert.rejects(store.release(key), StoreTimeoutError);
    } finally {
      redis!.thaw();
    }
    // Nothing was sent: once the server has run both, a retry claims the key (never in flight, then unknown, for good).
    let retry: Claim = { kind: 'unknown', fingerprint: '' };
    for (const until = Date.now() + 2_000; Date.now() < until; await sleep(20)) {
      retry = await store.claim(key, 'fp-B', times);
      if (retry.kind !== 'in_flight') break;
    }
    assert.deepEqual(retry, claimed);
  });
});
