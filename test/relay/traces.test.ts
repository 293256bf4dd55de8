/**
 * Traces: with an OTLP endpoint the relay sends a span for each request and each billing call to the collector (here an
 * OTLP/HTTP JSON receiver in this process), in the caller's trace, and passes the trace on to the billing; no secret or
 * personal value is in a span. Without one, the built relay never loads its tracing chunk.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { CREDENTIALS, SHOP, paymentA, startStack, type Stack } from './harness.js';
import { BUILT_RELAY, spawnRelay } from './relay-process.js';

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
}

const SERVER = 2;
const CLIENT = 3;
const SECRET = 'a-session-secret-of-at-least-32-bytes-for-traces';
const EMAIL = 'payer.traced@example.com';
const LOOKUP = 'AG-1001';

/** An OTLP/HTTP collector: keeps each export it receives. */
async function otlpReceiver() {
  const exports: { path: string; type: string; text: string }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', text });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    spans: (): OtlpSpan[] =>
      exports.flatMap(({ text }) => {
        const body = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};

describe('relay: traces', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  before(async () => {
    receiver = await otlpReceiver();
  });
  after(() => receiver.close());

  it('a payment’s request and billing calls are spans of the caller’s trace, passed on, with no secret in them', async () => {
    const stack: Stack = await startStack({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, SESSION_SECRET: SECRET },
    });
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const session = await createClientSession({ agreementId: 1001 }, SECRET);
    try {
      const paid = await stack.post(
        { ...paymentA({ email: EMAIL }), agreement_param_value: LOOKUP },
        { traceparent: `00-${traceId}-${callerSpan}-01` },
      );
      assert.equal(paid.status, 201);
      const methods = await fetch(`${stack.relay.url}/payment-methods?agreement=${LOOKUP}`, {
        headers: { origin: SHOP, authorization: `Bearer ${session}` },
      });
      assert.equal(methods.status, 200);
    } finally {
      // Closing the relay sends the spans still buffered.
      await stack.close();
    }

    assert.ok(receiver.exports.length > 0, 'the collector received spans');
    for (const { path, type } of receiver.exports) {
      assert.equal(path, '/v1/traces');
      assert.match(type, /^application\/json/);
    }
    const spans = receiver.spans();
    const inTrace = spans.filter((s) => s.traceId === traceId);
    const request = inTrace.find((s) => s.kind === SERVER && s.name === 'POST /payments');
    assert.ok(request, `the request's span, in the caller's trace: ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(request.parentSpanId, callerSpan);
    assert.equal(attribute(request, 'http.route'), '/payments');
    assert.equal(attribute(request, 'http.response.status_code'), 201);

    for (const name of ['GET /auth', 'POST /eps_payments']) {
      const call = inTrace.find((s) => s.kind === CLIENT && s.name === name);
      assert.ok(call, `${name}: a span in the caller's trace`);
      assert.equal(call.parentSpanId, request.spanId, `${name}: a child of the request's span`);
    }
    const payment = inTrace.find((s) => s.name === 'POST /eps_payments')!;
    assert.equal(attribute(payment, 'url.template'), '/eps_payments');
    const sent = stack.sandbox.calls.filter((c) => c.path === '/eps_payments');
    assert.deepEqual(
      sent.map((c) => c.traceparent),
      [`00-${traceId}-${payment.spanId}-01`],
      'the billing received the trace, with the call’s span as its parent',
    );

    const list = spans.find((s) => s.kind === CLIENT && s.name === 'GET /payment_methods');
    assert.ok(list, 'the payment methods call has its span');
    assert.equal(attribute(list, 'url.template'), '/payment_methods');
    const listRequest = spans.find((s) => s.spanId === list.parentSpanId)!;
    assert.equal(listRequest.name, 'GET /payment-methods');

    // No secret nor personal value anywhere in what the collector received.
    const tokens = stack.sandbox.calls.flatMap((c) => c.authorization?.split(' ').slice(1) ?? []);
    const everything = receiver.exports.map((e) => e.text).join('\n');
    for (const value of [
      LOOKUP,
      EMAIL,
      SECRET,
      session,
      CREDENTIALS.username,
      CREDENTIALS.password,
      ...new Set(tokens),
      `agreement=`,
      'shop.test',
    ]) {
      assert.ok(!everything.includes(value), `a span carries ${value}`);
    }
    for (const span of spans) {
      for (const { key, value } of span.attributes) {
        assert.doesNotMatch(JSON.stringify(value), /(^|\D)1001(\D|$)|@/, `${span.name}: ${key}`);
        assert.doesNotMatch(key, /^(url\.(full|query|path)|http\.request\.header|user\.|client\.address)/);
      }
    }
  });

  it('the built relay loads its tracing chunk only with an endpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-pay-traces-'));
    const hook = join(dir, 'log-modules.mjs');
    writeFileSync(
      hook,
      "import { registerHooks } from 'node:module';\n" +
        'registerHooks({ load(url, context, next) { process.stderr.write(`module ${url}\\n`); return next(url, context); } });\n',
    );
    const env = {
      BILLING_BASE_URL: 'http://127.0.0.1:9/api/rest/v1',
      BILLING_USERNAME: 'user',
      BILLING_PASSWORD: 'password',
      EPS_UUID_A: 'eps-a',
      ALLOWED_ORIGINS: SHOP,
      STORE_FILE: ':memory:',
      NODE_OPTIONS: `--import=${hook}`,
    };
    const loaded = async (extra: Record<string, string>) => {
      const relay = await spawnRelay({ ...env, ...extra }, undefined, { built: true });
      await relay.stop('SIGTERM');
      return [...relay.output().matchAll(/^module (\S+)$/gm)].map((m) => m[1]!);
    };

    const without = await loaded({});
    assert.ok(
      without.some((url) => url.endsWith('/dist/relay/server.js')),
      'the hook sees the relay’s modules',
    );
    assert.deepEqual(
      without.filter((url) => /\/chunks\/otel-/.test(url)),
      [],
      'no tracing chunk without an endpoint',
    );
    const withEndpoint = await loaded({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` });
    const otel = withEndpoint.filter((url) => /\/chunks\/otel-/.test(url));
    assert.equal(otel.length, 1, 'the tracing chunk, with an endpoint');

    // What the relay loads without an endpoint holds none of the SDK, the exporter or the propagator.
    const bundle = readFileSync(BUILT_RELAY, 'utf8');
    const statics = [...bundle.matchAll(/from"\.\/(chunks\/[^"]+)"/g)].map((m) => m[1]!);
    for (const file of ['server.js', ...statics]) {
      const text = readFileSync(new URL(file, `file://${BUILT_RELAY}`), 'utf8');
      assert.doesNotMatch(text, /NodeTracerProvider|OTLPTraceExporter|BatchSpanProcessor|W3CTraceContextPropagator/);
    }
    assert.match(readFileSync(new URL(otel[0]!), 'utf8'), /NodeTracerProvider/);
  });
});
