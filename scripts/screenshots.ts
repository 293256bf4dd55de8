/**
 * `npm run screenshots`: the demo page with `<billing-pay>` in light and dark, English and Russian, 320 px and
 * desktop wide, as a person sees it, into `screenshots/` (git-ignored), each idle and after pressing Pay on the
 * empty form. `--docs` also writes the pictures of the README and docs/embedding.md (the widget alone, light and
 * dark; the result screen after a return; the duplicate payment question) into `docs/screenshots/`.
 *
 * Runs the sandbox, a relay and the demo page on free ports (the demo's relay address and CSP are rewritten to
 * the relay's), and Debian's Chromium through puppeteer-core. Run `npm run build` first.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Page } from 'puppeteer-core';
import { loadConfig } from '../src/relay/config/load.js';
import { createLogger } from '../src/relay/observability/logger.js';
import { startRelay } from '../src/relay/server.js';
import { startSandbox } from '../src/sandbox/server.js';
import { CHROMIUM } from './chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT = `${root}screenshots/`;
const DOCS = `${root}docs/screenshots/`;
const docs = process.argv.includes('--docs');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

let relayUrl = '';
const demo = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const file =
    path === '/billing-pay.js' ? `${root}dist/billing-pay.js` : `${root}demo${path === '/' ? '/index.html' : path}`;
  try {
    let body = await readFile(file, 'utf8');
    if (file.endsWith('.html')) body = body.replaceAll('http://localhost:8787', relayUrl);
    res.writeHead(200, { 'content-type': `${TYPES[extname(file)] ?? 'text/plain'}; charset=utf-8` }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => demo.listen(0, '127.0.0.1', resolve));
const demoUrl = `http://127.0.0.1:${(demo.address() as AddressInfo).port}`;

const sandbox = await startSandbox({ port: 0 });
const relay = await startRelay(
  loadConfig({
    ...sandbox.relayEnv(),
    ALLOWED_ORIGINS: demoUrl,
    PORT: '0',
    STORE_FILE: ':memory:',
    // The demo page's lookup kinds, personal ones included (docs/security.md, "Lookups").
    ALLOWED_LOOKUPS: '5 7 15',
  }),
  createLogger('silent'),
);
relayUrl = relay.url;

const browser = await puppeteer.launch({
  ...CHROMIUM,
  headless: true,
});

/** Opens the demo in a scheme, a language and a width, and waits for the widget's form. */
async function open(scheme: 'light' | 'dark', lang: 'en' | 'ru', width: number): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  page.on('console', (m) => m.type() === 'error' && console.error(`  page: ${m.text()}`));
  await page.goto(`${demoUrl}/`, { waitUntil: 'networkidle0' });
  if (lang === 'ru') await page.click('[data-lang="ru"]');
  await page.waitForFunction(() =>
    document.querySelector('billing-pay')?.shadowRoot?.querySelector('button[type="submit"]'),
  );
  return page;
}

/** Presses Pay and waits for what it brings (by default, a field marked invalid). */
async function pressPay(page: Page, expected = '[aria-invalid="true"]'): Promise<void> {
  await page.evaluate(() =>
    document
      .querySelector('billing-pay')!
      .shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!
      .click(),
  );
  await page.waitForFunction(
    (selector) => document.querySelector('billing-pay')!.shadowRoot!.querySelector(selector),
    {},
    expected,
  );
}

/** The widget's pieces through its shadow root: fills the labelled fields as a person types. */
async function fill(page: Page, values: Record<string, string>): Promise<void> {
  await page.evaluate((values) => {
    const root = document.querySelector('billing-pay')!.shadowRoot!;
    for (const [id, value] of Object.entries(values)) {
      const input = root.getElementById(id) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    }
  }, values);
}

/** The result screen: a return from the payment page, remembered as the widget remembers it before it leaves. */
async function docsResult(): Promise<void> {
  const page = await open('light', 'en', 1280);
  await page.evaluate(() => {
    const attempt = {
      id: crypto.randomUUID(),
      back: location.href.split(/[?#]/)[0],
      system: 'A',
      amount: '1500.50',
      lookup: 5,
      agreement: 'AG-1001',
      paymentId: '42',
      time: new Date().toISOString(),
    };
    sessionStorage.setItem('billing-pay-return', JSON.stringify(attempt));
  });
  await page.goto(`${demoUrl}/`, { waitUntil: 'networkidle0' });
  await page.waitForFunction(() => document.querySelector('billing-pay')?.shadowRoot?.querySelector('[part="result"]'));
  await (await page.$('billing-pay'))!.screenshot({ path: `${DOCS}billing-pay-result.png` });
  await page.close();
  console.log(`${DOCS}billing-pay-result.png`);
}

/** The duplicate payment question: the relay's `duplicate_payment` answer, played by the browser's interception. */
async function docsDuplicate(): Promise<void> {
  const page = await open('light', 'en', 1280);
  await page.setRequestInterception(true);
  const cors = {
    'access-control-allow-origin': demoUrl,
    'access-control-allow-headers': 'content-type, idempotency-key',
    'access-control-allow-methods': 'POST',
  };
  const earlier = new Date(Date.now() - 4 * 60_000).toISOString();
  page.on('request', (request) => {
    if (!request.url().endsWith('/payments')) return void request.continue();
    if (request.method() === 'OPTIONS') return void request.respond({ status: 204, headers: cors });
    const error = { code: 'duplicate_payment', message: 'The same payment was sent.', earlier_at: earlier };
    void request.respond({
      status: 409,
      headers: cors,
      contentType: 'application/json',
      body: JSON.stringify({ error }),
    });
  });
  await fill(page, { 'f-lookupValue': 'AG-1001', 'f-amount': '1500.50' });
  await pressPay(page, '[part~="question"]');
  await (await page.$('billing-pay'))!.screenshot({ path: `${DOCS}billing-pay-duplicate.png` });
  await page.close();
  console.log(`${DOCS}billing-pay-duplicate.png`);
}

try {
  await mkdir(OUT, { recursive: true });
  const written: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    for (const lang of ['en', 'ru'] as const) {
      for (const [size, width] of [
        ['360', 360],
        ['desktop', 1280],
      ] as const) {
        const page = await open(scheme, lang, width);
        const name = `demo-${scheme}-${lang}-${size}`;
        await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
        await pressPay(page);
        await page.screenshot({ path: `${OUT}${name}-invalid.png`, fullPage: true });
        written.push(`${name}.png`, `${name}-invalid.png`);
        await page.close();
      }
    }
  }
  console.log(`${written.length} screenshots in ${OUT}:\n  ${written.join('\n  ')}`);

  if (docs) {
    await mkdir(DOCS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(scheme, 'en', 1280);
      const widget = await page.$('billing-pay');
      await widget!.screenshot({ path: `${DOCS}billing-pay-${scheme}.png` });
      await page.close();
      console.log(`${DOCS}billing-pay-${scheme}.png`);
    }
    await docsResult();
    await docsDuplicate();
  }
} finally {
  await browser.close();
  await relay.close();
  await sandbox.close();
  demo.close();
}
