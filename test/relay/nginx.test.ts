/**
 * The relay in production as docs/operating.md sets it up: Debian's nginx runs docs/deploy/nginx.conf — the very file
 * the page shows, only its addresses and paths replaced — in front of two relays (`BASE_PATH=/relay`,
 * `TRUST_PROXY=x-forwarded-for`) that share a real redis-server, with the sandbox as the billing. TLS with a
 * certificate made here, HTTP/2, the relay under /relay on the shop's origin, and a shop page that embeds the widget
 * exactly as README.md writes it: Chromium, told that shop.example and pay.shop.example are this nginx, loads the page
 * over https, pays, and lands on the sandbox's payment page. nginx runs as a foreground process of this test, with its
 * own prefix, temporary folders and free ports; none of the machine's nginx configuration is read.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as http2Connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { SHOP, paymentA, waitFor } from './harness.js';
import { freePort, startRedisServer, type RedisServer } from './redis-server.js';
import { spawnRelay, type RelayProcess } from './relay-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NGINX = '/usr/sbin/nginx';
const SHOP_ORIGIN = 'https://shop.example';
/** The sandbox's payment pages, on https like the shop's (a page on https never sends a payer to plain http). */
const BILLING_ORIGIN = 'https://billing.example';
const RATE_LIMIT = 3;
const skip = !existsSync(NGINX)
  ? 'nginx is not installed (apt-get install nginx)'
  : !existsSync(`${ROOT}dist/bundles.json`) && 'run npm run build first';

/** docs/deploy/nginx.conf with each of `replacements` made; a text the file no longer holds is an error. */
export function siteConfig(replacements: [string, string][]): string {
  let config = readFileSync(`${ROOT}docs/deploy/nginx.conf`, 'utf8');
  for (const [from, to] of replacements) {
    assert.ok(config.includes(from), `docs/deploy/nginx.conf no longer holds "${from}": update this test`);
    config = config.replaceAll(from, to);
  }
  return config;
}

/** README.md's embed snippet, as a page of the shop. */
function shopPage(): string {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const snippet = /<!-- embed:start -->[\s\S]*?```html\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, 'README.md has no embed snippet');
  return `<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<title>Shop</title>\n${snippet}</html>\n`;
}

interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  from?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('the relay behind nginx: TLS, HTTP/2, /relay on the shop’s origin, two relays and one Redis', { skip }, () => {
  let dir: string;
  let sandbox: Sandbox;
  let redis: RedisServer;
  const relays: { relay: RelayProcess; metricsPort: number }[] = [];
  let nginx: ChildProcess;
  let nginxLog = '';
  let httpsPort: number;
  let httpPort: number;
  let cert: string;
  let browser: Browser | undefined;

  /** A request to nginx as `shop.example`, from the local address `from` (the client's, as nginx sees it). */
  const call = (path: string, { method = 'GET', headers = {}, body, from = '127.0.0.1' }: CallOptions = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          servername: 'shop.example',
          port: httpsPort,
          path,
          method,
          ca: cert,
          localAddress: from,
          headers: { host: 'shop.example', ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const pay = (from: string, headers: Record<string, string> = {}) =>
    call('/relay/payments', {
      method: 'POST',
      from,
      headers: { origin: SHOP_ORIGIN, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(paymentA()),
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'billing-pay-nginx-'));
    // nginx's workers read the shop's page as the user they run as.
    chmodSync(dir, 0o755);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=shop.example',
        '-addext',
        'subjectAltName=DNS:shop.example,DNS:pay.shop.example,DNS:billing.example',
        '-keyout',
        join(dir, 'shop.key'),
        '-out',
        join(dir, 'shop.crt'),
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'shop.crt'), 'utf8');
    mkdirSync(join(dir, 'shop'), { mode: 0o755 });
    writeFileSync(join(dir, 'shop', 'index.html'), shopPage(), { mode: 0o644 });

    sandbox = await startSandbox({ port: 0, publicUrl: BILLING_ORIGIN });
    redis = await startRedisServer();
    for (let i = 0; i < 2; i += 1) {
      const metricsPort = await freePort();
      const relay = await spawnRelay({
        ...sandbox.relayEnv(),
        ALLOWED_ORIGINS: `${SHOP_ORIGIN},${SHOP}`,
        BASE_PATH: '/relay',
        TRUST_PROXY: 'x-forwarded-for',
        REDIS_URL: redis.url,
        RATE_LIMIT_IP: `${RATE_LIMIT}/60`,
        RATE_LIMIT_AGREEMENT: '1000/60',
        DUPLICATE_WINDOW_SECONDS: '0',
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
      });
      relays.push({ relay, metricsPort });
    }

    [httpsPort, httpPort] = [await freePort(), await freePort()];
    const site = siteConfig([
      ['server 10.0.0.11:8787;', `server 127.0.0.1:${relays[0]!.relay.port};`],
      ['server 10.0.0.12:8787;', `server 127.0.0.1:${relays[1]!.relay.port};`],
      ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
      ['listen 80;', `listen 127.0.0.1:${httpPort};`],
      ['/etc/nginx/tls/shop.example.crt', join(dir, 'shop.crt')],
      ['/etc/nginx/tls/shop.example.key', join(dir, 'shop.key')],
      ['root /var/www/shop;', `root ${join(dir, 'shop')};`],
    ]);
    writeFileSync(join(dir, 'site.conf'), site);
    // What /etc/nginx/nginx.conf gives a conf.d file, in this test's folder.
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        `user ${userInfo().username};`,
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  types { text/html html; text/javascript js; application/json json; }',
        `  access_log ${join(dir, 'access.log')};`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, t)};`),
        `  include ${join(dir, 'site.conf')};`,
        // The sandbox's payment pages on https (the test's, not the docs'), by the same certificate.
        '  server {',
        `    listen 127.0.0.1:${httpsPort} ssl http2;`,
        '    server_name billing.example;',
        `    ssl_certificate ${join(dir, 'shop.crt')};`,
        `    ssl_certificate_key ${join(dir, 'shop.key')};`,
        `    location / { proxy_pass ${sandbox.url}; }`,
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stdout!.on('data', (chunk) => (nginxLog += chunk));
    nginx.stderr!.on('data', (chunk) => (nginxLog += chunk));
    let up = false;
    const poll = setInterval(() => {
      call('/relay/healthz').then(
        (res) => (up ||= res.status === 200),
        () => {},
      );
    }, 100);
    try {
      await Promise.race([
        waitFor(() => up, 15_000),
        once(nginx, 'exit').then(([code]) => {
          const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
          throw new Error(`nginx exited (${code}):\n${nginxLog}${log}`);
        }),
      ]);
    } finally {
      clearInterval(poll);
    }
  });

  after(async () => {
    await browser?.close();
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await once(nginx, 'exit');
    }
    await Promise.all(relays.map(({ relay }) => relay.stop('SIGTERM')));
    await redis?.stop();
    await sandbox?.close();
  });

  it('speaks HTTP/2 over TLS, and sends plain http to https', async () => {
    const session = http2Connect(`https://127.0.0.1:${httpsPort}`, { ca: cert, servername: 'shop.example' });
    try {
      const stream = session.request({ ':path': '/relay/config', ':authority': 'shop.example' });
      const [headers] = (await once(stream, 'response')) as [Record<string, string>];
      stream.resume();
      assert.equal(headers[':status'], 200);
      assert.equal(session.alpnProtocol, 'h2');
    } finally {
      session.close();
    }
    const redirect = await new Promise<Answer>((resolve, reject) =>
      httpRequest(
        { host: '127.0.0.1', port: httpPort, path: '/relay/config', headers: { host: 'shop.example' } },
        (res) => resolve({ status: res.statusCode!, headers: res.headers, body: '' }),
      )
        .on('error', reject)
        .end(),
    );
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, 'https://shop.example/relay/config');
  });

  it('serves the relay under /relay, with HSTS from X-Forwarded-Proto, and the shop’s pages beside it', async () => {
    const config = await call('/relay/config');
    assert.equal(config.status, 200);
    assert.match(config.headers['strict-transport-security'] as string, /max-age=\d+/);
    const manifest = JSON.parse((await call('/relay/bundles.json')).body) as Record<string, { file: string }>;
    const bundle = await call(`/relay/${manifest['billing-pay.js']!.file}`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers['content-type'] as string, /^text\/javascript/);
    assert.equal((await call('/relay/readyz')).status, 200);
    const page = await call('/');
    assert.equal(page.status, 200);
    assert.match(page.body, /<billing-pay relay="https:\/\/pay\.shop\.example\/relay"/);
  });

  it('never lets /metrics out: the relays answer it only on their loopback metrics port', async () => {
    for (const path of ['/relay/metrics', '/metrics']) assert.equal((await call(path)).status, 404, path);
    for (const { metricsPort } of relays) {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      assert.match(text, /relay_http_requests_total\{route="\/config",method="GET",status="200"\}/);
    }
  });

  it('limits each client by the address nginx saw, shared by both relays through Redis, whatever it claims', async () => {
    // Each payment claims another address of its own; nginx appends the real one, which the relays take.
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      const res = await pay('127.0.0.2', { 'x-forwarded-for': `198.51.100.${i}` });
      assert.equal(res.status, 201, res.body);
    }
    const limited = await pay('127.0.0.2', { 'x-forwarded-for': '198.51.100.99' });
    assert.equal(limited.status, 429, limited.body);
    assert.equal((await pay('127.0.0.3')).status, 201, 'another client is not limited');
    const served = await Promise.all(
      relays.map(async ({ metricsPort }) => {
        const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        return /relay_http_requests_total\{route="\/payments",method="POST",status="201"\} (\d+)/.exec(text)?.[1];
      }),
    );
    assert.ok(
      served.every((n) => Number(n) > 0),
      `both relays took payments (${served.join(', ')})`,
    );
  });

  it('Chromium loads the shop page over https, pays, and lands on the sandbox’s payment page', async () => {
    const map = ['shop.example', 'pay.shop.example', 'billing.example']
      .map((name) => `MAP ${name} 127.0.0.1:${httpsPort}`)
      .join(',');
    browser = await puppeteer.launch({
      ...CHROMIUM,
      headless: true,
      args: [...CHROMIUM.args, `--host-resolver-rules=${map}`, '--ignore-certificate-errors'],
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const protocols: string[] = [];
    page.on('response', (res) => {
      if (res.url().startsWith('https://pay.shop.example/relay/')) protocols.push(res.url());
    });
    await page.goto(`${SHOP_ORIGIN}/`);
    await page
      .waitForFunction(() => document.querySelector('billing-pay')?.getAttribute('state') === 'ready', {
        timeout: 15_000,
      })
      .catch(() => assert.fail(`the widget did not get ready: ${errors.join(' | ')}`));
    await page.locator('billing-pay >>> #f-amount').fill('100.00');
    await page.locator('::-p-aria([name="Agreement number"][role="textbox"])').fill('AG-1001');
    const navigation = page.waitForNavigation({ timeout: 15_000 });
    await page.locator('billing-pay >>> button[type="submit"]').click();
    const landed = await navigation;
    assert.match(page.url(), new RegExp(`^${BILLING_ORIGIN}/pay/\\d+$`));
    assert.equal(landed?.status(), 200);
    assert.deepEqual(errors, []);
    assert.ok(
      protocols.some((url) => /\/relay\/billing-pay\.[0-9a-f]{10}\.js$/.test(url)) &&
        protocols.includes('https://pay.shop.example/relay/config'),
      `the bundle and /config came from the relay through nginx: ${protocols.join(', ')}`,
    );
  });
});
