/**
 * The store of recent payments (SQLite) on a full disk: a relay process whose store files may not grow
 * (`prlimit --fsize`, SIGXFSZ ignored, as in store-full.test.ts), paying without `Idempotency-Key`, so the mark of a
 * recent payment is its only write. A mark that cannot be written sends nothing to the billing: 503
 * `store_unavailable`, for a new payment and for a confirmed repeat alike (its mark is what would stop the next
 * repeat). A duplicate is still refused, the relay does not crash, and once the disk has room it pays again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, paymentA, postPayment } from './harness.js';
import { limitFileSize, sandboxRelayEnv, spawnRelay, storeFile, type RelayProcess } from './relay-process.js';

/** A payment without Idempotency-Key: its status and error code. */
async function pay(relay: string, body: unknown): Promise<{ status: number; code?: string }> {
  const { status, code } = await postPayment(relay, body);
  return { status, ...(code && { code }) };
}

const billed = (sandbox: Sandbox) =>
  sandbox.calls.filter((call) => call.method === 'POST' && call.path.endsWith('/eps_payments')).length;

describe('the store of recent payments on a full disk (SQLite): nothing sent unmarked, no crash', () => {
  let sandbox: Sandbox;
  let relay: RelayProcess;
  const file = storeFile();
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
    relay = await spawnRelay(
      sandboxRelayEnv(sandbox, { DUPLICATE_WINDOW_SECONDS: '600', STORE_FILE: file }),
      undefined,
      { fileSizeLimitable: true },
    );
  });
  after(async () => {
    await relay?.stop('SIGKILL');
    await sandbox?.close();
  });

  it('refuses with 503 what it cannot mark, still refuses a duplicate, and pays again once there is room', async () => {
    const first = { ...paymentA(), amount: '10.01' };
    const second = { ...paymentA(), amount: '10.02' };
    assert.equal((await pay(relay.url, first)).status, 201);
    const paid = billed(sandbox);

    limitFileSize(relay, statSync(`${file}-wal`).size);
    assert.deepEqual(await pay(relay.url, second), { status: 503, code: 'store_unavailable' });
    assert.deepEqual(await pay(relay.url, first), { status: 409, code: 'duplicate_payment' });
    assert.deepEqual(await pay(relay.url, { ...first, confirm_duplicate: true }), {
      status: 503,
      code: 'store_unavailable',
    });
    assert.equal(billed(sandbox), paid, 'nothing reached the billing while the mark could not be written');
    assert.equal(relay.child.exitCode, null, 'still running');

    limitFileSize(relay, 'unlimited');
    assert.equal((await pay(relay.url, second)).status, 201);
    assert.deepEqual(await pay(relay.url, second), { status: 409, code: 'duplicate_payment' });
    assert.equal((await pay(relay.url, { ...first, confirm_duplicate: true })).status, 201);
    assert.equal(billed(sandbox), paid + 2);
  });
});
