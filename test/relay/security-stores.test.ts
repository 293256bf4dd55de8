/**
 * Over real HTTP with a real Redis (a private redis-server, redis-server.ts): a Redis that stops answering (SIGSTOP:
 * the socket stays open, nothing answers) costs a request about a second, pays nothing twice. The in-memory limiters'
 * maximum is tested in limits.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { epsCalls, paymentA, startStack, type Stack } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const code = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe('relay: a Redis that stops answering costs about a second (issue 12.7)', () => {
  let redis: RedisServer;
  let stack: Stack;
  before(async () => {
    redis = await startRedisServer();
    stack = await startStack({ env: { REDIS_URL: redis.url } });
  });
  after(async () => {
    redis.thaw();
    await stack.close();
    await redis.stop();
  });

  it(
    'frozen: a keyed payment is a 503 within 2 s and reaches no billing; an unkeyed one is served; after the thaw nothing is paid twice',
    { timeout: 60_000 },
    async () => {
      const key = randomUUID();
      const inFlight = randomUUID();
      assert.equal((await stack.post(paymentA(), { 'idempotency-key': randomUUID() })).status, 201, 'through Redis');

      // A payment whose key was claimed before the freeze is at the billing when Redis stops answering.
      stack.sandbox.faults.epsPayments = { delayMs: 500, times: 1 };
      const sentBefore = epsCalls(stack).length;
      const paying = stack.post(paymentA(), { 'idempotency-key': inFlight });
      for (let i = 0; i < 200 && epsCalls(stack).length === sentBefore; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      redis.freeze();
      assert.equal((await paying).status, 201, 'the billing’s answer reaches the client');

      const before = epsCalls(stack).length;
      let started = performance.now();
      const keyed = await stack.post(paymentA(), { 'idempotency-key': key });
      const keyedMs = performance.now() - started;
      assert.equal(keyed.status, 503);
      assert.ok(Number(keyed.headers.get('retry-after')) >= 1);
      assert.equal(await code(keyed), 'store_unavailable');
      assert.ok(keyedMs < 2_000, `answered in ${Math.round(keyedMs)} ms`);
      assert.equal(epsCalls(stack).length, before, 'without the store, nothing is sent to the billing');

      started = performance.now();
      const unkeyed = await stack.post(paymentA());
      const unkeyedMs = performance.now() - started;
      assert.equal(unkeyed.status, 201, 'rate limits fall back to memory');
      assert.ok(unkeyedMs < 2_000, `answered in ${Math.round(unkeyedMs)} ms`);
      assert.equal(epsCalls(stack).length, before + 1);

      redis.thaw();
      // The refused key is free again (its late claim let go), and the key paid before the freeze replays.
      let retry: Response | undefined;
      for (let i = 0; i < 40 && retry?.status !== 201; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        retry = await stack.post(paymentA(), { 'idempotency-key': key });
        assert.ok([201, 409, 503].includes(retry.status), `retry: ${retry.status}`);
      }
      assert.equal(retry?.status, 201);
      assert.equal(epsCalls(stack).length, before + 2, 'the refused payment is paid once, on its retry');
      let replay: Response | undefined;
      for (let i = 0; i < 40 && replay?.headers.get('idempotent-replayed') !== 'true'; i += 1) {
        if (i) await new Promise((resolve) => setTimeout(resolve, 250));
        replay = await stack.post(paymentA(), { 'idempotency-key': inFlight });
        assert.ok([201, 409].includes(replay.status), `replay: ${replay.status}`);
      }
      assert.equal(replay?.headers.get('idempotent-replayed'), 'true');
      assert.equal(
        (await stack.post(paymentA(), { 'idempotency-key': key })).headers.get('idempotent-replayed'),
        'true',
      );
      assert.equal(epsCalls(stack).length, before + 2, 'nothing paid twice');
    },
  );
});
