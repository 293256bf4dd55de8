import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/relay/config/load.js';

const good = {
  BILLING_BASE_URL: 'https://billing.example/api/rest/v1/',
  BILLING_USERNAME: 'merchant',
  BILLING_PASSWORD: 's3cret',
  EPS_UUID_A: 'uuid-a',
  EPS_UUID_C: 'uuid-c',
  ALLOWED_ORIGINS: 'https://shop.example, http://localhost:8080',
};

describe('relay configuration', () => {
  it('reads a good environment with its defaults', () => {
    const config = loadConfig(good);
    assert.equal(config.billingBaseUrl, 'https://billing.example/api/rest/v1');
    assert.deepEqual(config.epsUuids, { A: 'uuid-a', C: 'uuid-c' });
    assert.deepEqual(config.allowedOrigins, ['https://shop.example', 'http://localhost:8080']);
    assert.equal(config.port, 8787);
    assert.equal(config.maxAmount, 10_000_000n);
    assert.equal(config.maxAmountText, '100000.00');
    assert.deepEqual(config.lookups, [5, 6, 8, 10, 11, 14]);
    assert.deepEqual(config.rateLimitNotFound, { points: 5, seconds: 600 });
    assert.equal(config.rateLimitIpv6Prefix, 64);
    assert.deepEqual(config.redirectUrlKeys, ['confirmation_url', 'payment_url', 'redirect_url', 'url']);
  });

  it('names every bad or missing variable at once', () => {
    const env = {
      BILLING_BASE_URL: 'https://user:pw@billing.example/api/rest/v1',
      ALLOWED_ORIGINS: 'https://shop.example/path',
      PORT: 'eighty',
      MAX_AMOUNT: '10.001',
      ALLOWED_LOOKUPS: '5 9',
      BILLING_TOKEN_TTL_UNIT: 'minutes',
      LOG_LEVEL: 'verbose',
      HOST: ' ',
      REDIRECT_URL_KEYS: ',',
    };
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const text = error.problems.join('\n');
        for (const name of [
          'BILLING_BASE_URL',
          'BILLING_USERNAME',
          'BILLING_PASSWORD',
          'EPS_UUID_A',
          'ALLOWED_ORIGINS',
          'PORT',
          'MAX_AMOUNT',
          'ALLOWED_LOOKUPS',
          'BILLING_TOKEN_TTL_UNIT',
          'LOG_LEVEL',
          'HOST',
          'REDIRECT_URL_KEYS',
        ]) {
          assert.match(text, new RegExp(name), name);
        }
        assert.doesNotMatch(error.message, /pw@/, 'the message does not repeat a credential');
        return true;
      },
    );
  });

  it('reads the limits of issue 12 with their defaults, and names each bad one', () => {
    const config = loadConfig(good);
    assert.equal(config.billingMaxResponseBytes, 1024 * 1024);
    assert.deepEqual(config.paymentAnswerFields, []);
    assert.equal(config.paymentMethodsAgreementField, 'agreement_id');
    assert.equal(config.paymentMethodsTrustScope, false);
    assert.equal(config.storeFile, 'billing-pay-relay.db');
    assert.equal(config.rateLimitMaxKeys, 100_000);
    assert.deepEqual(config.rateLimitSession, { points: 60, seconds: 60 });
    assert.deepEqual(config.rateLimitSessionIp, { points: 120, seconds: 60 });
    assert.equal(config.sessionMaxAgeSeconds, 86_400);
    assert.deepEqual(config.server, {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
    });
    const bad = {
      BILLING_MAX_RESPONSE_BYTES: '0',
      PAYMENT_ANSWER_FIELDS: 'a b,c!',
      PAYMENT_METHODS_AGREEMENT_FIELD: '1x',
      PAYMENT_METHODS_TRUST_BILLING_SCOPE: 'maybe',
      STORE_FILE: ' ',
      TOKEN_SECRET: 'short',
      RATE_LIMIT_MAX_KEYS: '-1',
      RATE_LIMIT_SESSION: '60',
      RATE_LIMIT_SESSION_IP: '0/60',
      SESSION_MAX_AGE_SECONDS: '',
      SERVER_HEADERS_TIMEOUT_MS: '40000',
      SERVER_MAX_CONNECTIONS: '0',
    };
    assert.throws(
      () => loadConfig({ ...good, ...bad, SESSION_MAX_AGE_SECONDS: '0' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        for (const name of Object.keys(bad)) assert.match(error.message, new RegExp(name), name);
        return true;
      },
    );
  });

  it('AUTOPAYMENT_LEAD_DAYS: N of the billing’s autopayments, 1 by default, whole days from 1 to 365', () => {
    assert.equal(loadConfig(good).autopayLeadDays, 1);
    assert.equal(loadConfig({ ...good, AUTOPAYMENT_LEAD_DAYS: '3' }).autopayLeadDays, 3);
    assert.equal(loadConfig({ ...good, AUTOPAYMENT_LEAD_DAYS: ' 365 ' }).autopayLeadDays, 365);
    for (const bad of ['0', '366', '1.5', '-1', 'two', '1e1', '']) {
      assert.throws(
        () => loadConfig({ ...good, AUTOPAYMENT_LEAD_DAYS: bad }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.join('\n') === 'AUTOPAYMENT_LEAD_DAYS must be a whole number of days from 1 to 365',
        JSON.stringify(bad),
      );
    }
  });

  it('keeps MAX_AMOUNT within the 15 digits a JSON number carries exactly', () => {
    assert.equal(loadConfig({ ...good, MAX_AMOUNT: '9999999999999.99' }).maxAmountText, '9999999999999.99');
    assert.throws(() => loadConfig({ ...good, MAX_AMOUNT: '10000000000000.00' }), /MAX_AMOUNT/);
  });

  it('REDIS_URL that node-redis could not read (a bad % escape in the password) is named, not a stack trace', () => {
    for (const url of ['redis://:pa%ss@127.0.0.1:6379', 'redis://us%zzer:pw@127.0.0.1:6379', 'redis://[::1:6379']) {
      assert.throws(
        () => loadConfig({ ...good, REDIS_URL: url }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, `${url}: ${String(error)}`);
          assert.deepEqual(error.problems, [
            'REDIS_URL must be a redis:// or rediss:// URL (a user name or password in it percent-encoded: %25 for %)',
          ]);
          assert.doesNotMatch(error.message, /pa%ss/, 'the message does not repeat the password');
          return true;
        },
      );
    }
    assert.equal(loadConfig({ ...good, REDIS_URL: 'redis://:pa%25ss@127.0.0.1:6379' }).secrets.includes('pa%ss'), true);
  });

  it('REDIS_KEY_PREFIX: billing-pay: unless set; printable ASCII without spaces', () => {
    assert.equal(loadConfig(good).redisKeyPrefix, 'billing-pay:');
    assert.equal(loadConfig({ ...good, REDIS_KEY_PREFIX: 'shop-a:pay:' }).redisKeyPrefix, 'shop-a:pay:');
    for (const bad of ['', 'has space', 'x'.repeat(65)])
      assert.throws(() => loadConfig({ ...good, REDIS_KEY_PREFIX: bad }), /REDIS_KEY_PREFIX must/, bad);
  });
});

describe('relay configuration: secrets from files (NAME_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-pay-secrets-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const withoutPassword = { ...good, BILLING_PASSWORD: undefined };

  it('reads each secret from the file NAME_FILE names, its final newline dropped, and scrubs it from the logs', () => {
    const config = loadConfig({
      ...withoutPassword,
      BILLING_PASSWORD_FILE: file('password', 'from-a-file\n'),
      SESSION_SECRET_FILE: file('session', `${'k'.repeat(40)}\r\n`),
    });
    assert.equal(config.billingPassword, 'from-a-file');
    assert.equal(config.sessionSecret, 'k'.repeat(40));
    assert.ok(config.secrets.includes('from-a-file') && config.secrets.includes('k'.repeat(40)));
  });

  it('refuses both NAME and NAME_FILE, an unreadable or empty file, and a bad value, naming the variable only', () => {
    assert.throws(
      () =>
        loadConfig({
          ...good,
          BILLING_PASSWORD_FILE: file('both', 'other'),
          TOKEN_SECRET_FILE: join(dir, 'no-such-file'),
          SESSION_SECRET_FILE: file('short', 'too-short-a-secret\n'),
          REDIS_PASSWORD_FILE: file('empty', '\n'),
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems.slice(0, 4), [
          'BILLING_PASSWORD and BILLING_PASSWORD_FILE: set one of them, not both',
          'REDIS_PASSWORD (from REDIS_PASSWORD_FILE) is empty',
          `TOKEN_SECRET_FILE: cannot read ${join(dir, 'no-such-file')} (ENOENT)`,
          'SESSION_SECRET (from SESSION_SECRET_FILE) must be at least 32 bytes (for example: openssl rand -base64 48)',
        ]);
        assert.doesNotMatch(error.message, /too-short-a-secret|s3cret|other/);
        return true;
      },
    );
  });

  it('reads NAME_FILE only for secrets', () => {
    assert.equal(loadConfig({ ...good, HOST_FILE: file('host', '0.0.0.0') }).host, '127.0.0.1');
  });
});

describe('relay configuration: BASE_PATH and the metrics listener', () => {
  it('serves at the root and no metrics by default', () => {
    const config = loadConfig(good);
    assert.equal(config.basePath, '');
    assert.equal(config.metrics, undefined);
  });

  it('takes a path without its trailing slash, and a metrics port on loopback unless told otherwise', () => {
    assert.equal(loadConfig({ ...good, BASE_PATH: '/relay/' }).basePath, '/relay');
    assert.equal(loadConfig({ ...good, BASE_PATH: '/' }).basePath, '');
    assert.equal(loadConfig({ ...good, BASE_PATH: '/pay/v1.relay' }).basePath, '/pay/v1.relay');
    assert.deepEqual(loadConfig({ ...good, METRICS_PORT: '9464' }).metrics, { host: '127.0.0.1', port: 9464 });
    assert.throws(
      () => loadConfig({ ...good, BASE_PATH: 'relay', METRICS_PORT: '99999' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((p) => p.startsWith('BASE_PATH must')) &&
        error.problems.some((p) => p.startsWith('METRICS_PORT must')),
    );
    for (const bad of ['/a b', '/../x', '//x', '/a?b']) {
      assert.throws(() => loadConfig({ ...good, BASE_PATH: bad }), /BASE_PATH must/, bad);
    }
  });
});
