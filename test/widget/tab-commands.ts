/**
 * The runner's side of "a new tab": opens an address in a fresh page of the test's own browser context (so it shares
 * the origin's `localStorage`, and starts with an empty `sessionStorage`, as a tab a banking app opens), waits until
 * its `<billing-pay>` is ready and has said a return (or `waitMs` has passed), answers what the page shows, and closes
 * it. Chromium and Firefox through puppeteer (`browserContext().newPage()`), WebKit through W3C WebDriver's New Window.
 */
import type { TestRunnerPlugin } from '@web/test-runner-core';
import type { Page } from 'puppeteer-core';

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
    ready: !!el && el.getAttribute('state') === 'ready' && Array.isArray(w.returns),
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
