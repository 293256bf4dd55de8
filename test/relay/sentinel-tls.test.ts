/**
 * Redis through Sentinel over TLS (`REDIS_SENTINEL_TLS=true`): a primary and a sentinel that listen on TLS only, with a
 * certificate of a private authority the relay process trusts through `NODE_EXTRA_CA_CERTS`. The relay asks the
 * sentinel for the primary and pays through it, both over TLS; without the variable it cannot reach them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, SHOP, paymentA } from './harness.js';
import { freePort } from './redis-server.js';
import { spawnRelay, type RelayProcess } from './relay-process.js';

const NAME = 'tls-primary';
let dir = '';
let sandbox: Sandbox;
let sentinelPort = 0;
const children: ChildProcess[] = [];

/** A certificate authority, and a certificate of it for 127.0.0.1. */
function makeCertificates(): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=test-ca');
  openssl('req', ...key, '-keyout', 'redis.key', '-out', 'redis.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  // prettier-ignore
  openssl('x509', '-req', '-in', 'redis.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', 'redis.pem', '-days', '1', '-extfile', 'san.ext');
}

/** Spawns `args` and resolves once its output matches `ready`. */
function start(args: string[], ready: RegExp): Promise<void> {
  const child = spawn('redis-server', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within 10 s:\n${output}`)), 10_000);
    const read = (chunk: Buffer) => {
      output += String(chunk);
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'billing-pay-tls-'));
  makeCertificates();
  const tls = ['tls-cert-file redis.pem', 'tls-key-file redis.key', 'tls-ca-cert-file ca.pem', 'tls-auth-clients no'];
  const primaryPort = await freePort();
  sentinelPort = await freePort();
  // prettier-ignore
  await start(
    ['--port', '0', '--tls-port', String(primaryPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
      ...tls.flatMap((line) => line.split(' ').map((word, i) => (i ? word : `--${word}`)))],
    /Ready to accept connections/,
  );
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    ['port 0', `tls-port ${sentinelPort}`, 'bind 127.0.0.1', `dir ${dir}`, ...tls, 'tls-replication yes']
      .concat(`sentinel monitor ${NAME} 127.0.0.1 ${primaryPort} 1`, '')
      .join('\n'),
  );
  await start([config, '--sentinel'], /\+monitor master/);
  sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => ({
  ...sandbox.relayEnv(),
  BILLING_USERNAME: CREDENTIALS.username,
  BILLING_PASSWORD: CREDENTIALS.password,
  ALLOWED_ORIGINS: SHOP,
  REDIS_SENTINELS: `127.0.0.1:${sentinelPort}`,
  REDIS_SENTINEL_NAME: NAME,
  // One node: no replica to wait for.
  REDIS_WAIT_REPLICAS: '0',
  NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
  LOG_LEVEL: 'info',
  ...extra,
});

describe('relay: Redis through Sentinel over TLS', () => {
  it('REDIS_SENTINEL_TLS=true: the sentinel and the primary over TLS; keyed payments paid and replayed, ready', async () => {
    let relay: RelayProcess | undefined;
    try {
      relay = await spawnRelay(env({ REDIS_SENTINEL_TLS: 'true' }));
      const pay = (key: string) =>
        fetch(`${relay!.url}/payments`, {
          method: 'POST',
          headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(paymentA()),
        });
      const key = randomUUID();
      assert.equal((await pay(key)).status, 201);
      const replay = await pay(key);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal((await fetch(`${relay.url}/readyz`)).status, 200);
    } finally {
      await relay?.stop('SIGKILL');
    }
  });

  it('without it, the relay cannot reach them and does not start', async () => {
    await assert.rejects(spawnRelay(env({})), /the relay exited \(1\)/);
  });
});
