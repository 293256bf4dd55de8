/**
 * The runner's side of "a new tab": opens an address in a fresh page of the test's own browser context (so it shares
 * the origin's `localStorage`, and starts with an empty `sessionStorage`, as a tab a banking app opens), waits until
 * its `<billing-pay>` is ready and has said a return (or `waitMs` has passed), answers what the page shows, and closes
 * it. Chromium and Firefox through puppeteer (`browserContext().newPage()`), WebKit through W3C WebDriver's New Window.
 * `engine-tab-pay`: the payer presses Pay in such a tab, with the real pointer, and is taken to the payment page.
 */
import type { TestRunnerPlugin } from '@web/test-runner-core';
import type { Page } from 'puppeteer-core';
import { webdriverClick } from './input-commands.js';

export interface NewTabPayload {
  url: string;
  /** How long to wait for a return to be said before answering that none was. */
  waitMs: number;
}

/** What the tab showed: its `billing-pay-return` details, the return message, its address and what the origin keeps. */
export interface TabView {
  ready: boolean;
  returns: unknown[];
  message: string;
  href: string;
  sessionAttempt: string | null;
  originAttempts: string | null;
}

/** Runs in the tab: what its page shows now (the page keeps every `billing-pay-return` in `window.returns`). */
const READ = `(() => {
  const el = document.querySelector('billing-pay');
  const w = window;
  return {
    // Ready, and done looking for a return (the skeleton stays until it is: what the origin keeps is pruned by then).
    ready: !!el && el.getAttribute('state') === 'ready' && !el.shadowRoot?.querySelector('.skeleton') && Array.isArray(w.returns),
    returns: w.returns || [],
    // The result screen's heading and meaning, a space between them.
    message: [...(el?.shadowRoot?.querySelector('[part="return"]')?.children ?? [])]
      .map((line) => line.textContent.trim())
      .join(' '),
    href: location.href,
    sessionAttempt: sessionStorage.getItem('billing-pay-return'),
    originAttempts: localStorage.getItem('billing-pay-returns'),
  };
})()`;

export interface TabPayPayload {
  /** A page with a `<billing-pay>` its attributes fill in, so that Pay is the one click left. */
  url: string;
}

/** Where the tab went after Pay: the payment page's address (or the page's own, if it stayed). */
export interface TabPaid {
  href: string;
}

/** Runs in the tab: the centre of `<billing-pay>`'s Pay button once the element is ready, else `null`. */
const PAY_BUTTON = `(() => {
  const el = document.querySelector('billing-pay');
  const box = el?.getAttribute('state') === 'ready' && el.shadowRoot.querySelector('button[type="submit"]')?.getBoundingClientRect();
  return box && box.width ? { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) } : null;
})()`;

/** Asks `read` until it answers something, for at most `ms`. */
async function poll<T>(read: () => Promise<T | null | undefined>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => null);
    if (value) return value;
    if (Date.now() > until) throw new Error(`engine-tab-pay: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Session {
  id: string;
  browser: { type: string; getPage?(id: string): Page; driver?: Driver };
}
interface Driver {
  getWindowHandle(): Promise<string>;
  createWindow(type: 'tab' | 'window'): Promise<{ handle: string }>;
  switchToWindow(handle: string): Promise<void>;
  navigateTo(url: string): Promise<void>;
  executeScript(script: string, args: unknown[]): Promise<unknown>;
  closeWindow(): Promise<unknown>;
  getUrl(): Promise<string>;
  performActions(actions: object[]): Promise<void>;
  releaseActions(): Promise<void>;
}

async function watch(read: () => Promise<TabView>, waitMs: number): Promise<TabView> {
  const until = Date.now() + waitMs;
  for (;;) {
    const view = await read().catch(() => null);
    // A return is read once the element has drawn it (WebKit fires the event a moment before).
    if (view && view.ready && ((view.returns.length > 0 && view.message !== '') || Date.now() > until)) return view;
    if (Date.now() > until + 10_000)
      return view ?? { ready: false, returns: [], message: '', href: '', sessionAttempt: null, originAttempts: null };
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function tabCommands(): TestRunnerPlugin {
  return {
    name: 'billing-pay-tab-commands',
    async executeCommand({ command, payload, session }) {
      if (command === 'engine-tab-pay')
        return payInNewTab((payload as TabPayPayload).url, session as unknown as Session);
      if (command !== 'engine-new-tab') return undefined;
      const { url, waitMs } = payload as NewTabPayload;
      const s = session as unknown as Session;
      if (s.browser.type === 'puppeteer') {
        const tab = await s.browser.getPage!(s.id).browserContext().newPage();
        try {
          await tab.goto(url);
          return await watch(() => tab.evaluate(READ) as Promise<TabView>, waitMs);
        } finally {
          await tab.close();
        }
      }
      const driver = s.browser.driver;
      if (!driver) throw new Error('no WebDriver session');
      const runner = await driver.getWindowHandle();
      const { handle } = await driver.createWindow('tab');
      await driver.switchToWindow(handle);
      try {
        await driver.navigateTo(url);
        return await watch(() => driver.executeScript(`return ${READ}`, []) as Promise<TabView>, waitMs);
      } finally {
        await driver.closeWindow();
        await driver.switchToWindow(runner);
      }
    },
  };
}

/** Opens `url` in a new tab, clicks Pay there with the real pointer, and answers where the tab went. */
async function payInNewTab(url: string, s: Session): Promise<TabPaid> {
  const left = (href: string) => (href !== url && href !== 'about:blank' ? href : null);
  if (s.browser.type === 'puppeteer') {
    const tab = await s.browser.getPage!(s.id).browserContext().newPage();
    try {
      await tab.goto(url);
      const at = await poll(
        () => tab.evaluate(PAY_BUTTON) as Promise<{ x: number; y: number } | null>,
        10_000,
        'no Pay',
      );
      await tab.mouse.click(at.x, at.y);
      return { href: await poll(async () => left(tab.url()), 10_000, 'the tab stayed on its page') };
    } finally {
      await tab.close();
    }
  }
  const driver = s.browser.driver;
  if (!driver) throw new Error('no WebDriver session');
  const runner = await driver.getWindowHandle();
  // A window, not a tab: WebKitWebDriver's pointer actions in a new tab of MiniBrowser hang (a background tab).
  const { handle } = await driver.createWindow('window');
  await driver.switchToWindow(handle);
  try {
    await driver.navigateTo(url);
    const at = await poll(
      () => driver.executeScript(`return ${PAY_BUTTON}`, []) as Promise<{ x: number; y: number } | null>,
      10_000,
      'no Pay',
    );
    await webdriverClick(driver, at);
    return { href: await poll(async () => left(await driver.getUrl()), 10_000, 'the tab stayed on its page') };
  } finally {
    await driver.closeWindow();
    await driver.switchToWindow(runner);
  }
}
