/**
 * `console-watch` / `console-read` (test/widget/embed-hints.test.ts): what the browser itself writes to the console of the
 * test page and its frames — its own warnings ("… was preloaded using link preload but not used …") as well as the
 * page's `console` calls. Chromium reports both over CDP, which puppeteer gives as `console` events; the other engines'
 * drivers give the page's calls at most, so `console-watch` answers `false` there.
 */
import type { TestRunnerPlugin } from '@web/test-runner-core';
import type { ConsoleMessage, Page } from 'puppeteer-core';

interface Session {
  id: string;
  browser: { type: string; getPage?(id: string): Page };
}

export function browserConsole(): TestRunnerPlugin {
  const watching = new Map<string, { page: Page; listener: (m: ConsoleMessage) => void; lines: string[] }>();
  return {
    name: 'billing-pay-browser-console',
    async executeCommand({ command, session }) {
      const s = session as unknown as Session;
      if (command === 'console-watch') {
        const page = s.browser.type === 'puppeteer' ? s.browser.getPage!(s.id) : undefined;
        if (!page || !/chrom/i.test(await page.browser().version())) return false;
        watching.get(s.id)?.page.off('console', watching.get(s.id)!.listener);
        const lines: string[] = [];
        const listener = (m: ConsoleMessage) => lines.push(`${m.type()}: ${m.text()}`);
        page.on('console', listener);
        watching.set(s.id, { page, listener, lines });
        return true;
      }
      if (command === 'console-read') {
        const watch = watching.get(s.id);
        if (!watch) return [];
        watch.page.off('console', watch.listener);
        watching.delete(s.id);
        return watch.lines;
      }
      return undefined;
    },
  };
}
