/**
 * `npm run screenshots`: the demo page with `<billing-pay>` in light and dark, English and Russian, 320 px and
 * desktop wide, as a person sees it, into `screenshots/` (git-ignored), each idle and after pressing Pay on the
 * empty form. `--docs` also writes the pictures of the README and docs/embedding.md (the widget alone, light and
 * dark, Russian, 360 px and in a right-to-left page; the result screen after a real return through the sandbox's
 * payment page, in English, Russian and right-to-left; the duplicate payment question) into `docs/screenshots/`.
 * The pages run on a fixed clock and time zone, so that a run draws the same times as the last.
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
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

let relayUrl = '';
const bundles = JSON.parse(await readFile(`${root}dist/bundles.json`, 'utf8')) as Record<string, { file: string }>;
const demo = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  // The bundle, and the files it loads later beside itself under their hashed names (dist/bundles.json).
  const built = Object.entries(bundles).find(([, { file }]) => path === `/${file}`)?.[0];
  const file =
    path === '/billing-pay.js' || built
      ? `${root}dist/${built ?? 'billing-pay.js'}`
      : `${root}demo${path === '/' ? '/index.html' : path}`;
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
    // The result screens pay the same payment again; the duplicate question is drawn from a played answer.
    DUPLICATE_WINDOW_SECONDS: '0',
  }),
  createLogger('silent'),
);
relayUrl = relay.url;

/** The clock of every page (UTC) when it opens: the times the pictures show. */
const NOW = Date.parse('2026-11-26T12:03:00Z');

/**
 * Runs in each document of a page before its scripts: `Date` runs `offset` ms from the real clock, so that the page's
 * clock reads `NOW` when it opens and runs on through its documents. A string, not a function: tsx would add its
 * helpers to a function's source, which the page does not have.
 */
const fixClock = (offset: number) => `(() => {
  const Real = Date;
  globalThis.Date = class extends Real {
    constructor(...args) {
      if (args.length) super(...args);
      else super(Real.now() + ${offset});
    }
    static now() {
      return Real.now() + ${offset};
    }
  };
})();`;

const browser = await puppeteer.launch({
  ...CHROMIUM,
  headless: true,
});

type Dir = 'ltr' | 'rtl';

/** Opens the demo in a scheme, a language, a width and a direction, and waits for the widget's form. */
async function open(scheme: 'light' | 'dark', lang: 'en' | 'ru', width: number, dir: Dir = 'ltr'): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  await page.emulateTimezone('UTC');
  await page.evaluateOnNewDocument(fixClock(NOW - Date.now()));
  page.on('console', (m) => m.type() === 'error' && console.error(`  page: ${m.text()}`));
  await page.goto(`${demoUrl}/`, { waitUntil: 'networkidle0' });
  if (lang === 'ru') await page.click('[data-lang="ru"]');
  await setDir(page, dir);
  await page.waitForFunction(() =>
    document
      .querySelector('billing-pay')
      ?.shadowRoot?.querySelector('button[type="submit"][part="button"]:not(.skeleton)'),
  );
  return page;
}

/** The page's direction (`<html dir>`): the widget lays itself out by it. */
async function setDir(page: Page, dir: Dir): Promise<void> {
  await page.evaluate((dir) => (document.documentElement.dir = dir), dir);
}

/** Pictures the widget alone into docs/screenshots/`name`.png. */
async function widgetShot(page: Page, name: string): Promise<void> {
  await (await page.$('billing-pay'))!.screenshot({ path: `${DOCS}${name}.png` });
  console.log(`${DOCS}${name}.png`);
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

/**
 * The result screen after a real return: the payer pays through the relay, the sandbox's payment page is paid (its
 * form posted, as e2e-stack's `decide`), and its redirect brings the page back with the attempt's marker.
 */
async function docsResult(lang: 'en' | 'ru', dir: Dir, name: string): Promise<void> {
  const page = await open('light', lang, 1280, dir);
  await fill(page, { 'f-lookupValue': 'AG-1001', 'f-amount': '1500.50' });
  const away = page.waitForNavigation({ waitUntil: 'load', timeout: 10_000 }).catch(() => null);
  await page.evaluate(() =>
    document
      .querySelector('billing-pay')!
      .shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!
      .click(),
  );
  if (!(await away)) {
    const said = await page.evaluate(
      () => document.querySelector('billing-pay')!.shadowRoot!.querySelector('[part="status"]')?.textContent,
    );
    throw new Error(`Pay did not go to the payment page; the widget says: ${said}`);
  }
  if (!page.url().startsWith(`${sandbox.url}/pay/`)) throw new Error(`not on the payment page: ${page.url()}`);
  const decided = await fetch(page.url(), {
    method: 'POST',
    body: new URLSearchParams({ decision: 'pay' }),
    redirect: 'manual',
  });
  await page.goto(decided.headers.get('location')!, { waitUntil: 'networkidle0' });
  await setDir(page, dir);
  await page.waitForFunction(() => document.querySelector('billing-pay')?.shadowRoot?.querySelector('[part="result"]'));
  await widgetShot(page, name);
  await page.close();
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
  const earlier = new Date(NOW - 4 * 60_000).toISOString();
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
  await widgetShot(page, 'billing-pay-duplicate');
  await page.close();
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
    for (const [name, scheme, lang, width, dir] of [
      ['billing-pay-light', 'light', 'en', 1280, 'ltr'],
      ['billing-pay-dark', 'dark', 'en', 1280, 'ltr'],
      ['billing-pay-ru', 'light', 'ru', 1280, 'ltr'],
      ['billing-pay-360', 'light', 'en', 360, 'ltr'],
      ['billing-pay-rtl', 'light', 'en', 1280, 'rtl'],
    ] as const) {
      const page = await open(scheme, lang, width, dir);
      await widgetShot(page, name);
      await page.close();
    }
    await docsResult('en', 'ltr', 'billing-pay-result');
    await docsResult('ru', 'ltr', 'billing-pay-result-ru');
    await docsResult('en', 'rtl', 'billing-pay-result-rtl');
    await docsDuplicate();
  }
} finally {
  await browser.close();
  await relay.close();
  await sandbox.close();
  demo.close();
}
