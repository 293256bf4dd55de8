/**
 * The relay under a path (`BASE_PATH`), as behind a proxy that passes `/relay/…` on as it is: every route, the widget
 * bundles and their manifest answer under it and nowhere else, but the health probes also at the root; and `/metrics`
 * only on the metrics listener, never on the public port. Over real HTTP, with the sandbox as the billing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHOP, paymentA, startStack, type Stack } from './harness.js';

const built = existsSync(fileURLToPath(new URL('../../dist/bundles.json', import.meta.url)));

const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('relay: BASE_PATH=/relay', () => {
  let stack: Stack;
  let origin: string;
  before(async () => {
    stack = await startStack({ env: { BASE_PATH: '/relay' } });
    origin = new URL(stack.relay.url).origin;
  });
  after(() => stack.close());

  it('names its address with the path, and pays there', async () => {
    assert.equal(stack.relay.url, `${origin}/relay`);
    const res = await stack.post(paymentA(), { 'idempotency-key': randomUUID() });
    assert.equal(res.status, 201, await res.clone().text());
    assert.match(((await res.json()) as { redirect_url: string }).redirect_url, /\/pay\/\d+$/);
    const preflight = await fetch(`${origin}/relay/payments`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), SHOP);
  });

  it('answers /config under the path only', async () => {
    assert.equal((await fetch(`${origin}/relay/config`)).status, 200);
    for (const path of ['/config', '/payments', '/relayconfig', '/relay/relay/config']) {
      const res = await fetch(`${origin}${path}`, { method: path === '/payments' ? 'POST' : 'GET' });
      assert.equal(res.status, 404, path);
      assert.equal(await errorCode(res), 'not_found', path);
    }
  });

  it('answers the health probes under the path and at the root, for load balancers', async () => {
    for (const path of ['/healthz', '/relay/healthz', '/readyz', '/relay/readyz']) {
      assert.equal((await fetch(`${origin}${path}`)).status, 200, path);
    }
  });

  it(
    'serves the widget bundles and bundles.json under the path',
    { skip: !built && 'run npm run build first' },
    async () => {
      const manifest = (await (await fetch(`${origin}/relay/bundles.json`)).json()) as Record<string, { file: string }>;
      const bundle = await fetch(`${origin}/relay/${manifest['billing-pay.js']!.file}`);
      assert.equal(bundle.status, 200);
      assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.equal((await fetch(`${origin}/relay/billing-pay.js`)).status, 200);
      assert.equal((await fetch(`${origin}/bundles.json`)).status, 404);
      assert.equal((await fetch(`${origin}/${manifest['billing-pay.js']!.file}`)).status, 404);
    },
  );

  it('never answers /metrics on the public port; the metrics listener does, routes named without the path', async () => {
    for (const path of ['/metrics', '/relay/metrics']) {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(await errorCode(res), 'not_found');
    }
    const metricsUrl = stack.relay.metricsUrl!;
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(metricsUrl).port, new URL(origin).port);
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    assert.match(text, /relay_http_requests_total\{route="\/payments",method="POST",status="201"\} 1/);
    assert.match(text, /relay_http_requests_total\{route="\/config",method="GET",status="200"\}/);
    assert.equal((await fetch(`${metricsUrl}/config`)).status, 404, 'the metrics listener serves nothing else');
  });
});

describe('relay: metrics closed by default', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { METRICS_PORT: '' } });
  });
  after(() => stack.close());

  it('serves no metrics without METRICS_PORT, and never on the public port', async () => {
    assert.equal(stack.relay.metricsUrl, undefined);
    const res = await fetch(`${stack.relay.url}/metrics`);
    assert.equal(res.status, 404);
    assert.equal(await errorCode(res), 'not_found');
  });
});
