/**
 * Time to ready on an emulated Slow 4G: from navigation start to the element's ready event (the form shown with the
 * relay's `/config`, Pay enabled), in headless Chromium with CDP's network emulation, for
 * - the floor: the Lit reference element (bench/reference-element.ts, brotli-compressed as the relay sends the widget)
 *   on a page with the two hints, a preconnect to the relay and the preload of its `/config`;
 * - the embed as the docs write it (demo/playground-snippet.js): the bundle from the relay with `integrity` and
 *   `crossorigin`, after the same two hints;
 * - the same embed without the hints.
 * Each load also counts the `/config` requests the relay answered; after the timed loads, each page is kept open past
 * the moment Chromium would warn of a preload left unused, and what it wrote to the console is kept.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Browser, Page } from 'puppeteer-core';
import { elementHtml, relayHints, reservationCss, scriptHtml } from '../demo/playground-snippet.js';
import { EMBED_ATTRIBUTES } from '../scripts/docs/embed-snippet.js';
import { configRequests } from '../scripts/relay-metrics.js';
import { ms, table } from './report.js';
import { REFERENCE_BUNDLE, WIDGET_BUNDLE, median } from './widget.js';

/** Slow 4G as the target names it: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (bytes per second for CDP). */
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
/** What the docs' embed may take at most, as a multiple of the floor. */
export const READY_TARGET = 1.15;
/** Chromium warns of an unused preload 3 s after the load event; the pages are watched a second longer. */
const UNUSED_PRELOAD_WARNING_MS = 4_000;
/** The element's attributes in the docs' example. */

export interface ReadyPage {
  name: string;
  path: string;
}

export const READY_PAGES: ReadyPage[] = [
  { name: 'floor: Lit reference, with the two hints', path: '/floor.html' },
  { name: 'the docs’ embed, with the two hints', path: '/embed.html' },
  { name: 'the embed without hints', path: '/embed-bare.html' },
  { name: 'the floor as heavy as the embed’s bundle', path: '/floor-heavy.html' },
];

export interface ReadyResult {
  page: ReadyPage;
  /** The CPU slowdown it was timed at. */
  cpu: number;
  /** Milliseconds from navigation start to the ready event, one per load. */
  times: number[];
  /** Milliseconds from navigation start to the last byte of the page's script (Resource Timing), one per load. */
  lastBytes: number[];
  /** `/config` requests the relay answered, one count per load. */
  configRequests: number[];
  /** Per load, when each of `PHASES` came (ms after the script's last byte), where it came. */
  phases: Partial<Record<Phase, number>>[];
  /** What Chromium wrote to the console about preloads, on the page watched after the timed loads. */
  preloadWarnings: string[];
}

/**
 * The pages, served from their own origin (the relay's ALLOWED_ORIGINS must hold it): `relay()` answers the relay's URL
 * once it has started; the bundle's hashed name and integrity are read from its `/bundles.json`.
 */
export async function startReadyPages(
  relay: () => string,
  /** bench/profile.ts's first-screen variant of the widget (`/first-screen.html`), when it measures one. */
  firstScreen?: Buffer,
): Promise<{ origin: string; close(): Promise<void> }> {
  const q11 = (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  const source = await readFile(REFERENCE_BUNDLE);
  const reference = q11(source);
  const firstScreenBr = firstScreen && q11(firstScreen);
  // The floor padded with an incompressible comment to the widget bundle's size on the wire: what the bytes alone cost.
  const target = q11(await readFile(WIDGET_BUNDLE)).length;
  let heavy = reference;
  for (let pad = target - reference.length; heavy.length < target; pad += target - heavy.length)
    heavy = q11(Buffer.concat([source, Buffer.from(`\n/*${randomBytes(pad).toString('base64')}*/\n`)]));
  let bundle: { file: string; integrity: string } | undefined;
  const page = async (path: string): Promise<string | undefined> => {
    const url = relay();
    bundle ??= ((await (await fetch(`${url}/bundles.json`)).json()) as Record<string, typeof bundle>)['billing-pay.js'];
    if (!bundle) throw new Error(`${url}/bundles.json names no billing-pay.js`);
    const element = elementHtml('billing-pay', [['relay', url], ...EMBED_ATTRIBUTES]);
    // The page's stylesheet keeps the form's place, as the docs say (inline here: this page has no policy).
    const reserve = `<style>\n${reservationCss()}\n</style>`;
    const [head, body, readyEvent] =
      path === '/floor.html' || path === '/floor-heavy.html'
        ? [
            `${relayHints(url)}\n<script type="module" src="/reference-element${path === '/floor.html' ? '' : '-heavy'}.js"></script>`,
            `<bench-reference relay="${url}"></bench-reference>`,
            'bench-reference-ready',
          ]
        : path === '/embed.html'
          ? [`${relayHints(url)}\n${scriptHtml(url, bundle)}\n${reserve}`, element, 'billing-pay-ready']
          : path === '/embed-bare.html'
            ? [`${scriptHtml(url, bundle)}\n${reserve}`, element, 'billing-pay-ready']
            : path === '/first-screen.html' && firstScreen
              ? [
                  `${relayHints(url)}\n<script type="module" src="/first-screen-html.js"></script>\n${reserve}`,
                  element,
                  'billing-pay-ready',
                ]
              : [];
    if (!head) return undefined;
    // The ready time is noted by a script after the element (it runs before any module script), not in <head>.
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
${head}
</head><body>
<main>
<h1>Shop</h1>
${body}
</main>
<footer><p>Shop Ltd · Terms · Delivery · Contacts</p></footer>
<script>addEventListener('${readyEvent}', () => { window.benchReady = performance.now(); }, { once: true });</script>
</body></html>`;
  };
  const server = http.createServer((req, res) => {
    if (req.url === '/first-screen-html.js' && firstScreenBr) {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-encoding': 'br' })
        .end(firstScreenBr);
      return;
    }
    if (req.url === '/reference-element.js' || req.url === '/reference-element-heavy.js') {
      res
        .writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'content-encoding': 'br',
          'cache-control': 'public, max-age=31536000, immutable',
        })
        .end(req.url === '/reference-element.js' ? reference : heavy);
      return;
    }
    page(req.url ?? '').then(
      (html) =>
        html
          ? res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html)
          : res.writeHead(404).end(),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A page's own script: the widget's hashed bundle, the floor or the heavy floor, the first-screen page's. */
export const PAGE_SCRIPT = /\/(?:billing-pay\.[0-9a-f]{10}|reference-element(?:-heavy)?|first-screen-html)\.js$/;

/** The CPU slowdowns each page is timed at: none, and 4× as on a mid-range phone (Lighthouse's mobile setting). */
export const CPU_RATES = [1, 4] as const;

/**
 * The steps of a page's own work after its script's last byte, in the order they come, each as the page's probe marks
 * it (`PHASE_PROBE`): the same for the floor and the embed, untraced, the bundles as shipped.
 */
export const PHASES = {
  define: 'evaluated: `customElements.define` called',
  upgraded: 'upgraded: `define` returned (constructor, attributes, connected)',
  asked: '`/config` asked',
  domcontentloaded: '`DOMContentLoaded`',
  load: '`load`',
  frame: 'the next frame begins',
  answered: '`/config` answered',
  drawn: 'the form drawn into the shadow root',
  ready: 'ready',
} as const;
export type Phase = keyof typeof PHASES;

/**
 * Run in each page before its scripts: marks (`phase:…`) when the element is defined and its `define` returns, when
 * `/config` is first asked (by `XMLHttpRequest` or `fetch`) and answered, the document's two events, the frame after
 * the ask, and the first nodes put into a shadow root after the answer (a `MutationObserver` of the tree, not its
 * attributes or text: the form's nodes come in with the fragment Lit inserts).
 */
const PHASE_PROBE = `(() => {
  const mark = (name) => performance.getEntriesByName('phase:' + name).length || performance.mark('phase:' + name);
  const isConfig = (url) => /\\/config$/.test(String(url instanceof Request ? url.url : url));
  const asked = () => { mark('asked'); requestAnimationFrame(() => mark('frame')); };
  const define = CustomElementRegistry.prototype.define;
  CustomElementRegistry.prototype.define = function (...args) {
    mark('define');
    try { return define.apply(this, args); } finally { mark('upgraded'); }
  };
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.benchConfig = isConfig(url);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    // Its headers, as \`fetch\` resolves: before \`load\`, whose handlers (and the microtasks after them) draw the form.
    if (this.benchConfig) {
      asked();
      this.addEventListener('readystatechange', () => this.readyState >= 2 && mark('answered'));
    }
    return send.apply(this, args);
  };
  const fetch = window.fetch;
  window.fetch = function (input, init) {
    const answer = fetch.call(this, input, init);
    if (isConfig(input)) { asked(); answer.then(() => mark('answered'), () => {}); }
    return answer;
  };
  for (const event of ['DOMContentLoaded', 'load']) addEventListener(event, () => mark(event.toLowerCase()), { once: true });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    new MutationObserver(() => { if (performance.getEntriesByName('phase:answered').length) mark('drawn'); })
      .observe(root, { childList: true, subtree: true });
    return root;
  };
})();`;

/** A fresh context (nothing cached, no connection open) and a page of it on the emulated network and CPU. */
async function freshPage(browser: Browser, cpu = 1): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await page.evaluateOnNewDocument(PHASE_PROBE);
  return { page, close: () => context.close() };
}

/**
 * `loads` fresh loads of each page at each CPU rate, the pages taking turns (in another order each round, so that none
 * always follows the same one); then each page once more, watched for preload warnings.
 */
export async function timeToReady(
  browser: Browser,
  origin: string,
  metricsUrl: string,
  loads: number,
  pages: ReadyPage[] = READY_PAGES,
): Promise<ReadyResult[]> {
  const results = CPU_RATES.flatMap((cpu) =>
    pages.map((page) => ({
      page,
      cpu,
      times: [] as number[],
      lastBytes: [] as number[],
      configRequests: [] as number[],
      phases: [] as ReadyResult['phases'],
    })),
  );
  for (let round = 0; round < loads; round += 1) {
    for (let i = 0; i < results.length; i += 1) {
      const result = results[(i + round) % results.length]!;
      const before = await configRequests(metricsUrl);
      const { page, close } = await freshPage(browser, result.cpu);
      try {
        await page.goto(`${origin}${result.page.path}`);
        await page.waitForFunction(() => 'benchReady' in window, { timeout: 30_000 });
        const { ready, lastByte, marks } = await page.evaluate((script) => {
          const pattern = new RegExp(script);
          const entry = performance.getEntriesByType('resource').find((e) => pattern.test(e.name));
          if (!entry) throw new Error(`no resource timing of the page's script (${script})`);
          return {
            ready: (window as unknown as { benchReady: number }).benchReady,
            lastByte: (entry as PerformanceResourceTiming).responseEnd,
            marks: performance.getEntriesByType('mark').map((m) => [m.name, m.startTime] as const),
          };
        }, PAGE_SCRIPT.source);
        result.times.push(ready);
        result.lastBytes.push(lastByte);
        const phases: ReadyResult['phases'][number] = { ready: ready - lastByte };
        for (const [name, at] of marks)
          if (name.startsWith('phase:')) phases[name.slice('phase:'.length) as Phase] = at - lastByte;
        result.phases.push(phases);
      } finally {
        await close();
      }
      result.configRequests.push((await configRequests(metricsUrl)) - before);
    }
  }
  const watched: ReadyResult[] = [];
  for (const result of results) {
    const { page, close } = await freshPage(browser, result.cpu);
    const lines: string[] = [];
    page.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
    try {
      await page.goto(`${origin}${result.page.path}`, { waitUntil: 'load' });
      await new Promise((resolve) => setTimeout(resolve, UNUSED_PRELOAD_WARNING_MS));
    } finally {
      await close();
    }
    watched.push({ ...result, preloadWarnings: lines.filter((line) => /preload/i.test(line)) });
  }
  return watched;
}

/** A page's own work after its bytes: the median time from its script's last byte to ready. */
const afterLastByte = (r: ReadyResult) => median(r.times.map((t, i) => t - r.lastBytes[i]!));

/** Section 6 of the report; `header` says when and on what load a run of this section alone was made. */
export function readySection(results: ReadyResult[], header?: string): string {
  const byCpu = CPU_RATES.map((cpu) => results.filter((r) => r.cpu === cpu));
  const requests = (r: ReadyResult) => [...new Set(r.configRequests)].join(' or ');
  const rows = byCpu.flatMap((group) => {
    const [floor] = group as [ReadyResult];
    const floorMedian = median(floor.times);
    // Each round loaded every page once: the ratio of a round's two loads (taken minutes apart at most, so a change in
    // the machine's load falls on both), their median and range.
    const roundRatios = (r: ReadyResult) => {
      const ratios = r.times.map((t, i) => t / floor.times[i]!).sort((a, b) => a - b);
      return `${median(ratios).toFixed(2)} × (${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)})`;
    };
    return group.map((r) => [
      `${r.cpu} ×`,
      r.page.name,
      ms(median(r.times)),
      `${ms(Math.min(...r.times))}–${ms(Math.max(...r.times))}`,
      ms(median(r.lastBytes)),
      ms(afterLastByte(r)),
      r === floor ? '1' : `${(median(r.times) / floorMedian).toFixed(2)} ×`,
      r === floor ? '–' : roundRatios(r),
      requests(r),
      r.preloadWarnings.length ? r.preloadWarnings.join('<br>') : 'none',
    ]);
  });
  const verdicts = byCpu.map((group) => {
    const [floor, docs] = group as [ReadyResult, ReadyResult | undefined];
    const ratio = docs ? median(docs.times) / median(floor.times) : NaN;
    const verdict = `CPU ${floor.cpu} ×: the docs' embed at ${ratio.toFixed(3)} × the floor against the target of ${READY_TARGET} ×: ${ratio <= READY_TARGET ? 'met' : 'not met'}.`;
    if (!docs) return verdict;
    const bytes = median(docs.lastBytes) - median(floor.lastBytes);
    return `${verdict} Of its ${ms(median(docs.times) - median(floor.times))} ms more than the floor, its script's last byte comes ${ms(bytes)} ms later (${(bytes / median(floor.times)).toFixed(2)} of the ratio), and ready ${ms(afterLastByte(docs) - afterLastByte(floor))} ms later after it.`;
  });
  // The floor's and the docs' embed's own work, step by step: the median time of each step after the script's last byte.
  const phaseRows = byCpu.flatMap((group) => {
    const [floor, docs] = group as [ReadyResult, ReadyResult | undefined];
    if (!docs) return [];
    const at = (r: ReadyResult, phase: Phase) => median(r.phases.flatMap((p) => p[phase] ?? []));
    return (Object.keys(PHASES) as Phase[]).map((phase) => {
      const [f, d] = [at(floor, phase), at(docs, phase)];
      return [`${floor.cpu} ×`, PHASES[phase], ms(f), ms(d), ms(d - f)];
    });
  });
  return [
    '## 6. Time to ready on Slow 4G',
    '',
    ...(header ? [header, ''] : []),
    `Milliseconds from navigation start to the element's ready event (\`billing-pay-ready\`: the form shown with the relay's ` +
      `\`/config\`, Pay enabled), headless Chromium with CDP's network emulation at ${SLOW_4G.latency} ms latency per request, ` +
      `${(SLOW_4G.downloadThroughput * 8) / 1e6} Mbit/s down, ${(SLOW_4G.uploadThroughput * 8) / 1e3} kbit/s up, with the CPU ` +
      `as it is and slowed ${CPU_RATES.at(-1)} × (CDP's CPU throttling, as Lighthouse's mobile run); ` +
      `median of ${byCpu[0]![0]!.times.length} fresh loads of each page at each rate (a new browser context every time: nothing cached, no ` +
      'connection open), the pages taking turns. The floor is the Lit reference element of section 4 (brotli, as the relay ' +
      'sends the widget) on a page with `<link rel="preconnect">` to the relay and `<link rel="preload" as="fetch" crossorigin>` ' +
      "of its `/config`. The embed is the docs' snippet (demo/playground-snippet.js): the bundle from the relay with `integrity` " +
      'and `crossorigin`, after the same two hints. CDP emulates latency per request, not per connection: what the ' +
      'preconnect saves on a real network (DNS, TCP, TLS) is not in these figures. Requests: the `/config` requests the ' +
      "relay answered per load. The script's last byte (Resource Timing's `responseEnd` of the page's script, median) and " +
      "the median time from it to ready split a page's time in what its bytes cost and what its own work does after them " +
      '(untraced, unlike bench/profile.ts). Warnings: what Chromium wrote about preloads on one more load of the page, watched ' +
      `${UNUSED_PRELOAD_WARNING_MS / 1000} s past its load event.`,
    '',
    table(
      [
        'CPU',
        'page',
        'median ms',
        'min–max ms',
        "script's last byte, ms",
        'ready after it, ms',
        '÷ floor (medians)',
        '÷ floor, each round: median (range)',
        '`/config` requests',
        'preload warnings',
      ],
      rows,
    ),
    '',
    ...verdicts.flatMap((v) => [v, '']),
    "Where each page's own work goes after its script's last byte, untraced: a probe run before the page's scripts " +
      '(bench/ready.ts `PHASE_PROBE`) marks when the element is defined and upgraded, when `/config` is asked and ' +
      "answered, the document's events, the frame after the ask, and the form's nodes put into the shadow root; the " +
      'median of each over the loads above, in ms after the last byte. The floor draws its empty list before it asks.',
    '',
    table(['CPU', 'step', 'floor', "the docs' embed", 'embed − floor'], phaseRows),
    '',
  ]
    .join('\n')
    .trimEnd();
}
