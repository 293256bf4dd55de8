/**
 * The widget's weight and speed, next to the Lit reference element: bundle bytes (raw and gzip -9), and the time
 * from the `<script>` tag to the element's first complete render in headless Chromium over fresh page loads.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer-core';
import { build } from 'vite';
import { CHROMIUM } from '../scripts/chromium.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const WIDGET_BUNDLE = `${ROOT}dist/billing-pay.js`;
export const REFERENCE_BUNDLE = `${ROOT}bench/tmp/reference/reference-element.js`;

/** `npm run build` (the widget, as shipped), then the reference element with the same Vite configuration. */
export async function buildBundles(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const npm = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk));
    npm.once('error', reject);
    npm.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run build failed (${code}):\n${output}`)),
    );
  });
  await build({ root: ROOT, configFile: `${ROOT}bench/vite.reference.config.ts`, logLevel: 'warn' });
}

/** bench/first-screen-html.ts built as the widget is (bench/profile.ts's first-screen page). */
export async function firstScreenBundle(): Promise<Buffer> {
  await build({ root: ROOT, configFile: `${ROOT}bench/vite.first-screen.config.ts`, logLevel: 'warn' });
  return readFile(`${ROOT}bench/tmp/first-screen/first-screen-html.js`);
}

export async function bundleSize(path: string): Promise<{ raw: number; gzip: number }> {
  const bytes = await readFile(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

export interface Page {
  /** The element's tag, its script and the event it fires once rendered with `/config`. */
  tag: string;
  script: string;
  readyEvent: string;
}

/**
 * A tiny static server for the test pages: `/{tag}.html` loads `/{tag}.js` and shows `<{tag} relay="…">`. The page
 * notes the time just before its `<script>` tag and again when the element's ready event arrives.
 */
export async function startPageServer(
  pages: Page[],
  relayUrl: () => string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const scripts = new Map<string, Buffer>(
    await Promise.all(pages.map(async (p) => [`/${p.tag}.js`, await readFile(p.script)] as const)),
  );
  const html = new Map<string, () => string>(
    pages.map((p) => [
      `/${p.tag}.html`,
      () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${p.tag}</title>
<script>
  addEventListener('${p.readyEvent}', () => { window.benchRendered = performance.now() - window.benchStart; }, { once: true });
  window.benchStart = performance.now();
</script>
<script type="module" src="/${p.tag}.js"></script>
</head><body><${p.tag} relay="${relayUrl()}"></${p.tag}></body></html>`,
    ]),
  );
  const server = http.createServer((req, res) => {
    const page = html.get(req.url ?? '');
    const script = scripts.get(req.url ?? '');
    if (page)
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page());
    else if (script) res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    ...CHROMIUM,
    headless: true,
  });
}

/**
 * Milliseconds from the `<script>` tag to the element's first complete render, for `loads` fresh loads of each page
 * (a new browser context each time: nothing cached), the pages taking turns so that drift hits them alike.
 */
export async function timeFirstRender(browser: Browser, urls: string[], loads: number): Promise<number[][]> {
  const times = urls.map(() => [] as number[]);
  for (let i = 0; i < loads; i += 1) {
    for (const [index, url] of urls.entries()) {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.waitForFunction(() => 'benchRendered' in window, { timeout: 10_000 });
        times[index]!.push(await page.evaluate(() => (window as unknown as { benchRendered: number }).benchRendered));
      } finally {
        await context.close();
      }
    }
  }
  return times;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
