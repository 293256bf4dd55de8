/**
 * A person's keyboard and pointer in the widget's browser tests, the same in Chromium, Firefox and WebKit (the runner
 * side is test/widget/input-commands.ts), and the one way a test that cannot run in an engine is skipped there: by
 * name, with its reason printed at the end of the run.
 */
import { emulateMedia, executeServerCommand } from '@web/test-runner-commands';

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The engine this page runs in. */
export function engine(): Engine {
  const ua = navigator.userAgent;
  if (/Firefox\//.test(ua)) return 'firefox';
  if (/Chrome\/|Chromium\//.test(ua)) return 'chromium';
  return 'webkit';
}

/**
 * Presses keys one after the other, each a `KeyboardEvent.key` value or a chord: `press('Tab')`,
 * `press('Shift+Tab', ' ')` (`' '` is Space).
 */
export async function press(...keys: string[]): Promise<void> {
  await executeServerCommand('engine-keys', { press: keys });
}

/** Types text key by key into what has the focus. */
export async function typeKeys(text: string): Promise<void> {
  await executeServerCommand('engine-keys', { type: text });
}

/** Clicks the middle of an element with the mouse (scrolled into view first). */
export async function pointAndClick(element: Element): Promise<void> {
  element.scrollIntoView({ block: 'center', inline: 'center' });
  const r = element.getBoundingClientRect();
  if (!r.width || !r.height) throw new Error(`${element.tagName} ${element.id} has no box to click`);
  await executeServerCommand('engine-click', { x: r.left + r.width / 2, y: r.top + r.height / 2 });
}

type TestContext = MochaContext;

/** Skips the running test in these engines, by name, with the reason (printed per engine when the run ends). */
export async function skipIn(context: TestContext, engines: Engine[], reason: string): Promise<void> {
  if (!engines.includes(engine())) return;
  const test = context.test?.titlePath().join(' > ') ?? '(unnamed)';
  console.info(`skipped in ${engine()}: ${test} — ${reason}`);
  await executeServerCommand('engine-skip', { test, reason });
  context.skip();
}

/**
 * Makes `prefers-color-scheme` match `scheme`: emulated where the driver can (Chromium, over CDP); elsewhere the test
 * runs only when the engine's own scheme already matches, else it is skipped with the reason.
 */
export async function colorScheme(context: TestContext, scheme: 'light' | 'dark'): Promise<void> {
  if (engine() === 'chromium') {
    await emulateMedia({ colorScheme: scheme });
    return;
  }
  if (matchMedia(`(prefers-color-scheme: ${scheme})`).matches) return;
  await skipIn(
    context,
    [engine()],
    `its driver cannot emulate prefers-color-scheme (CDP only) and the engine's own is not ${scheme}`,
  );
}

/** Puts `prefers-color-scheme` back to the engine's own, where it was emulated. */
export async function resetColorScheme(): Promise<void> {
  if (engine() === 'chromium') await emulateMedia({ colorScheme: 'light' });
}
