import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSandboxConfig } from '../../src/sandbox/config.js';

describe('sandbox start-up options from the environment', () => {
  it('defaults: port 8790 on 127.0.0.1, demo credentials, 600 s tokens, N = 1, a running clock from now', () => {
    assert.deepEqual(loadSandboxConfig({}), {
      port: 8790,
      host: '127.0.0.1',
      username: 'demo',
      password: 'demo-secret',
      tokenTtlSeconds: 600,
      liveTokens: 'many',
      autopaymentLeadDays: 1,
      clock: { frozen: false },
    });
  });

  it('reads every SANDBOX_* variable', () => {
    const config = loadSandboxConfig({
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_PUBLIC_URL: 'http://localhost:9000/',
      SANDBOX_USERNAME: 'm',
      SANDBOX_PASSWORD: 'p w',
      SANDBOX_CONTROL_TOKEN: 'a-control-token-0123',
      SANDBOX_TOKEN_TTL: '30',
      SANDBOX_LIVE_TOKENS: 'one',
      SANDBOX_AUTOPAYMENT_LEAD_DAYS: '3',
      SANDBOX_START: '2026-04-10 09:00:00',
      SANDBOX_CLOCK: 'frozen',
    });
    assert.deepEqual(config, {
      port: 0,
      host: '0.0.0.0',
      username: 'm',
      password: 'p w',
      tokenTtlSeconds: 30,
      liveTokens: 'one',
      autopaymentLeadDays: 3,
      clock: { start: '2026-04-10 09:00:00', frozen: true },
      publicUrl: 'http://localhost:9000',
      controlToken: 'a-control-token-0123',
    });
  });

  it('names every bad variable at once', () => {
    assert.throws(
      () =>
        loadSandboxConfig({
          SANDBOX_PORT: '70000',
          SANDBOX_TOKEN_TTL: '0',
          SANDBOX_LIVE_TOKENS: 'some',
          SANDBOX_AUTOPAYMENT_LEAD_DAYS: 'x',
          SANDBOX_START: 'soon',
          SANDBOX_CLOCK: 'stopped',
          SANDBOX_PUBLIC_URL: 'localhost',
          SANDBOX_CONTROL_TOKEN: 'short',
        }),
      (error: Error) => {
        for (const name of [
          'SANDBOX_PORT',
          'SANDBOX_TOKEN_TTL',
          'SANDBOX_LIVE_TOKENS',
          'SANDBOX_AUTOPAYMENT_LEAD_DAYS',
          'SANDBOX_START',
          'SANDBOX_CLOCK',
          'SANDBOX_PUBLIC_URL',
          'SANDBOX_CONTROL_TOKEN',
        ]) {
          assert.match(error.message, new RegExp(name), name);
        }
        assert.doesNotMatch(error.message, /short/, 'the control token is not repeated');
        return true;
      },
    );
  });
});
