/**
 * What every answer of the relay's app carries, through `app.request()`: the one error shape for an unknown address
 * (under `BASE_PATH` too), the security headers, the request id (a client's own only when it is safe), and
 * `GET /config` without anything secret.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SHOP, errorOf, relayApp, type RelayApp } from './app.js';

describe('relay app: every answer', () => {
  let relay: RelayApp;
  before(async () => {
    relay = await relayApp();
  });
  after(() => relay.close());

  it('an unknown address is a 404 not_found in the error shape, with the security headers', async () => {
    const res = await relay.app.request('/nothing-here', { headers: { origin: SHOP } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(await errorOf(res), { code: 'not_found', message: 'There is nothing at this address.' });
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('strict-transport-security'), null, 'no HSTS over plain http');
    assert.equal(res.headers.get('access-control-allow-origin'), SHOP);
    assert.deepEqual(relay.billingCalls, []);
  });

  it('a request id: the client’s when short and safe, else a fresh one', async () => {
    const own = await relay.app.request('/healthz', { headers: { 'x-request-id': 'shop-1234' } });
    assert.equal(own.headers.get('x-request-id'), 'shop-1234');
    for (const unsafe of ['x'.repeat(65), 'a b', 'a"b']) {
      const res = await relay.app.request('/healthz', { headers: { 'x-request-id': unsafe } });
      const id = res.headers.get('x-request-id');
      assert.ok(id && id !== unsafe, unsafe);
    }
  });

  it('GET /config names what the widget draws, and nothing secret', async () => {
    const res = await relay.app.request('/config', { headers: { origin: SHOP } });
    assert.equal(res.status, 200);
    const text = await res.text();
    const config = JSON.parse(text) as { systems: { id: string }[]; maxAmount: string };
    assert.deepEqual(
      config.systems.map((s) => s.id),
      ['A', 'B', 'C'],
    );
    assert.equal(config.maxAmount, '100000.00');
    for (const secret of ['relay-password', 'relay-user', 'uuid-a']) assert.ok(!text.includes(secret), secret);
  });
});

describe('relay app: under BASE_PATH', () => {
  let relay: RelayApp;
  before(async () => {
    relay = await relayApp({ BASE_PATH: '/relay' });
  });
  after(() => relay.close());

  it('serves its routes there only, and the health probes at the root too', async () => {
    assert.equal((await relay.app.request('/relay/config', { headers: { origin: SHOP } })).status, 200);
    const outside = await relay.app.request('/config', { headers: { origin: SHOP } });
    assert.equal(outside.status, 404);
    assert.equal((await errorOf(outside)).code, 'not_found');
    assert.equal((await relay.app.request('/healthz')).status, 200);
    assert.equal((await relay.app.request('/relay/healthz')).status, 200);
  });
});
