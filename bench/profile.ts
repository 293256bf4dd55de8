/**
 * `node --import tsx scripts/with-node.ts --import tsx bench/profile.ts [loads]`: where a cold load's time goes, the
 * docs' embed against the floor (bench/ready.ts's pages), on Slow 4G with the CPU slowed 4 × and a Chromium trace of
 * each load. Per page, the median over the loads of: time to ready, script bytes on the wire before ready (scripts and
 * pinned JSON), main-thread work before ready (the renderer's top-level tasks, split by kind), the element's shadow DOM
 * commits before ready (Lit renders), and the layout shift up to a second after ready; and the page's script in phases:
 * requested, its first byte streaming in (V8 compiles it as it comes), its last byte, and ready after it, with the main
 * thread's own CPU time in between (the page's own work with the network left out; on a shared machine its median of 15
 * loads still moved from 56 to 68 ms at 4 × for one build within an hour). `dist/` must be built (`npm run build`) and
 * the floor too (`BENCH_ONLY=ready npm run bench` builds it, or bench/vite.reference.config.ts). Set PROFILE_CPU for
 * another CPU slowdown. With PROFILE_FIRST_SCREEN=1, a third page measures what Lit's first render of the form costs:
 * the embed whose first screen is the form's HTML, written from its templates and set at once
 * (bench/first-screen-html.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { SANDBOX_DEFAULTS } from '../src/sandbox/config.js';
import { startChild, stopAll } from './processes.js';
import { PAGE_SCRIPT, SLOW_4G, startReadyPages } from './ready.js';
import { firstScreenBundle, launchChromium, median } from './widget.js';

const LOADS = Number(process.argv[2] ?? 7);
const CPU = Number(process.env.PROFILE_CPU ?? 4);
const CREDENTIALS = { username: 'bench', password: 'bench-secret' };
const FIRST_SCREEN = process.env.PROFILE_FIRST_SCREEN === '1';
const PAGES = [
  { name: 'floor', path: '/floor.html', event: 'bench-reference-ready' },
  { name: 'embed', path: '/embed.html', event: 'billing-pay-ready' },
  ...(FIRST_SCREEN
    ? [{ name: 'embed, first screen as HTML', path: '/first-screen.html', event: 'billing-pay-ready' }]
    : []),
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own CPU time in the event (what another process's load on the machine does not stretch). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface Load {
  ready: number;
  bytes: number;
  work: number;
  cpu: number;
  kinds: Record<string, number>;
  commits: number;
  shift: number;
  /** When the page's script was requested, began to stream in, and was all here (ms after navigation start). */
  phases: { request: number; firstByte: number; lastByte: number };
  /** The main thread's own CPU time from the script's last byte to ready: its work alone, the network left out. */
  afterLastByte: number;
}

/** Counts the shadow DOM commits before ready (one MutationObserver batch per Lit render) and the layout shift. */
const probe = (event: string) => `
  window.__p = { commits: 0, shift: 0, ready: false };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    new MutationObserver(() => { if (!window.__p.ready) window.__p.commits++; })
      .observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
    return root;
  };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__p.shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  addEventListener('${event}', () => { window.__p.ready = true; performance.mark('bp-ready'); }, { once: true });
`;

const dumped: Record<string, number> = {};

/** What a top-level task spent its time on: the longest known child event names it. */
function kindOf(children: TraceEvent[]): string {
  const sums: Record<string, number> = {};
  for (const e of children) {
    const kind = /Compile|Parse|EvaluateScript|v8\.run|v8\.compile/.test(e.name)
      ? 'script eval/compile'
      : /FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute/.test(e.name)
        ? 'script run'
        : /Layout|UpdateLayoutTree|RecalculateStyles|Paint|PrePaint|Layerize|UpdateLayer/.test(e.name)
          ? 'style/layout/paint'
          : /ParseHTML|ParseAuthorStyleSheet/.test(e.name)
            ? 'parse html/css'
            : undefined;
    if (kind) sums[kind] = (sums[kind] ?? 0) + (e.dur ?? 0);
  }
  return Object.entries(sums).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'other';
}

async function oneLoad(browser: Browser, url: string, event: string): Promise<Load> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
    await page.evaluateOnNewDocument(probe(event));
    await page.tracing.start({
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'toplevel'],
    });
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __p: { ready: boolean } }).__p.ready, {
      timeout: 60_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const p = await page.evaluate(() => (window as unknown as { __p: { commits: number; shift: number } }).__p);
    const trace = JSON.parse(Buffer.from((await page.tracing.stop())!).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    const events = trace.traceEvents;
    if (process.env.PROFILE_DUMP)
      writeFileSync(
        `${process.env.PROFILE_DUMP}-${event}-${(dumped[event] = (dumped[event] ?? 0) + 1)}.json`,
        JSON.stringify(trace),
      );
    const readyMark = events.find((e) => e.name === 'bp-ready')!;
    const nav = events.find((e) => e.name === 'navigationStart' && e.pid === readyMark.pid)!;
    const main = events.find(
      (e) => e.name === 'thread_name' && e.pid === readyMark.pid && e.args?.name === 'CrRendererMain',
    )!;
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ts >= nav.ts && e.ts < readyMark.ts);
    const kinds: Record<string, number> = {};
    let work = 0;
    let cpu = 0;
    for (const task of tasks) {
      cpu += (task.tdur ?? 0) / 1000;
      const end = Math.min(task.ts + (task.dur ?? 0), readyMark.ts);
      const children = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts < end);
      const kind = kindOf(children);
      const dur = (end - task.ts) / 1000;
      kinds[kind] = (kinds[kind] ?? 0) + dur;
      work += dur;
    }
    // Bytes on the wire before ready of scripts and the pinned JSON (the relay's /config counted apart: both load it).
    const finished = events.filter((e) => e.name === 'ResourceFinish' && e.ts < readyMark.ts);
    const sent = new Map(
      events
        .filter((e) => e.name === 'ResourceSendRequest')
        .map((e) => [e.args!.data!.requestId as string, e.args!.data!.url as string]),
    );
    const bytes = finished
      .filter((e) =>
        /^http:\/\/127\.0\.0\.1:\d+\/.*\.(js|json)$/.test(sent.get(e.args!.data!.requestId as string) ?? ''),
      )
      .reduce((sum, e) => sum + Number(e.args!.data!.encodedDataLength ?? 0), 0);
    // The page's script: requested, its first byte compiled (V8 compiles it as it streams in), its last byte here.
    const script = [...sent].find(([, url]) => PAGE_SCRIPT.test(url))?.[0];
    const at = (name: string) =>
      events.find((e) => e.name === name && e.args?.data?.requestId === script)?.ts ?? Number.NaN;
    const streamed = events
      .filter((e) => e.name === 'BackgroundJSStreamManager::RunScriptStreamingTask' && e.pid === readyMark.pid)
      .sort((a, b) => a.ts - b.ts)[0];
    const scriptFinished = at('ResourceFinish');
    const phases = {
      request: (at('ResourceSendRequest') - nav.ts) / 1000,
      firstByte: ((streamed?.ts ?? Number.NaN) - nav.ts) / 1000,
      // Not ResourceReceiveResponse: under throttling the renderer sees the response just before its last chunks.
      lastByte: (scriptFinished - nav.ts) / 1000,
    };
    const afterLastByte =
      tasks.filter((task) => task.ts >= scriptFinished).reduce((sum, task) => sum + (task.tdur ?? 0), 0) / 1000;
    return {
      afterLastByte,
      ready: (readyMark.ts - nav.ts) / 1000,
      bytes,
      work,
      cpu,
      kinds,
      commits: p.commits,
      shift: p.shift,
      phases,
    };
  } finally {
    await context.close();
  }
}

/**
 * A page's form once ready, from one load with nothing slowed: its shadow root's HTML without comments (Lit's
 * markers) and without the attributes that stand for an input's value and check where Lit sets the properties.
 */
async function formHtml(browser: Browser, url: string): Promise<string> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('billing-pay[state="ready"]');
    return await page.evaluate(() => {
      const copy = document.createElement('div');
      copy.innerHTML = document.querySelector('billing-pay')!.shadowRoot!.innerHTML;
      const comments = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
      const found: ChildNode[] = [];
      while (comments.nextNode()) found.push(comments.currentNode as ChildNode);
      for (const comment of found) comment.remove();
      for (const input of copy.querySelectorAll('input')) ['value', 'checked'].forEach((a) => input.removeAttribute(a));
      return copy.innerHTML;
    });
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  let relayUrl = '';
  const pages = await startReadyPages(() => relayUrl, FIRST_SCREEN ? await firstScreenBundle() : undefined);
  const sandbox = await startChild('sandbox', { BENCH_SANDBOX: JSON.stringify(CREDENTIALS) });
  const relay = await startChild('relay', {
    BILLING_BASE_URL: `${sandbox.url}/api/rest/v1`,
    BILLING_USERNAME: CREDENTIALS.username,
    BILLING_PASSWORD: CREDENTIALS.password,
    EPS_UUID_A: SANDBOX_DEFAULTS.epsUuids.A,
    EPS_UUID_B: SANDBOX_DEFAULTS.epsUuids.B,
    EPS_UUID_C: SANDBOX_DEFAULTS.epsUuids.C,
    ALLOWED_ORIGINS: pages.origin,
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    STORE_FILE: join(mkdtempSync(join(os.tmpdir(), 'billing-pay-profile-')), 'keys.db'),
  });
  relayUrl = relay.url;
  const browser = await launchChromium();
  const loads = PAGES.map(() => [] as Load[]);
  try {
    if (
      FIRST_SCREEN &&
      (await formHtml(browser, `${pages.origin}/embed.html`)) !==
        (await formHtml(browser, `${pages.origin}/first-screen.html`))
    )
      throw new Error('bench: the first screen written as HTML is not the form Lit draws');
    for (let round = 0; round < LOADS; round += 1)
      for (const [i, page] of PAGES.entries())
        loads[i]!.push(await oneLoad(browser, `${pages.origin}${page.path}`, page.event));
  } finally {
    await browser.close();
    await pages.close();
    await stopAll();
  }
  const f = (n: number) => n.toFixed(1);
  console.log(`CPU ${CPU} ×, Slow 4G, median of ${LOADS} cold loads; load average ${os.loadavg()[0]!.toFixed(2)}`);
  for (const [i, page] of PAGES.entries()) {
    const l = loads[i]!;
    const m = (of: (x: Load) => number) => median(l.map(of));
    const kinds = [...new Set(l.flatMap((x) => Object.keys(x.kinds)))]
      .map((k) => `${k} ${f(m((x) => x.kinds[k] ?? 0))}`)
      .join(', ');
    console.log(
      `${page.name}: ready ${f(m((x) => x.ready))} ms; js+json ${m((x) => x.bytes)} B; main-thread work ${f(m((x) => x.work))} ms (${kinds}), of it CPU ${f(m((x) => x.cpu))} ms; commits ${m((x) => x.commits)}; layout shift ${m((x) => x.shift).toFixed(4)}`,
    );
    console.log(
      `  script: requested at ${f(m((x) => x.phases.request))} ms, first byte +${f(m((x) => x.phases.firstByte - x.phases.request))}, ` +
        `last byte +${f(m((x) => x.phases.lastByte - x.phases.firstByte))} after it; ready ${f(m((x) => x.ready - x.phases.lastByte))} ms after the last byte, main-thread CPU ${f(m((x) => x.afterLastByte))} ms`,
    );
  }
}

await main();
