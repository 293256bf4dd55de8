/**
 * One relay without Redis holds as many keys as its traffic brings: 60,000 keyed payments in a row, every one
 * answered (no refusal once some count of keys is live, no key evicted), the relay's memory flat. The relay runs in a
 * process of its own, so its RSS is its alone; the billing is a bare one that answers at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Pool } from 'undici';
import { SHOP, paymentA } from './harness.js';
import { json, startFakeBilling } from './fake-billing.js';
import { freePort } from './redis-server.js';
import { spawnRelay, storeFile, type RelayProcess } from './relay-process.js';

const PAYMENTS = 60_000;
const CONNECTIONS = 32;

/**
 * The relay's live JavaScript heap, in MB: through its inspector (it runs with `--inspect`), a full garbage collection
 * and then the heap in use — what the relay holds, not the garbage it has not collected yet.
 */
async function liveHeap(relay: RelayProcess): Promise<number> {
  const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(relay.output())![0];
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  const call = (method: string) =>
    new Promise<Record<string, number>>((resolve) => {
      const mine = (id += 1);
      socket.addEventListener('message', function answer(event) {
        const message = JSON.parse(String(event.data)) as { id?: number; result: Record<string, number> };
        if (message.id !== mine) return;
        socket.removeEventListener('message', answer);
        resolve(message.result);
      });
      socket.send(JSON.stringify({ id: mine, method }));
    });
  await call('HeapProfiler.collectGarbage');
  const { usedSize } = await call('Runtime.getHeapUsage');
  socket.close();
  return usedSize! / 2 ** 20;
}

async function rss(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^relay_process_resident_memory_bytes (\d+)/m.exec(text)![1]) / 2 ** 20;
}

describe('one relay without Redis: 60,000 keyed payments', () => {
  let billing: Awaited<ReturnType<typeof startFakeBilling>>;
  let relay: RelayProcess;
  let metricsPort: number;
  before(async () => {
    let id = 0;
    billing = await startFakeBilling((_req, res) => {
      id += 1;
      json(res, 201, { code: 201, response: { payment_id: id, confirmation_url: `https://pay.example/${id}` } });
    });
    metricsPort = await freePort();
    relay = await spawnRelay(
      {
        BILLING_BASE_URL: billing.baseUrl,
        BILLING_USERNAME: 'fake-user',
        BILLING_PASSWORD: 'fake-password',
        EPS_UUID_A: 'fake-eps-a',
        ALLOWED_ORIGINS: SHOP,
        RATE_LIMIT_IP: '1000000/60',
        RATE_LIMIT_AGREEMENT: '1000000/60',
        DUPLICATE_WINDOW_SECONDS: '0',
        LOG_LEVEL: 'warn',
        METRICS_PORT: String(metricsPort),
        // Capacity, not durability, is measured here (the crash tests use a real disk): on tmpfs where there is one, so
        // the run is not paced by 120,000 fsyncs.
        STORE_FILE: storeFile(existsSync('/dev/shm') ? '/dev/shm' : undefined),
        // For liveHeap (the inspector listens on a free port of this machine only).
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      },
      undefined,
      { built: true },
    );
  });
  after(async () => {
    await relay.stop('SIGKILL');
    await billing.close();
  });

  it('are all answered, each once, with the relay’s memory bounded', async (t) => {
    const body = JSON.stringify(paymentA());
    // undici's own client: fetch would cost the test more CPU than the relay it measures.
    const pool = new Pool(relay.url, { connections: CONNECTIONS });
    const refused: number[] = [];
    const heaps: number[] = [];
    const rssTaken: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < PAYMENTS) {
        const n = (next += 1);
        if (n % 10_000 === 0) rssTaken.push(await rss(metricsPort));
        if (n === 10_000) heaps.push(await liveHeap(relay));
        const res = await pool.request({
          method: 'POST',
          path: '/payments',
          headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body,
        });
        await res.body.dump();
        if (res.statusCode !== 201) refused.push(res.statusCode);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    await pool.close();
    assert.deepEqual(refused, [], 'every keyed payment was answered');
    assert.equal(billing.calls.filter((c) => c.path === '/eps_payments').length, PAYMENTS);
    heaps.push(await liveHeap(relay));
    // The keys are on disk: what the relay holds after 60,000 keys is what it held after 10,000 (held in memory, the
    // 50,000 keys between, about 1 KB each, would be some 50 MB more).
    const report = `live heap ${heaps.map((h) => h.toFixed(1)).join(' → ')} MB; RSS every 10,000: ${rssTaken.map((r) => r.toFixed(0)).join(', ')} MB`;
    t.diagnostic(report);
    assert.equal(relay.child.exitCode, null, 'the relay is alive');
    assert.ok(heaps[1]! - heaps[0]! < 8, report);
    assert.ok(Math.max(...rssTaken) < 512, report);
  });
});
