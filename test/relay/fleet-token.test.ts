/**
 * One billing token for a fleet: three relays on one Redis (a private redis-server) in front of the sandbox, round
 * robin, 30 connections. Against a billing that keeps one live token per credential (each `GET /auth` revokes the
 * earlier token) no payment fails and the fleet asks at most twice per token lifetime; against an ordinary billing,
 * once. Redis holds the token sealed: what it stores is no bearer.
 */
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import type { Relay } from '../../src/relay/server.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { roundRobin, startFleetRelay } from './fleet.js';
import { CREDENTIALS } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let redis: RedisServer | undefined;
let sandbox: Sandbox | undefined;
let relays: Relay[] = [];
const logLines: string[] = [];

async function startFleet(options: SandboxOptions) {
  redis = await startRedisServer();
  sandbox = await startSandbox({ port: 0, ...CREDENTIALS, ...options });
  relays = await Promise.all([1, 2, 3].map(() => startFleetRelay(sandbox!, redis!.url, logLines)));
  return { sandbox, relays };
}

/** `count` payments, `connections` at a time, each to the next relay in turn; the statuses. */
const load = (count: number, connections = 30, spreadMs = 0) =>
  roundRobin(() => relays.map((relay) => relay.url), count, connections, spreadMs);

afterEach(async () => {
  await Promise.all(relays.map((r) => r.close()));
  relays = [];
  await sandbox?.close();
  await redis?.stop();
});
after(() => {
  // Every bearer the billing issued, and the relay's password, never reached a log line.
  const text = logLines.join('');
  assert.ok(logLines.length > 0);
  assert.ok(!text.includes(CREDENTIALS.password));
});

describe('one billing token for the fleet', () => {
  it('a billing that keeps one live token: 300 payments, none failed, at most two GET /auth', async () => {
    const { sandbox } = await startFleet({ liveTokens: 'one' });
    const statuses = await load(300);
    assert.equal(statuses.length, 300);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
      'every payment succeeded',
    );
    assert.ok(sandbox.counts.auth <= 2, `GET /auth ${sandbox.counts.auth} times`);
  });

  it('an ordinary billing: one GET /auth for the fleet', async () => {
    const { sandbox } = await startFleet({ liveTokens: 'many' });
    const statuses = await load(300);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
    );
    assert.equal(sandbox.counts.auth, 1);
  });

  it('tokens that run out every 2 s, one live at a time: none failed, at most two GET /auth per lifetime', async () => {
    const { sandbox } = await startFleet({ liveTokens: 'one', tokenTtlSeconds: 2 });
    const started = Date.now();
    // About 6 s of payments, spread so that they run across three token lifetimes.
    const statuses = await load(300, 15, 280);
    const lifetimes = Math.ceil((Date.now() - started) / 2_000);
    assert.ok(lifetimes >= 3, `the run spans ${lifetimes} lifetimes`);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
    );
    assert.ok(sandbox.counts.auth <= 2 * lifetimes, `GET /auth ${sandbox.counts.auth} times in ${lifetimes} lifetimes`);
  });

  it('Redis holds the token sealed: its value names no bearer the billing issued', async () => {
    const { sandbox } = await startFleet({ liveTokens: 'one' });
    assert.deepEqual(await load(3, 3), [201, 201, 201]);
    const client = createClient({ url: redis!.url });
    await client.connect();
    try {
      const stored = await client.get('billing-pay:billing-token');
      assert.ok(stored, 'the fleet token is in Redis');
      const bearers = new Set(
        sandbox.calls.flatMap((c) => (c.authorization?.startsWith('Bearer ') ? [c.authorization.slice(7)] : [])),
      );
      assert.ok(bearers.size >= 1);
      for (const bearer of bearers) {
        assert.ok(!stored.includes(bearer), 'not in clear');
        assert.ok(!Buffer.from(stored, 'base64url').toString('latin1').includes(bearer), 'not merely encoded');
      }
    } finally {
      await client.close();
    }
  });
});
