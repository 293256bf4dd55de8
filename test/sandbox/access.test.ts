import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, payment, start, type Client } from './helpers.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

// Three suites on three sandboxes, run side by side so the expiry wait costs no time; each suite runs in order.
describe('sandbox: access (authentication, token expiry, faults)', { concurrency: true }, () => {
  describe('Basic credentials and bearer tokens', { concurrency: 1 }, () => {
    let client: Client;
    before(async () => {
      client = await start({ username: 'merchant', password: 'p:ss wörd' });
    });
    after(() => client.close());

    const auth = (authorization?: string) =>
      fetch(`${client.sandbox.baseUrl}/auth`, { headers: authorization ? { authorization } : {} });

    it('GET /auth with the right Basic credentials issues a random token for 600 seconds', async () => {
      const first = await auth(basic('merchant', 'p:ss wörd'));
      assert.equal(first.status, 200);
      const body = (await first.json()) as { code: number; response: { token: string; expires_in: number } };
      assert.equal(body.code, 200);
      assert.equal(body.response.expires_in, 600);
      assert.match(body.response.token, /^[\w-]{24,}$/);
      const second = (await (await auth(basic('merchant', 'p:ss wörd'))).json()) as typeof body;
      assert.notEqual(second.response.token, body.response.token);
      assert.equal((await client.api('GET', '/tariffs', undefined, body.response.token)).status, 200);
    });

    it('refuses a wrong password, a wrong user, a missing or malformed header with 401 and a Basic challenge', async () => {
      for (const header of [
        basic('merchant', 'wrong'),
        basic('demo', 'p:ss wörd'),
        undefined,
        'Basic !!!',
        'Bearer abc',
      ]) {
        const res = await auth(header);
        assert.equal(res.status, 401, String(header));
        assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
        assert.deepEqual(await res.json(), {
          code: 401,
          error: { message: 'valid HTTP Basic credentials are required' },
        });
      }
    });

    it('every other endpoint needs a known bearer token', async () => {
      const noHeader = await fetch(`${client.sandbox.baseUrl}/tariffs`);
      assert.equal(noHeader.status, 401);
      assert.match(noHeader.headers.get('www-authenticate') ?? '', /^Bearer /);
      const unknown = await client.api('GET', '/tariffs', undefined, 'not-a-token');
      assert.equal(unknown.status, 401);
      assert.match(errorMessage(unknown), /not valid/);
      const basicOnly = await fetch(`${client.sandbox.baseUrl}/payment_methods`, {
        headers: { authorization: basic('merchant', 'p:ss wörd') },
      });
      assert.equal(basicOnly.status, 401);
    });

    it('revokeTokens() makes every issued token fail; a new one works', async () => {
      const token = await client.token();
      assert.equal((await client.api('GET', '/tariffs', undefined, token)).status, 200);
      client.sandbox.revokeTokens();
      const refused = await client.api('GET', '/tariffs', undefined, token);
      assert.equal(refused.status, 401);
      assert.equal((await client.api('GET', '/tariffs', undefined, await client.token())).status, 200);
    });
  });

  describe('token expiry', { concurrency: 1 }, () => {
    it('a token issued with a 1-second lifetime says so and is refused once expired', async () => {
      const client = await start({ tokenTtlSeconds: 1 });
      try {
        const res = await fetch(`${client.sandbox.baseUrl}/auth`, {
          headers: { authorization: basic('demo', 'demo-secret') },
        });
        const { response } = (await res.json()) as { response: { token: string; expires_in: number } };
        assert.equal(response.expires_in, 1);
        assert.equal((await client.api('GET', '/tariffs', undefined, response.token)).status, 200);
        await new Promise((resolve) => setTimeout(resolve, 1050));
        const expired = await client.api('GET', '/tariffs', undefined, response.token);
        assert.equal(expired.status, 401);
        assert.equal(errorMessage(expired), 'the bearer token has expired');
      } finally {
        await client.close();
      }
    });
  });

  describe('faults and counts', { concurrency: 1 }, () => {
    let client: Client;
    before(async () => {
      client = await start();
    });
    afterEach(() => {
      delete client.sandbox.faults.auth;
      delete client.sandbox.faults.epsPayments;
    });
    after(() => client.close());

    const auth = () =>
      fetch(`${client.sandbox.baseUrl}/auth`, { headers: { authorization: basic('demo', 'demo-secret') } });

    it('status with times: the next payment requests fail with that status in the envelope, then the fault clears itself', async () => {
      const token = await client.token();
      const paymentsBefore = client.sandbox.store.payments.size;
      const countBefore = client.sandbox.counts.epsPayments;
      client.sandbox.faults.epsPayments = { status: 503, times: 2 };
      for (let i = 0; i < 2; i++) {
        const failed = await client.api('POST', '/eps_payments', payment('C'), token);
        assert.equal(failed.status, 503);
        assert.match(errorMessage(failed), /fault injected/);
      }
      assert.equal(client.sandbox.faults.epsPayments, undefined);
      assert.equal(client.sandbox.store.payments.size, paymentsBefore, 'a failed request stores nothing');
      assert.equal((await client.api('POST', '/eps_payments', payment('C'), token)).status, 201);
      assert.equal(client.sandbox.counts.epsPayments - countBefore, 3, 'counts every request, failed or not');
      // Other routes are untouched.
      client.sandbox.faults.epsPayments = { status: 500 };
      assert.equal((await client.api('GET', '/tariffs', undefined, token)).status, 200);
    });

    it('without times a fault stays until cleared; it also applies to GET /auth', async () => {
      const countBefore = client.sandbox.counts.auth;
      client.sandbox.faults.auth = { status: 500 };
      for (let i = 0; i < 3; i++) assert.equal((await auth()).status, 500);
      delete client.sandbox.faults.auth;
      assert.equal((await auth()).status, 200);
      assert.equal(client.sandbox.counts.auth - countBefore, 4);
    });

    it('delayMs slows the answer and then handles the request normally (or answers the status)', async () => {
      const token = await client.token();
      client.sandbox.faults.epsPayments = { delayMs: 250, times: 1 };
      let started = performance.now();
      const slow = await client.api('POST', '/eps_payments', payment('C'), token);
      const slowMs = performance.now() - started;
      assert.equal(slow.status, 201);
      assert.ok(slowMs >= 240, `took ${slowMs} ms`);

      assert.equal(client.sandbox.faults.epsPayments, undefined, 'the fault cleared after one request');
      assert.equal((await client.api('POST', '/eps_payments', payment('C'), token)).status, 201);

      client.sandbox.faults.auth = { delayMs: 150, status: 502 };
      started = performance.now();
      const res = await auth();
      assert.equal(res.status, 502);
      assert.ok(performance.now() - started >= 140);
    });

    it('the control API sets a fault with every field by its wire name and answers it under the same names', async () => {
      const slowReset = { reset: true, delay_ms: 5, times: 3 };
      const busy = { status: 429, retry_after: 0, times: 2 };
      assert.equal((await client.control('POST', '/faults', { target: 'auth', ...slowReset })).status, 200);
      const set = await client.control('POST', '/faults', { target: 'eps_payments', ...busy });
      assert.deepEqual(set.body, { faults: { auth: slowReset, eps_payments: busy } });
      assert.deepEqual(
        { ...client.sandbox.faults },
        { auth: { drop: true, delayMs: 5, times: 3 }, epsPayments: { status: 429, retryAfter: 0, times: 2 } },
      );
      client.sandbox.faults.auth = { garbage: '', drop: false };
      assert.deepEqual(
        (await client.control('GET', '/faults')).body,
        { faults: { auth: { garbage: '' }, eps_payments: busy } },
        'drop: false is no reset',
      );
    });

    it('a request stuck in a delay does not hold close() up', async () => {
      const other = await start();
      other.sandbox.faults.auth = { delayMs: 10_000 };
      const pending = fetch(`${other.sandbox.baseUrl}/auth`).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      await other.close();
      assert.ok(performance.now() - started < 1000);
      await pending;
    });
  });
});
