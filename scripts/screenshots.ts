/**
 * `npm run screenshots`: the demo page with `<billing-pay>` in light and dark, English and Russian, 320 px and
 * desktop wide, as a person sees it, into `screenshots/` (git-ignored), each idle and after pressing Pay on the
 * empty form. `--docs` also writes the two pictures of the README (the widget alone, light and dark) into
 * `docs/screenshots/`.
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
import { loadConfig } from '../src/relay/config.js';
import { createLogger } from '../src/relay/logger.js';
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

async function pressPay(page: Page): Promise<void> {
  await page.evaluate(() =>
    document
      .querySelector('billing-pay')!
      .shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!
      .click(),
  );
  await page.waitForFunction(() =>
    document.querySelector('billing-pay')!.shadowRoot!.querySelector('[aria-invalid="true"]'),
  );
}

try {
  await mkdir(OUT, { recursive: true });
  const written: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    for (const lang of ['en', 'ru'] as const) {
      for (const [size, width] of [
        ['320', 320],
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
  }
} finally {
  await browser.close();
  await relay.close();
  await sandbox.close();
  demo.close();
}
