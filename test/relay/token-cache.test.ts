import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TokenCache } from '../../src/relay/billing/token-cache.js';

function harness(lifetimeMs = 600_000) {
  let now = 0;
  let issued = 0;
  let release: (() => void) | undefined;
  const cache = new TokenCache(
    () =>
      new Promise((resolve) => {
        issued += 1;
        const token = `t${issued}`;
        release = () => resolve({ token, lifetimeMs });
      }),
    () => now,
  );
  return {
    cache,
    issued: () => issued,
    release: () => release?.(),
    advance: (ms: number) => (now += ms),
  };
}

describe('token cache', () => {
  it('shares one issue among concurrent callers', async () => {
    const h = harness();
    const waiting = Array.from({ length: 50 }, () => h.cache.get());
    h.release();
    assert.deepEqual(new Set(await Promise.all(waiting)), new Set(['t1']));
    assert.equal(h.issued(), 1);
  });

  it('refreshes a minute before a 600 s token runs out, not at half its life', async () => {
    const h = harness();
    const first = h.cache.get();
    h.release();
    assert.equal(await first, 't1');
    h.advance(300_000);
    assert.equal(await h.cache.get(), 't1');
    h.advance(239_000); // 539 s: still outside the margin
    assert.equal(await h.cache.get(), 't1');
    assert.equal(h.issued(), 1);
    h.advance(2_000); // 541 s: inside the last minute — the old token serves while one refresh runs
    assert.equal(await h.cache.get(), 't1');
    assert.equal(await h.cache.get(), 't1');
    assert.equal(h.issued(), 2);
    h.release();
    await new Promise((r) => setImmediate(r));
    assert.equal(await h.cache.get(), 't2');
  });

  it('waits for a new token once the old one has expired, and after invalidate', async () => {
    const h = harness(10_000);
    const first = h.cache.get();
    h.release();
    await first;
    h.advance(10_001);
    const second = h.cache.get();
    h.release();
    assert.equal(await second, 't2');
    h.cache.invalidate('t1'); // stale: ignored
    assert.equal(await h.cache.get(), 't2');
    h.cache.invalidate('t2');
    const third = h.cache.get();
    h.release();
    assert.equal(await third, 't3');
  });

  it('lets a failed issue be tried again', async () => {
    let calls = 0;
    const cache = new TokenCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('billing down');
      return { token: 'ok', lifetimeMs: 1000 };
    });
    await assert.rejects(cache.get(), /billing down/);
    assert.equal(await cache.get(), 'ok');
  });
});
