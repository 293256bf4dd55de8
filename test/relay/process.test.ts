/**
 * The relay as a merchant runs it: `npm run relay`'s entry point in its own process, configured by the environment.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CREDENTIALS, SHOP, paymentA, waitFor } from './harness.js';
import { storeFile } from './relay-process.js';

function runRelay(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/relay/bin.ts'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

describe('relay process', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...CREDENTIALS });
  });
  after(() => sandbox.close());

  it('refuses to start with a clear message naming every bad variable', async () => {
    const { child, output } = runRelay({ BILLING_BASE_URL: 'ftp://x', PORT: 'abc' });
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    for (const name of [
      'BILLING_BASE_URL',
      'BILLING_USERNAME',
      'BILLING_PASSWORD',
      'EPS_UUID_A',
      'ALLOWED_ORIGINS',
      'PORT',
    ]) {
      assert.match(output(), new RegExp(name));
    }
  });

  it('on SIGTERM finishes the payment in flight, then exits; its logs hold no secret', async () => {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const { child, output } = runRelay({
      BILLING_BASE_URL: sandbox.baseUrl,
      BILLING_USERNAME: CREDENTIALS.username,
      BILLING_PASSWORD: CREDENTIALS.password,
      EPS_UUID_A: 'sandbox-eps-a',
      ALLOWED_ORIGINS: SHOP,
      PORT: String(port),
      STORE_FILE: storeFile(),
    });
    try {
      await waitFor(() => output().includes('relay listening'));
      sandbox.faults.epsPayments = { delayMs: 400, times: 1 };
      const inFlight = fetch(`http://127.0.0.1:${port}/payments`, {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json' },
        body: JSON.stringify(paymentA({ email: 'person@example.com' })),
      });
      await waitFor(() => sandbox.counts.epsPayments > 0);
      child.kill('SIGTERM');
      const res = await inFlight;
      assert.equal(res.status, 201);
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      const logs = output();
      assert.match(logs, /shutting down/);
      const token = sandbox.calls.find((c) => c.authorization?.startsWith('Bearer '))!.authorization!.slice(7);
      for (const secret of [
        CREDENTIALS.password,
        token,
        Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64'),
        'person@example.com',
      ]) {
        assert.ok(!logs.includes(secret), 'a secret in the logs');
      }
      for (const line of logs.trim().split('\n')) assert.doesNotThrow(() => JSON.parse(line), `not JSON: ${line}`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
