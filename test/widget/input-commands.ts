/**
 * The runner's side of test/widget/input.ts: real key presses and pointer clicks, the same commands in every engine.
 * Chromium and Firefox get them from puppeteer (`page.keyboard`, `page.mouse`); WebKit from W3C WebDriver actions,
 * with a short pause after every key event, because WebKitWebDriver drops a key repeated back to back ("00" arrives as
 * "0"). Key names are `KeyboardEvent.key` values (`Tab`, `Enter`, `ArrowDown`, `' '` for Space, `Shift+Tab`).
 * Also collects the tests an engine skips, with their reasons, and prints them per engine when the run ends.
 */
import type { TestRunnerPlugin } from '@web/test-runner-core';
import type { Page } from 'puppeteer-core';

/** The WebDriver key codes of the named keys the tests press (W3C WebDriver, "Keyboard actions"). */
const WEBDRIVER_KEYS: Record<string, string> = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Escape: '\uE00C',
  End: '\uE010',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
};
const KEY_PAUSE_MS = 15;

export interface KeysPayload {
  /** Chords pressed one after the other: `Tab`, `Shift+Tab`, `' '`. */
  press?: string[];
  /** Text typed key by key. */
  type?: string;
}
export interface ClickPayload {
  x: number;
  y: number;
}
export interface SkipPayload {
  test: string;
  reason: string;
}

interface Session {
  id: string;
  browser: { type: string; name: string; getPage?(id: string): Page };
}
type WebDriverAction = {
  type: string;
  value?: string;
  duration?: number;
  button?: number;
  x?: number;
  y?: number;
  origin?: string;
};
interface Driver {
  performActions(
    actions: { type: string; id: string; parameters?: object; actions: WebDriverAction[] }[],
  ): Promise<void>;
  releaseActions(): Promise<void>;
}

const chordsOf = (payload: KeysPayload) => [
  ...(payload.press ?? []).map((chord) => (chord === '+' || !chord.includes('+') ? [chord] : chord.split('+'))),
  ...[...(payload.type ?? '')].map((char) => [char]),
];

async function puppeteerKeys(page: Page, payload: KeysPayload): Promise<void> {
  for (const chord of chordsOf(payload)) {
    const key = chord.at(-1)! as Parameters<Page['keyboard']['press']>[0];
    const modifiers = chord.slice(0, -1) as (typeof key)[];
    for (const m of modifiers) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of modifiers.reverse()) await page.keyboard.up(m);
  }
}

async function webdriverKeys(driver: Driver, payload: KeysPayload): Promise<void> {
  const actions: WebDriverAction[] = [];
  const code = (key: string) => WEBDRIVER_KEYS[key] ?? key;
  for (const chord of chordsOf(payload)) {
    for (const key of chord)
      actions.push({ type: 'keyDown', value: code(key) }, { type: 'pause', duration: KEY_PAUSE_MS });
    for (const key of [...chord].reverse())
      actions.push({ type: 'keyUp', value: code(key) }, { type: 'pause', duration: KEY_PAUSE_MS });
  }
  await driver.performActions([{ type: 'key', id: 'keyboard', actions }]);
  await driver.releaseActions();
}

/** A real click at a point of the viewport, through W3C WebDriver pointer actions. */
export async function webdriverClick(driver: Driver, { x, y }: ClickPayload): Promise<void> {
  const at = { x: Math.round(x), y: Math.round(y) };
  await driver.performActions([
    {
      type: 'pointer',
      id: 'mouse',
      parameters: { pointerType: 'mouse' },
      actions: [
        { type: 'pointerMove', duration: 0, origin: 'viewport', ...at },
        { type: 'pointerDown', button: 0 },
        { type: 'pause', duration: KEY_PAUSE_MS },
        { type: 'pointerUp', button: 0 },
      ],
    },
  ]);
  await driver.releaseActions();
}

/** The WebDriver session of `@web/test-runner-webdriver`'s launcher (one page per run: `concurrency: 1`). */
function driverOf(session: Session): Driver {
  const driver = (session.browser as unknown as { driver?: Driver }).driver;
  if (!driver) throw new Error(`${session.browser.name}: no WebDriver session`);
  return driver;
}

export function inputCommands(): TestRunnerPlugin {
  const skipped = new Map<string, SkipPayload[]>();
  return {
    name: 'billing-pay-input-commands',
    async executeCommand({ command, payload, session }) {
      const s = session as unknown as Session;
      const puppeteer = s.browser.type === 'puppeteer' ? s.browser.getPage!(s.id) : undefined;
      if (command === 'engine-keys') {
        if (puppeteer) await puppeteerKeys(puppeteer, payload as KeysPayload);
        else await webdriverKeys(driverOf(s), payload as KeysPayload);
        return true;
      }
      if (command === 'engine-click') {
        const { x, y } = payload as ClickPayload;
        if (puppeteer) await puppeteer.mouse.click(x, y);
        else await webdriverClick(driverOf(s), { x, y });
        return true;
      }
      if (command === 'engine-skip') {
        const list = skipped.get(s.browser.name) ?? [];
        list.push(payload as SkipPayload);
        skipped.set(s.browser.name, list);
        return true;
      }
      return undefined;
    },
    serverStop() {
      for (const [engine, list] of skipped) {
        console.log(`\n${engine} skipped ${list.length} test${list.length === 1 ? '' : 's'}, each for its reason:`);
        for (const { test, reason } of list) console.log(`  - ${test}: ${reason}`);
      }
    },
  };
}
