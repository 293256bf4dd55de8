/**
 * A relay configured with every secret from a file (`NAME_FILE`, as container secrets are mounted) — the billing
 * password, the client-session key, the fleet token's key, and Redis's URL and password (a real redis-server that
 * asks for it) — pays over HTTP, and none of those values appears in anything it writes, at its most talkative level.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { SHOP, paymentA } from './harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { spawnRelay, type RelayProcess } from './relay-process.js';

const SECRETS = {
  BILLING_PASSWORD: `billing-password-${randomUUID()}`,
  SESSION_SECRET: `session-secret-${randomUUID()}`,
  TOKEN_SECRET: `token-secret-${randomUUID()}`,
  REDIS_PASSWORD: `redis-password-${randomUUID()}`,
};

describe('relay: every secret from a file', () => {
  let sandbox: Sandbox;
  let redis: RedisServer;
  let relay: RelayProcess;
  let redisUrl: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0, username: 'files-user', password: SECRETS.BILLING_PASSWORD });
    redis = await startRedisServer();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.configSet('requirepass', SECRETS.REDIS_PASSWORD);
    await admin.quit();
    // The URL is a secret too (it may carry a password); this one names the server only.
    redisUrl = `${redis.url}/0`;
    const dir = mkdtempSync(join(tmpdir(), 'billing-pay-secret-files-'));
    const files: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...SECRETS, REDIS_URL: redisUrl })) {
      files[`${name}_FILE`] = join(dir, name.toLowerCase());
      writeFileSync(files[`${name}_FILE`]!, `${value}\n`, { mode: 0o600 });
    }
    const env = Object.entries(sandbox.relayEnv()).filter(([name]) => name !== 'BILLING_PASSWORD');
    relay = await spawnRelay({ ...Object.fromEntries(env), ...files, ALLOWED_ORIGINS: SHOP, LOG_LEVEL: 'trace' });
  });
  after(async () => {
    await relay?.stop('SIGTERM');
    await redis?.stop();
    await sandbox?.close();
  });

  it('pays, keeps its keys in the Redis that asks for a password, and checks sessions with the key it read', async () => {
    const key = randomUUID();
    const res = await fetch(`${relay.url}/payments`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(paymentA()),
    });
    assert.equal(res.status, 201, await res.clone().text());
    assert.match(((await res.json()) as { redirect_url: string }).redirect_url, /\/pay\/\d+$/);
    const keys = createClient({ url: redis.url, password: SECRETS.REDIS_PASSWORD });
    await keys.connect();
    assert.ok((await keys.dbSize()) > 0, 'the relay wrote to Redis');
    await keys.quit();
    const session = await createClientSession({ agreementId: 1001, ttlSeconds: 60 }, SECRETS.SESSION_SECRET);
    const me = await fetch(`${relay.url}/session`, { headers: { origin: SHOP, authorization: `Bearer ${session}` } });
    assert.equal(me.status, 200, await me.clone().text());
  });

  it('writes none of the secrets, nor the Redis URL, to its output', async () => {
    await relay.stop('SIGTERM');
    const output = relay.output();
    assert.match(output, /relay listening/);
    assert.match(output, /"msg":"request"/, 'requests were logged');
    for (const value of [...Object.values(SECRETS), redisUrl]) {
      assert.ok(!output.includes(value), `the output holds ${value.split('-')[0]}…`);
    }
  });
});
