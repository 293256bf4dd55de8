/**
 * The relay's own secrets never reach a log line, whatever key or depth they hide under: a billing that echoes the
 * bearer token (or the Basic credentials) in its refusal, and the logger's scrubbing by value.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/relay/config/load.js';
import { VARIABLES, type Variable } from '../../src/relay/config/variables.js';
import { createLogger, LogSecrets } from '../../src/relay/observability/logger.js';
import { CREDENTIALS, paymentA, startStack, waitFor, type Stack } from './harness.js';

const SESSION_SECRET = 'log-secrets-test-session-secret-0123456789abcdef';

describe('relay logs: secrets scrubbed by value', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { SESSION_SECRET } });
  });
  after(() => stack.close());

  it('a billing that echoes the bearer token in its refusal: the refusal is logged, the token is not', async () => {
    stack.sandbox.faults.epsPayments = { status: 400, echoCredentials: true, times: 1 };
    const res = await stack.post(paymentA());
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'billing_rejected');
    const bearer = stack.sandbox.calls
      .filter((c) => c.path.endsWith('/eps_payments'))
      .at(-1)!
      .authorization!.slice(7);
    await waitFor(() => stack.logLines.some((line) => line.includes('billingMessage')));
    const line = stack.logLines.find((l) => l.includes('billingMessage'))!;
    assert.match(line, /fault injected by the sandbox/, 'the billing’s text is logged');
    assert.match(line, /\[redacted\]/);
    assert.ok(!stack.logLines.join('').includes(bearer), 'the echoed token is not');
  });

  it('every secret the relay holds, in any string at any depth, under any key', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const secrets = new LogSecrets();
    const password = 'p"a\\ss-wörd-123';
    const basic = Buffer.from(`${CREDENTIALS.username}:${password}`).toString('base64');
    secrets.add(password);
    secrets.add(basic);
    secrets.add(SESSION_SECRET);
    for (let i = 0; i < 10; i += 1) secrets.addToken(`tok_${i}_abcdefgh`);
    const logger = createLogger('info', sink, secrets);
    logger.error(
      {
        note: `token tok_9_abcdefgh may not pay; Basic ${basic}`,
        deep: { a: [{ b: { c: `the password was ${password}` } }] },
        [`key-${SESSION_SECRET}`]: 1,
        err: new Error(`refused tok_8_abcdefgh`),
      },
      `session ${SESSION_SECRET}`,
    );
    const text = lines.join('');
    for (const secret of [password, JSON.stringify(password).slice(1, -1), basic, SESSION_SECRET]) {
      assert.ok(!text.includes(secret), `${secret} is scrubbed`);
    }
    for (const token of ['tok_9_abcdefgh', 'tok_8_abcdefgh', 'tok_2_abcdefgh']) assert.ok(!text.includes(token), token);
    // Only the latest tokens are kept: the oldest, long revoked, is no longer looked for.
    logger.info('old tok_0_abcdefgh');
    assert.match(lines.at(-1)!, /tok_0_abcdefgh/);
    assert.doesNotThrow(() => lines.map((l) => JSON.parse(l)), 'the lines stay JSON');
  });

  it('the value of every variable the configuration marks secret, and a password inside REDIS_URL', () => {
    const config = loadConfig({
      ...stack.sandbox.relayEnv(),
      ALLOWED_ORIGINS: 'https://shop.example',
      REDIS_URL: 'redis://relay:p%40ss-word-9@redis.internal:6379',
      SESSION_SECRET,
      TOKEN_SECRET: 'token-secret-for-the-fleet-0123456789abcdef',
    });
    const secretNames = (Object.entries(VARIABLES) as [string, Variable<unknown>][])
      .filter(([, v]) => v.secret)
      .map(([name]) => name);
    assert.ok(secretNames.includes('BILLING_PASSWORD') && secretNames.includes('REDIS_URL'));
    for (const secret of [
      stack.sandbox.relayEnv().BILLING_PASSWORD!,
      SESSION_SECRET,
      'token-secret-for-the-fleet-0123456789abcdef',
      'p@ss-word-9',
    ]) {
      assert.ok(config.secrets.includes(secret), secret);
    }
  });
});
