/**
 * The three engines payers use, as web-test-runner launchers, from Debian's packages alone (nothing is downloaded):
 * Chromium and Firefox ESR through puppeteer-core (Firefox over WebDriver BiDi, no geckodriver), and WebKitGTK's
 * MiniBrowser through WebKitWebDriver (classic W3C WebDriver), which this module starts, on a free port, under an Xvfb
 * of its own on a free display. `ENGINES=firefox,webkit` runs some of them (default: all three, in this order).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { chromeLauncher } from '@web/test-runner-chrome';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import type { BrowserLauncher, Reporter, TestRunnerCoreConfig } from '@web/test-runner-core';
import * as puppeteer from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';

/** A browser or driver that does not start within this fails the run at once (the runner's own limits are per file). */
const LAUNCH_TIMEOUT_MS = 60_000;

export type Engine = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: Engine[] = ['chromium', 'firefox', 'webkit'];

/** The engines named in `ENGINES` (comma-separated), else all three. */
export function chosenEngines(value = process.env.ENGINES): Engine[] {
  if (!value) return ENGINES;
  const names = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !ENGINES.includes(n as Engine));
  if (unknown.length) throw new Error(`ENGINES: unknown ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  return names as Engine[];
}

/** Chromium and Firefox through the project's puppeteer-core (it knows `browser: 'firefox'`, over WebDriver BiDi). */
export function launcherFor(engine: Engine): BrowserLauncher {
  if (engine === 'chromium') {
    return chromeLauncher({
      puppeteer: puppeteer as never,
      launchOptions: {
        browser: 'chrome',
        ...CHROMIUM,
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
      },
    });
  }
  if (engine === 'firefox') {
    return chromeLauncher({
      puppeteer: puppeteer as never,
      launchOptions: {
        browser: 'firefox',
        executablePath: '/usr/bin/firefox-esr',
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
      },
    });
  }
  return new WebKitLauncher();
}

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver. `initialize` starts an Xvfb (it picks a free display and says which
 * on `-displayfd`) and the driver on a free port; `stop` ends both, and so does the runner's exit.
 */
class WebKitLauncher extends WebdriverLauncher {
  private children: ChildProcess[] = [];

  constructor() {
    super({
      capabilities: { browserName: 'MiniBrowser', 'wdio:enforceWebDriverClassic': true } as never,
      hostname: '127.0.0.1',
      port: 0, // set in initialize
      logLevel: 'error',
      // A driver that stops answering fails the session in a minute (webdriverio's default: 3 × 2 minutes).
      connectionRetryTimeout: LAUNCH_TIMEOUT_MS,
      connectionRetryCount: 1,
    });
    this.name = 'WebKit';
  }

  override async initialize(config: TestRunnerCoreConfig): Promise<void> {
    await super.initialize(config);
    this.name = 'WebKit';
    process.once('exit', () => this.killChildren());
    const display = await this.startXvfb();
    const port = await freePort();
    const driver = this.spawnChild('WebKitWebDriver', [`--port=${port}`], { ...process.env, DISPLAY: display });
    await waitForDriver(`http://127.0.0.1:${port}/status`, driver);
    (this as unknown as { options: { port: number } }).options.port = port;
  }

  override async stop(): Promise<void> {
    await super.stop();
    this.killChildren();
  }

  private async startXvfb(): Promise<string> {
    const xvfb = this.spawnChild(
      'Xvfb',
      ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'],
      process.env,
      ['ignore', 'ignore', 'pipe', 'pipe'],
    );
    const said = xvfb.stdio[3]!;
    let text = '';
    said.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await within(
      new Promise<void>((resolve, reject) => {
        said.on('data', () => /\d+\n/.test(text) && resolve());
        xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it chose a display`)));
      }),
      'Xvfb did not start',
    );
    return `:${text.trim()}`;
  }

  private spawnChild(
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    stdio: ('ignore' | 'pipe' | 'inherit')[] = ['ignore', 'ignore', 'inherit'],
  ): ChildProcess {
    const child = spawn(command, args, { env, stdio });
    child.once('error', (error) => console.error(`${command}: ${error.message}`));
    this.children.push(child);
    return child;
  }

  private killChildren(): void {
    for (const child of this.children.reverse()) if (child.exitCode === null) child.kill();
    this.children = [];
  }
}

/** A port the OS has just found free (the test server and WebKit's driver take one each: other runs share the machine). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** Waits until the driver answers its status, or fails when it exits or the time is up. */
async function waitForDriver(url: string, driver: ChildProcess): Promise<void> {
  let exited = false;
  driver.once('exit', () => (exited = true));
  await within(
    (async () => {
      for (;;) {
        if (exited) throw new Error(`WebKitWebDriver exited (${driver.exitCode})`);
        const ok = await fetch(url).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })(),
    'WebKitWebDriver did not answer',
  );
}

async function within<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${LAUNCH_TIMEOUT_MS / 1000} s`)), LAUNCH_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The longest one engine may take for all its test files (`ENGINE_TIME_LIMIT_S` to change it). */
const ENGINE_TIME_LIMIT_MS = Number(process.env.ENGINE_TIME_LIMIT_S || 240) * 1000;

interface SessionLike {
  browser: { name: string };
  status: string;
}

/**
 * A reporter that prints how long each engine took, and fails the run when one engine has not finished all its test files within `ENGINE_TIME_LIMIT_MS`
 * of starting its first: a hung browser or driver otherwise costs the runner's per-file limits file after file, and
 * the run would wait for CI's own limit. The exit ends the browsers (puppeteer's exit handlers) and WebKit's driver
 * and Xvfb (WebKitLauncher's).
 */
export function engineTimeLimit(limitMs = ENGINE_TIME_LIMIT_MS): Reporter {
  const timers = new Map<string, NodeJS.Timeout>();
  const started = new Map<string, number>();
  const done = new Set<string>();
  const times: string[] = [];
  return {
    start({ sessions }) {
      const all = () => [...sessions.all()] as unknown as SessionLike[];
      sessions.on('session-status-updated', (session) => {
        const engine = (session as unknown as SessionLike).browser.name;
        if (!timers.has(engine)) {
          started.set(engine, Date.now());
          const timer = setTimeout(() => {
            const left = all().filter((s) => s.browser.name === engine && s.status !== 'FINISHED').length;
            process.stderr.write(
              `\n${engine} did not finish its test files within ${limitMs / 1000} s (${left} left): stopping the run.\n`,
            );
            process.exit(1);
          }, limitMs);
          timer.unref();
          timers.set(engine, timer);
        }
        const mine = all().filter((s) => s.browser.name === engine);
        if (mine.every((s) => s.status === 'FINISHED') && !done.has(engine)) {
          clearTimeout(timers.get(engine));
          done.add(engine);
          times.push(`${engine} ${Math.round((Date.now() - started.get(engine)!) / 1000)} s (${mine.length} files)`);
        }
      });
    },
    stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      if (times.length) process.stdout.write(`\nTime per engine: ${times.join(', ')}.\n`);
    },
  };
}
