/**
 * Every `curl` and HTML example of README.md and docs/*.md runs against the stack `npm start` starts (scripts/start.ts
 * as a process, on free ports), the default addresses in each example rewritten to this run's. A page's examples run
 * in document order, one after the other (the sandbox's clock, faults and payments carry over), on a sandbox reset to
 * its seed before each page. How a page marks what an example answers, or that it does not run:
 * test/docs/markdown-examples.ts and test/docs/shell-example.ts.
 * - `sh`: bash with `set -euo pipefail`; exits 0, and each call answers as shown (else with a success).
 * - `html`: served as a page of the demo's origin (an allowed origin of the relay) in Chromium, the docs' merchant
 *   relay (https://pay.shop.example/relay) being the running one; each element gets ready without an error, and Pay
 *   with an amount and agreement AG-1001 lands on the sandbox's payment page.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';
import { EXAMPLE_RELAY } from '../../scripts/docs/embed-snippet.js';
import { examplesOf, type Example } from './markdown-examples.js';
import { npmStart, type NpmStart } from './npm-start.js';
import { runShell, shellProblems } from './shell-example.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const skip = !existsSync(`${ROOT}dist/bundles.json`) && 'run `npm run build` first';

/** How many `html` examples have paid: each pays an amount of its own. */
let htmlPayments = 0;

/**
 * Opens an `html` example as a page of the demo's origin, pays, and fails saying what went wrong. The page's request
 * goes to a server of this test (the demo serves only its own pages); the browser keeps the demo's address, so the
 * page has the origin the relay allows, and is a page on this machine as the demo is.
 */
async function runHtml(example: Example, stack: NpmStart, browser: Browser): Promise<void> {
  const where = `${example.file}:${example.line}`;
  const code = stack
    .rewrite(example.code)
    .replaceAll(EXAMPLE_RELAY, stack.relay)
    .replaceAll(new URL(EXAMPLE_RELAY).origin, new URL(stack.relay).origin);
  const html = `<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<title>${where}</title>\n${code}\n</html>\n`;
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${stack.demo}/docs-example.html`;
  const page = await browser.newPage();
  const errors: string[] = [];
  const configs: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (m) => (m.type() === 'error' || /preload/i.test(m.text())) && errors.push(m.text()));
  page.on('request', (request) => {
    if (request.url() === `${stack.relay}/config`) configs.push(request.url());
    if (request.url() !== url) return void request.continue();
    void request.continue({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
  });
  try {
    await page.setRequestInterception(true);
    await page.goto(url);
    const elements = await page.$$eval('billing-pay, billing-payment-methods', (all) => all.length);
    assert.ok(elements > 0, `${where}: an html example with no element to try`);
    await page
      .waitForFunction(
        () =>
          [...document.querySelectorAll('billing-pay, billing-payment-methods')].every(
            (el) => el.getAttribute('state') === 'ready',
          ),
        { timeout: 10_000 },
      )
      .catch(() => assert.fail(`${where}: the widget did not get ready; the page said: ${errors.join(' | ')}`));
    // Each example pays its own amount: the relay asks before the same payment twice (DUPLICATE_WINDOW_SECONDS).
    await page.locator('billing-pay >>> #f-amount').fill(`${100 + htmlPayments++}.00`);
    await page.locator('::-p-aria([name="Agreement number"][role="textbox"])').fill('AG-1001');
    const payment = page.waitForNavigation({ timeout: 10_000 });
    await page.locator('billing-pay >>> button[type="submit"]').click();
    const response = await payment;
    assert.match(page.url(), new RegExp(`^${stack.sandbox}/pay/\\d+$`), `${where}: Pay led to ${page.url()}`);
    assert.equal(response?.status(), 200, `${where}: the payment page answered ${response?.status()}`);
    assert.deepEqual(errors, [], `${where}: the page reported errors`);
    assert.equal(configs.length, 1, `${where}: /config fetched ${configs.length} times: the preload is not the widget's request`);
  } finally {
    await page.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A merchant's own page, as the README's "Try it" adds it: `ALLOWED_ORIGINS=http://127.0.0.1:5500 npm start`. */
const OWN_PAGE = 'http://127.0.0.1:5500';

describe('the docs’ examples, against npm start', { skip }, () => {
  let stack: NpmStart;
  let browser: Browser | undefined;
  before(async () => {
    stack = await npmStart({ ALLOWED_ORIGINS: OWN_PAGE });
  });

  it('npm start’s relay allows a page origin given in ALLOWED_ORIGINS, beside the demo’s', async () => {
    for (const origin of [OWN_PAGE, stack.demo]) {
      const answer = await fetch(`${stack.relay}/config`, { headers: { origin } });
      assert.equal(answer.headers.get('access-control-allow-origin'), origin);
    }
    // Another page is told it is not allowed, in an answer it can read (the widget says so to the payer).
    const other = await fetch(`${stack.relay}/config`, { headers: { origin: 'http://127.0.0.1:5501' } });
    assert.equal(other.status, 403);
    assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  for (const file of PAGES) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    const examples = examplesOf(text, file);
    // Counted apart from the reader: a block it overlooked would be an example that never runs.
    const blocks = text.match(/^\s*(`{3,}|~{3,})\s*(sh|bash|shell|console|html)\b/gm)?.length ?? 0;
    const skipped = examples.filter((e) => e.skip).length;
    it(`${file}: ${examples.length - skipped} run, ${skipped} marked not to run`, async () => {
      const reset = await fetch(`${stack.sandbox}/sandbox/reset`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('demo:demo-secret')}` },
      });
      assert.equal(reset.status, 200, 'the sandbox resets');
      let ran = 0;
      for (const example of examples.filter((e) => !e.skip)) {
        const where = `${example.file}:${example.line}`;
        if (example.kind === 'sh') {
          assert.match(example.code, /\bcurl\b/, `${where}: an example that calls no curl runs nothing to check: mark it skip (why)`);
          const run = await runShell(stack.rewrite(example.code));
          assert.deepEqual(shellProblems(example, run), [], `${where} does not do what the page shows`);
        } else {
          browser ??= await puppeteer.launch({ ...CHROMIUM, headless: true });
          await runHtml(example, stack, browser);
        }
        ran++;
      }
      assert.equal(ran + skipped, blocks, 'every sh and html block ran or is marked not to run');
    });
  }
});
