/**
 * A page whose origin is not in `ALLOWED_ORIGINS`, through the relay's app: its `GET /config` is refused with a 403 `origin_not_allowed` its script can
 * read (CORS for that answer), logged with the variable that would allow it; its payments stay refused, unreadable
 * and unsent.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SHOP, STRANGER, paymentA, relayApp, type RelayApp } from './app.js';

describe('relay: a page of an origin not in ALLOWED_ORIGINS', () => {
  let relay: RelayApp;
  before(async () => {
    relay = await relayApp();
  });
  after(() => relay.close());

  it('GET /config: a 403 origin_not_allowed the page can read, and a log line naming ALLOWED_ORIGINS', async () => {
    const res = await relay.app.request('/config', { headers: { origin: STRANGER } });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), STRANGER);
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'origin_not_allowed');
    assert.match(body.error.message, /ALLOWED_ORIGINS/);
    assert.ok(body.error.message.includes(STRANGER), 'the message names the origin to add');
    const line = relay.logLines.find((l) => l.path === '/config' && l.status === 403);
    assert.ok(line, 'the refusal is logged');
    assert.equal(line.origin, STRANGER);
    assert.match(String(line.refused), /ALLOWED_ORIGINS/);
  });

  it('GET /config from an allowed page, or with no Origin (same-origin, curl): 200', async () => {
    const allowed = await relay.app.request('/config', { headers: { origin: SHOP } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), SHOP);
    assert.equal((await relay.app.request('/config')).status, 200);
  });

  it('POST /payments stays refused, without CORS, and reaches no billing', async () => {
    const res = await relay.app.request('/payments', {
      method: 'POST',
      headers: { origin: STRANGER, 'content-type': 'application/json' },
      body: JSON.stringify(paymentA()),
    });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
    assert.deepEqual(relay.billingCalls, []);
    const preflight = await relay.app.request('/payments', {
      method: 'OPTIONS',
      headers: { origin: STRANGER, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });
});
