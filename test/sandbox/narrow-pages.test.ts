/**
 * The sandbox's pages on a 320 px wide phone, in Chromium (Debian's, through puppeteer-core), in English and Russian:
 * no word breaks in the middle ("autopayment", «подключается») and nothing is wider than the screen.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';
import { AUTOPAY_A, SHOP, params, payment, start, type Client } from './helpers.js';

/** The words (runs of letters) of the page that the layout splits over two lines, and how wide the page is. */
function layoutOf(page: Page): Promise<{ width: number; broken: string[] }> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent!.matchAll(/\p{L}+/gu)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
    return { width: document.documentElement.scrollWidth, broken };
  });
}

describe('sandbox pages at 320 px', () => {
  let client: Client;
  let browser: Browser;
  let page: Page;
  before(async () => {
    client = await start();
    browser = await puppeteer.launch({ ...CHROMIUM, headless: true });
    page = await browser.newPage();
    await page.setViewport({ width: 320, height: 568 });
  });
  after(async () => {
    await browser?.close();
    await client.close();
  });

  it('the hosted payment page, the client card and the home page break no word and fit the screen, in both languages', async () => {
    const saving = await client.pay(payment('A', AUTOPAY_A, { amount: 1500.5 }));
    const linkOnly = payment('A', {}, { amount: 1 });
    linkOnly.eps_params = params({
      confirmation_type: 'redirect',
      confirmation_return_url: `${SHOP}/back`,
      ...AUTOPAY_A,
      cancel_payment: true,
    });
    const { confirmation_url: linking } = await client.pay(linkOnly);
    const urls = [saving.confirmation_url, linking, `${client.sandbox.url}/agreements/1001`, `${client.sandbox.url}/`];
    for (const language of ['en', 'ru']) {
      await page.setExtraHTTPHeaders({ 'accept-language': language });
      for (const url of urls) {
        await page.goto(url);
        assert.equal(await page.evaluate(() => document.documentElement.lang), language);
        assert.deepEqual(await layoutOf(page), { width: 320, broken: [] }, `${language} ${url}`);
      }
    }
  });
});
