/**
 * Rotating the relay's secrets without an outage. Two relays on one Redis (a private redis-server) in front of the
 * sandbox, one still on the former `TOKEN_SECRET`, one on the new with `TOKEN_SECRET_PREVIOUS` (a rolling deploy),
 * round robin: against a billing that keeps one live token per credential no payment fails and the fleet asks at
 * most twice per token lifetime. Two relays whose secrets have nothing in common never overwrite each other's token.
 * A client session signed with the former `SESSION_SECRET` is accepted while `SESSION_SECRET_PREVIOUS` names it.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import type { Relay } from '../../src/relay/server.js';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { roundRobin, startFleetRelay } from './fleet.js';
import { CREDENTIALS, SHOP, startStack } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const OLD = 'the-former-token-secret-of-at-least-32-bytes';
const NEW = 'the-new-token-secret-of-at-least-32-bytes-too';
const FOREIGN_TOLD = 'sealed under a TOKEN_SECRET this relay does not know';

let redis: RedisServer | undefined;
let sandbox: Sandbox | undefined;
let relays: { relay: Relay; log: string[] }[] = [];

/** One relay per entry of `secrets` (its extra variables), all on one Redis and one sandbox. */
async function startFleet(options: SandboxOptions, secrets: Record<string, string>[]) {
  redis = await startRedisServer();
  sandbox = await startSandbox({ port: 0, ...CREDENTIALS, ...options });
  relays = await Promise.all(
    secrets.map(async (env) => {
      const log: string[] = [];
      return { relay: await startFleetRelay(sandbox!, redis!.url, log, env), log };
    }),
  );
  return sandbox;
}

/** `count` payments, `connections` at a time, each to the next relay in turn; the statuses. */
const load = (count: number, connections = 30, spreadMs = 0) =>
  roundRobin(() => relays.map(({ relay }) => relay.url), count, connections, spreadMs);

const storedToken = async () => {
  const client = createClient({ url: redis!.url });
  await client.connect();
  try {
    return await client.get('billing-pay:billing-token');
  } finally {
    await client.close();
  }
};

afterEach(async () => {
  await Promise.all(relays.map(({ relay }) => relay.close()));
  relays = [];
  await sandbox?.close();
  await redis?.stop();
});

describe('rotating TOKEN_SECRET', () => {
  const rolling: Record<string, string>[] = [{ TOKEN_SECRET: OLD }, { TOKEN_SECRET: NEW, TOKEN_SECRET_PREVIOUS: OLD }];

  it('former and new secret on one Redis, one live token: 400 payments, none failed, at most two GET /auth', async () => {
    const sandbox = await startFleet({ liveTokens: 'one' }, rolling);
    const statuses = await load(400);
    assert.equal(statuses.length, 400);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
      'every payment succeeded',
    );
    assert.ok(sandbox.counts.auth <= 2, `GET /auth ${sandbox.counts.auth} times`);
    for (const { log } of relays) assert.ok(!log.join('').includes(FOREIGN_TOLD));
  });

  it('tokens that run out every 2 s: none failed, at most two GET /auth per lifetime', async () => {
    const sandbox = await startFleet({ liveTokens: 'one', tokenTtlSeconds: 2 }, rolling);
    const started = Date.now();
    const statuses = await load(200, 10, 280);
    const lifetimes = Math.ceil((Date.now() - started) / 2_000);
    assert.ok(lifetimes >= 3, `the run spans ${lifetimes} lifetimes`);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
    );
    assert.ok(sandbox.counts.auth <= 2 * lifetimes, `GET /auth ${sandbox.counts.auth} times in ${lifetimes} lifetimes`);
  });

  it('secrets with nothing in common: each says so once, and neither overwrites the token it cannot open', async () => {
    const sandbox = await startFleet({ liveTokens: 'many' }, [{ TOKEN_SECRET: OLD }]);
    assert.deepEqual(await load(3, 1), [201, 201, 201]);
    const first = await storedToken();
    assert.ok(first, 'the first relay shared its token');
    const strangerLog: string[] = [];
    const stranger = await startFleetRelay(sandbox, redis!.url, strangerLog, { TOKEN_SECRET: NEW });
    relays.push({ relay: stranger, log: strangerLog });
    const statuses = await load(40, 4);
    assert.deepEqual(
      statuses.filter((s) => s !== 201),
      [],
    );
    assert.equal(await storedToken(), first, 'the shared token is untouched');
    const told = strangerLog.filter((line) => line.includes(FOREIGN_TOLD));
    assert.equal(told.length, 1, 'told once, not per request');
    assert.match(told[0]!, /"level":40/);
    assert.equal(sandbox.counts.auth, 2, 'one token each');
  });
});

describe('rotating SESSION_SECRET', () => {
  const OLD_SESSION = 'the-former-session-secret-of-at-least-32-bytes';
  const NEW_SESSION = 'the-new-session-secret-of-at-least-32-bytes-too';

  for (const [previous, status] of [
    [OLD_SESSION, 200],
    [undefined, 401],
  ] as const) {
    it(`a session signed with the former secret: ${status} ${previous ? 'while' : 'once no longer'} configured`, async () => {
      const stack = await startStack({
        env: { SESSION_SECRET: NEW_SESSION, ...(previous && { SESSION_SECRET_PREVIOUS: previous }) },
      });
      try {
        const call = async (secret: string) => {
          const session = await createClientSession({ agreementId: 1001 }, secret);
          const res = await fetch(`${stack.relay.url}/session`, {
            headers: { origin: SHOP, authorization: `Bearer ${session}` },
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        assert.deepEqual(await call(NEW_SESSION), { status: 200, body: { agreement_id: 1001 } });
        const former = await call(OLD_SESSION);
        assert.equal(former.status, status);
        if (status === 200) assert.deepEqual(former.body, { agreement_id: 1001 });
        else assert.equal((former.body.error as { code: string }).code, 'session_invalid');
        const unknown = await call('a-secret-neither-current-nor-previous-32-bytes');
        assert.equal(unknown.status, 401);
      } finally {
        await stack.close();
      }
    });
  }
});
