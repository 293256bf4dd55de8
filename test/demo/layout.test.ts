/**
 * The demo pages' layout in Chromium (Debian's, through puppeteer-core), served as files: the site's links stay in
 * place when the page switches to Russian, and on a 320 px phone the payment form starts on the first screen, so a
 * message at its top (what the payment system said when the client came back) is seen without scrolling. The widget's
 * bundle is not served: the layout is the page's, and `<billing-pay>` marks where the widget starts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';

const DEMO = new URL('../../demo/', import.meta.url);
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The room a message at the top of the widget takes on a phone: two lines of text in its padded box. */
const MESSAGE_ROOM = 120;

describe('demo pages: layout', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  before(async () => {
    server = createServer(async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://demo').pathname.replace(/^\/$/, '/index.html');
      try {
        const body = await readFile(new URL(`.${path}`, DEMO));
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await puppeteer.launch({ ...CHROMIUM, headless: true });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Opens a demo page in a language and waits until the page speaks it (demo/i18n.js). */
  async function open(file: string, lang: 'en' | 'ru', width: number, height = 800): Promise<void> {
    await page.setViewport({ width, height });
    await page.goto(`${origin}/${file}${lang === 'ru' ? '?lang=ru' : ''}`);
    await page.waitForFunction((l) => document.documentElement.lang === l, {}, lang);
  }

  for (const file of ['index.html', 'account.html']) {
    it(`${file}: the site's links sit in the same place in English and in Russian`, async () => {
      const where = () =>
        page.$$eval('header.site nav:first-of-type a', (links) =>
          links.map((a) => {
            const rect = a.getBoundingClientRect();
            return { left: Math.round(rect.left), top: Math.round(rect.top) };
          }),
        );
      await open(file, 'en', 1024);
      const english = await where();
      await open(file, 'ru', 1024);
      const russian = await where();
      assert.equal(russian.length, 3);
      // The first link right after the brand, on one line with the others, in both languages.
      assert.deepEqual(russian[0], english[0]);
      for (const link of russian) assert.equal(link.top, russian[0]!.top);
      // Switching the language on the page keeps them there too.
      await page.click('button[data-lang="en"]');
      assert.deepEqual((await where())[0], english[0]);
    });

    for (const lang of ['en', 'ru'] as const) {
      it(`${file} at 320 px in ${lang}: the payment form starts on the first screen, with room for a message at its top`, async () => {
        await open(file, lang, 320, 568);
        const layout = await page.evaluate(() => ({
          widgetTop: document.querySelector('billing-pay')!.getBoundingClientRect().top,
          headingTop: [...document.querySelectorAll('h1')].find((h) => h.checkVisibility())!.getBoundingClientRect()
            .top,
          width: document.documentElement.scrollWidth,
        }));
        assert.ok(
          layout.widgetTop + MESSAGE_ROOM <= 568,
          `the widget starts at ${Math.round(layout.widgetTop)} px on a 568 px high screen`,
        );
        assert.equal(layout.width, 320, 'nothing is wider than the screen');
        assert.ok(layout.headingTop < layout.widgetTop, "the page's heading still comes first");
      });
    }
  }
});
