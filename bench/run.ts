/**
 * `npm run bench`: how fast and how light, each figure next to a reference measured in the same run on the same
 * machine. Loopback only; every server runs in its own process; the run stops by itself. Prints a markdown report
 * and writes it to `bench/results.md`. `BENCH_QUICK=1` shortens every step (for working on the bench itself);
 * `BENCH_ONLY=ready` runs section 6 alone (time to ready on Slow 4G) and puts it in place in `bench/results.md`.
 */
import type { Browser } from 'puppeteer-core';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { SANDBOX_DEFAULTS } from '../src/sandbox/config.js';
import { fire, measure, type LoadResult, type Target } from './http-load.js';
import { startChild, stopAll, type Child } from './processes.js';
import { lighthouseRun, lighthouseSection, type LighthouseResult } from './lighthouse.js';
import { readySection, startReadyPages, timeToReady } from './ready.js';
import { int, machine, mb, ms, percent, replaceSection, table } from './report.js';
import {
  REFERENCE_BUNDLE,
  WIDGET_BUNDLE,
  buildBundles,
  bundleSize,
  launchChromium,
  median,
  startPageServer,
  timeFirstRender,
} from './widget.js';
import { startRedisServer } from '../test/relay/redis-server.js';

const QUICK = process.env.BENCH_QUICK === '1';
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'ready') throw new Error(`BENCH_ONLY: ${ONLY} is not a part of the bench (ready)`);
const PLAN = {
  seconds: QUICK ? 1 : 5,
  /**
   * Throughput cells are measured this many times, the targets taking turns (in reverse order every other round); the
   * median round is reported, and the relay ÷ bare proxy ratios are the median of each round's own ratio.
   */
  rounds: QUICK ? 1 : 5,
  warmupSeconds: QUICK ? 0.5 : 1,
  /** Before anything is measured, every server is warmed up alike (JIT, connection pools) at 50 connections. */
  firstWarmupSeconds: QUICK ? 0.5 : 3,
  connections: [1, 50, 500],
  tokenPayments: QUICK ? 2_000 : 10_000,
  tokenConnections: 200,
  memoryRequests: QUICK ? 10_000 : 100_000,
  memoryConnections: 50,
  replayConnections: 50,
  pageLoads: QUICK ? 4 : 20,
  /** Fresh loads of each page on the emulated Slow 4G (section 6): at 15, the floor's median at 4 × moved ±20 ms. */
  readyLoads: QUICK ? 3 : 25,
  /** Lighthouse's mobile runs of the docs' embed (section 7). */
  lighthouseRuns: QUICK ? 1 : 3,
};
/** What issue 17 asks of the relay: at least this share of the bare proxy's requests/s at 50 connections. */
const TARGET_AT_50 = 0.8;
/** Stop whatever happens: a stuck step must not keep the machine busy. */
const TIME_LIMIT_MS = 12 * 60_000;

const RESULTS = fileURLToPath(new URL('./results.md', import.meta.url));
const CREDENTIALS = { username: 'bench', password: 'bench-secret' };
const SHOP = 'https://shop.example';
const EPS_UUID = SANDBOX_DEFAULTS.epsUuids.A;
const JSON_TYPE = { 'content-type': 'application/json' };

// One payment of system A, found by agreement number: what the widget sends, and what the billing receives.
const PARAMS = [
  { name: 'confirmation_type', value: 'redirect' },
  { name: 'confirmation_return_url', value: `${SHOP}/paid` },
];
const BILLING_FIELDS = `"amount":1500.50,"agreement_param_id":5,"agreement_param_value":"AG-1001","eps_params":${JSON.stringify(PARAMS)}`;
const RELAY_BODY = JSON.stringify({
  system: 'A',
  amount: '1500.50',
  agreement_param_id: 5,
  agreement_param_value: 'AG-1001',
  eps_params: PARAMS,
});

const log = (text: string) => console.error(`bench: ${text}`);
let stopRedis: () => Promise<void> = async () => {};

setTimeout(() => {
  log(`stopped after ${TIME_LIMIT_MS / 60_000} minutes`);
  void Promise.all([stopAll(), stopRedis()]).finally(() => process.exit(1));
}, TIME_LIMIT_MS).unref();

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date();
  const loadBefore = os.loadavg()[0]!;

  log('building the widget and the Lit reference');
  await buildBundles();
  const sizes = { widget: await bundleSize(WIDGET_BUNDLE), reference: await bundleSize(REFERENCE_BUNDLE) };

  let pageRelay = '';
  const pages = await startPageServer(
    [
      { tag: 'billing-pay', script: WIDGET_BUNDLE, readyEvent: 'billing-pay-ready' },
      { tag: 'bench-reference', script: REFERENCE_BUNDLE, readyEvent: 'bench-reference-ready' },
    ],
    () => pageRelay,
  );

  const readyPages = await startReadyPages(() => pageRelay);

  log('starting the sandbox, relays and the bare proxy');
  const sandbox = await startChild('sandbox', { BENCH_SANDBOX: JSON.stringify(CREDENTIALS) });
  const baseUrl = `${sandbox.url}/api/rest/v1`;
  const relayEnv = relayEnvOf(baseUrl, [SHOP, pages.origin, readyPages.origin]);
  // A private redis-server of the bench's own (as the tests start theirs), else a Redis already on 6379.
  const privateRedis = await startRedisServer().catch(
    (error: Error) => (log(`${error.message.split('\n')[0]}`), undefined),
  );
  if (privateRedis) stopRedis = () => privateRedis.stop();
  const redisUrl =
    privateRedis?.url ?? ((await redisAnswers('127.0.0.1', 6379)) ? 'redis://127.0.0.1:6379' : undefined);
  const proxyEnv = { BENCH_PROXY: JSON.stringify({ baseUrl, ...CREDENTIALS, epsUuid: EPS_UUID }) };
  const [relay, relayInfo, relayFresh, relayRedis, bare, honoProxy] = await Promise.all([
    startChild('relay', relayEnv()),
    startChild('relay', relayEnv({ LOG_LEVEL: 'info' })),
    startChild('relay', relayEnv()),
    redisUrl ? startChild('relay', relayEnv({ REDIS_URL: redisUrl })) : undefined,
    startChild('bare-proxy', proxyEnv),
    startChild('hono-proxy', proxyEnv),
  ]);
  pageRelay = relay.url;

  const token = await bearerToken(baseUrl);
  const direct: Target = {
    url: `${baseUrl}/eps_payments`,
    headers: { authorization: `Bearer ${token}`, ...JSON_TYPE },
    body: `{"eps_uuid":"${EPS_UUID}",${BILLING_FIELDS}}`,
  };
  const proxied: Target = { url: `${bare.url}/eps_payments`, headers: JSON_TYPE, body: `{${BILLING_FIELDS}}` };
  const viaRelay = (child: Child, headers: Record<string, string> = {}): Target => ({
    url: `${child.url}/payments`,
    headers: { origin: SHOP, ...JSON_TYPE, ...headers },
    body: RELAY_BODY,
  });
  const targets = [
    { name: 'sandbox direct', target: direct, front: undefined },
    { name: 'bare node:http proxy', target: proxied, front: bare },
    { name: 'relay', target: viaRelay(relay), front: relay },
  ];
  for (const { name, target } of targets) await expectCreated(name, target);

  /** One cell, with the CPU time the proxy in front (if any) and the sandbox spent on each request of it. */
  const cell = async (target: Target, connections: number, front?: Child): Promise<Row['result']> => {
    let cpu = { front: 0, sandbox: 0 };
    const result = await measure(target, connections, PLAN.seconds, PLAN.warmupSeconds, async () => {
      await settle(sandbox);
      cpu = { front: (await front?.cpu()) ?? 0, sandbox: await sandbox.cpu() };
    });
    await settle(sandbox);
    return {
      ...result,
      // Per request: none when no request was answered (an overloaded machine, a short BENCH_QUICK cell).
      frontCpu: front && result.total ? ((await front.cpu()) - cpu.front) / result.total : undefined,
      sandboxCpu: result.total ? ((await sandbox.cpu()) - cpu.sandbox) / result.total : NaN,
    };
  };

  // 1. Throughput and latency: at each concurrency the three take turns, round after round, so that a slow moment of
  // the machine (its cores are shared) falls on all of them; each reports its median round.
  for (const { name, target } of targets) {
    log(`${name}: warm-up, ${PLAN.firstWarmupSeconds} s at 50 connections`);
    await measure(target, 50, PLAN.firstWarmupSeconds, 0);
  }
  const throughput: Row[] = [];
  const paired: Paired[] = [];
  for (const connections of PLAN.connections) {
    const rounds = new Map<string, Row['result'][]>();
    for (let round = 0; round < PLAN.rounds; round += 1) {
      // Every other round in reverse order: no target always runs right after the same other one.
      for (const { name, target, front } of round % 2 ? [...targets].reverse() : targets) {
        const result = await cell(target, connections, front);
        log(
          `${name}, ${connections} connections, round ${round + 1}: ${int(result.rps)} req/s, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, CPU ${result.frontCpu === undefined ? '–' : int(result.frontCpu)} µs/req`,
        );
        rounds.set(name, [...(rounds.get(name) ?? []), result]);
      }
    }
    for (const { name } of targets) throughput.push({ name, connections, result: medianRound(rounds.get(name)!) });
    paired.push({ connections, relay: rounds.get('relay')!, bare: rounds.get('bare node:http proxy')! });
  }
  const at50 = PLAN.connections.includes(50) ? 50 : PLAN.connections[0]!;
  const variants = [
    {
      name: "bare proxy on the relay's stack (Hono, @hono/node-server, undici)",
      target: { ...proxied, url: `${honoProxy.url}/eps_payments` },
      front: honoProxy,
    },
    { name: 'relay, LOG_LEVEL=info (to /dev/null)', target: viaRelay(relayInfo), front: relayInfo },
    {
      name: 'relay, a fresh Idempotency-Key each (SQLite store)',
      target: { ...viaRelay(relay), setupRequest: withFreshKey },
      front: relay,
    },
    ...(relayRedis
      ? [
          {
            name: 'relay, a fresh Idempotency-Key each (Redis store)',
            target: { ...viaRelay(relayRedis), setupRequest: withFreshKey },
            front: relayRedis,
          },
        ]
      : []),
  ];
  for (const { name, target, front } of variants) {
    await expectCreated(name, target);
    const result = await cell(target, at50, front);
    log(`${name}, ${at50} connections: ${int(result.rps)} req/s`);
    throughput.push({ name, connections: at50, result });
  }

  // 2. Token economy: a relay that has never asked for a token, many payments at once.
  await settle(sandbox);
  const beforeTokens = await sandbox.counts();
  const tokenRun = await fire(viaRelay(relayFresh), PLAN.tokenConnections, PLAN.tokenPayments);
  const afterTokens = await sandbox.counts();
  const refreshes = await metric(relayFresh.metricsUrl!, 'relay_billing_token_refreshes_total');
  const tokens = {
    auth: afterTokens.auth - beforeTokens.auth,
    payments: afterTokens.epsPayments - beforeTokens.epsPayments,
    refreshes,
    run: tokenRun,
  };
  log(`token economy: ${tokens.payments} payments, ${tokens.auth} GET /auth`);

  // 5. Memory (on the same relay, which the token run has warmed up), sampled after every tenth of the run.
  const memoryBefore = await relayFresh.memory();
  const memory = {
    before: memoryBefore,
    samples: [] as { rss: number; heapUsed: number }[],
    total: 0,
    failed: 0,
    seconds: 0,
  };
  for (let i = 0; i < 10; i += 1) {
    const part = await fire(viaRelay(relayFresh), PLAN.memoryConnections, PLAN.memoryRequests / 10);
    memory.samples.push(await relayFresh.memory());
    memory.total += part.total;
    memory.failed += part.failed;
    memory.seconds += part.seconds;
  }
  log(`memory: RSS ${mb(memoryBefore.rss)} → ${mb(memory.samples.at(-1)!.rss)} MB over ${int(memory.total)} requests`);

  // 3. Idempotent replays: the same key and body again and again.
  const replays: { store: string; result?: LoadResult; created?: number }[] = [];
  for (const [store, child] of [
    ['SQLite', relay],
    [privateRedis ? 'Redis (local redis-server)' : 'Redis (127.0.0.1:6379)', relayRedis],
  ] as const) {
    if (!child) {
      replays.push({ store: `${store}: not measured, Redis does not answer` });
      continue;
    }
    const target = viaRelay(child, { 'idempotency-key': `bench-${randomUUID()}` });
    await expectCreated(`relay (${store})`, target);
    await settle(sandbox);
    const before = await sandbox.counts();
    const result = await measure(target, PLAN.replayConnections, PLAN.seconds, PLAN.warmupSeconds);
    await settle(sandbox);
    const created = (await sandbox.counts()).epsPayments - before.epsPayments;
    log(`replays, ${store}: ${int(result.rps)} req/s`);
    replays.push({ store, result, created });
  }

  // 4. The widget in Chromium, against the idle relay's /config; 6. its time to ready on Slow 4G.
  log(`widget: ${PLAN.pageLoads} fresh loads of each page in headless Chromium`);
  const browser = await launchChromium();
  let renders: number[][];
  let ready: Awaited<ReturnType<typeof timeToReady>>;
  let lighthouse: LighthouseResult[];
  try {
    renders = await timeFirstRender(
      browser,
      [`${pages.origin}/billing-pay.html`, `${pages.origin}/bench-reference.html`],
      PLAN.pageLoads,
    );
    log(`time to ready: ${PLAN.readyLoads} fresh loads of each page on Slow 4G`);
    ready = await timeToReady(browser, readyPages.origin, relay.metricsUrl!, PLAN.readyLoads);
    lighthouse = await lighthouseRuns(browser, readyPages.origin);
  } finally {
    await browser.close();
  }
  await pages.close();
  await readyPages.close();
  await stopAll();

  const report = [
    '# billing-pay benchmark results',
    '',
    `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machine()} · \`npm run bench\`${QUICK ? ' (BENCH_QUICK: shortened)' : ''} took ${Math.round((performance.now() - started) / 1000)} s; ` +
      `load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} at the end (the cores are shared with whatever else runs)`,
    '',
    throughputSection(throughput, paired),
    '',
    tokenSection(tokens),
    '',
    replaySection(replays),
    '',
    widgetSection(sizes, renders),
    '',
    memorySection(memory),
    '',
    readySection(ready),
    '',
    lighthouseSection(lighthouse),
    '',
  ].join('\n');
  await writeFile(RESULTS, report);
  console.log(report);
  log(`written to ${RESULTS}`);
}

/** A relay's environment for the bench, its billing at `baseUrl`, these page origins allowed. */
function relayEnvOf(baseUrl: string, origins: string[]) {
  const storeDir = mkdtempSync(join(os.tmpdir(), 'billing-pay-bench-'));
  return (extra: Record<string, string> = {}) => ({
    BILLING_BASE_URL: baseUrl,
    BILLING_USERNAME: CREDENTIALS.username,
    BILLING_PASSWORD: CREDENTIALS.password,
    EPS_UUID_A: SANDBOX_DEFAULTS.epsUuids.A,
    EPS_UUID_B: SANDBOX_DEFAULTS.epsUuids.B,
    EPS_UUID_C: SANDBOX_DEFAULTS.epsUuids.C,
    ALLOWED_ORIGINS: origins.join(','),
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    // The defaults (30 and 10 a minute) would refuse almost all of it: one address, one agreement.
    RATE_LIMIT_IP: '999999999/1',
    RATE_LIMIT_AGREEMENT: '999999999/1',
    DUPLICATE_WINDOW_SECONDS: '0',
    IDEMPOTENCY_TTL_SECONDS: '600',
    // Each relay its own key store, on the disk (synchronous = FULL: the fsyncs are part of the cost measured).
    STORE_FILE: join(storeDir, `${randomUUID()}.db`),
    ...extra,
  });
}

/** Lighthouse's mobile runs of the docs' embed on the ready pages' server. */
async function lighthouseRuns(browser: Browser, origin: string): Promise<LighthouseResult[]> {
  log(`lighthouse: ${PLAN.lighthouseRuns} mobile runs of the docs' embed`);
  const results: LighthouseResult[] = [];
  for (let i = 0; i < PLAN.lighthouseRuns; i += 1) results.push(await lighthouseRun(browser, `${origin}/embed.html`));
  return results;
}

/** `BENCH_ONLY=ready`: sections 6 and 7 alone, against one relay and the sandbox, put in place in `bench/results.md`. */
async function readyOnly(): Promise<void> {
  const started = performance.now();
  const loadBefore = os.loadavg()[0]!;
  log('building the widget and the Lit reference');
  await buildBundles();
  let relayUrl = '';
  const pages = await startReadyPages(() => relayUrl);
  const sandbox = await startChild('sandbox', { BENCH_SANDBOX: JSON.stringify(CREDENTIALS) });
  const relay = await startChild('relay', relayEnvOf(`${sandbox.url}/api/rest/v1`, [pages.origin])());
  relayUrl = relay.url;
  log(`time to ready: ${PLAN.readyLoads} fresh loads of each page on Slow 4G`);
  const browser = await launchChromium();
  let ready: Awaited<ReturnType<typeof timeToReady>>;
  let lighthouse: LighthouseResult[];
  try {
    ready = await timeToReady(browser, pages.origin, relay.metricsUrl!, PLAN.readyLoads);
    lighthouse = await lighthouseRuns(browser, pages.origin);
  } finally {
    await browser.close();
    await pages.close();
    await stopAll();
  }
  const section = readySection(
    ready,
    `Run alone (\`BENCH_ONLY=ready npm run bench\`${QUICK ? ', BENCH_QUICK: shortened' : ''}): ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machine()} · ${Math.round((performance.now() - started) / 1000)} s; ` +
      `load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} at the end.`,
  );
  const before = await readFile(RESULTS, 'utf8').catch(() => '# billing-pay benchmark results\n');
  const scores = lighthouseSection(lighthouse);
  await writeFile(RESULTS, replaceSection(replaceSection(before, section), scores));
  console.log(`${section}\n\n${scores}`);
  log(`sections 6 and 7 put in place in ${RESULTS}`);
}

interface Row {
  name: string;
  connections: number;
  /** With the CPU microseconds per request of the proxy in front (none for the sandbox called directly) and the sandbox. */
  result: LoadResult & { frontCpu: number | undefined; sandboxCpu: number; rpsRange?: [number, number] };
}

/** The relay's and the bare proxy's results at one concurrency, round by round (the two of a round ran minutes apart at most). */
interface Paired {
  connections: number;
  relay: Row['result'][];
  bare: Row['result'][];
}

/** The median of the rounds' own ratios, and their lowest and highest. */
function pairedRatio(
  pair: Paired,
  of: (r: Row['result']) => number | undefined,
): { median: number; low: number; high: number } | undefined {
  const ratios = pair.relay
    .map((relay, i) => (of(relay) ?? NaN) / (of(pair.bare[i]!) ?? NaN))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (!ratios.length) return undefined;
  return { median: ratios[Math.floor(ratios.length / 2)]!, low: ratios[0]!, high: ratios.at(-1)! };
}

function throughputSection(rows: Row[], paired: Paired[]): string {
  const find = (name: string, connections: number) =>
    rows.find((r) => r.name === name && r.connections === connections)?.result;
  const ratios = paired.map((pair) => {
    const rps = pairedRatio(pair, (r) => r.rps);
    const p50 = pairedRatio(pair, (r) => r.p50);
    const cpu = pairedRatio(pair, (r) => r.frontCpu);
    const relay = find('relay', pair.connections)!;
    return [
      pair.connections,
      rps ? percent(rps.median) : '–',
      rps ? `${percent(rps.low)}–${percent(rps.high)}` : '–',
      p50 ? `${p50.median.toFixed(2)} ×` : '–',
      cpu ? `${cpu.median.toFixed(1)} ×` : '–',
      relay.frontCpu === undefined ? '–' : int(relay.frontCpu),
    ];
  });
  const at50 = paired.find((pair) => pair.connections === 50);
  const verdict = at50 && pairedRatio(at50, (r) => r.rps);
  return [
    `## 1. Relay throughput and latency`,
    '',
    `\`POST /eps_payments\` of the sandbox, reached three ways. Each cell: autocannon, ${PLAN.warmupSeconds} s warm-up then ${PLAN.seconds} s ` +
      'measured; closed loop (each connection sends its next request when the answer arrives); latency per request in ' +
      "milliseconds, p50 and p99 leaving out each connection's first answer (connection ramp-up: all connections open at " +
      'once and a busy server takes them on one by one), "slowest" including it; CPU time per request of the process in front of the sandbox and of the sandbox itself, in ' +
      'microseconds. The load generator, the sandbox and the proxy each run in their own process, all on the same cores. ' +
      `Each server is first warmed up alike (${PLAN.firstWarmupSeconds} s at 50 connections). The three targets take turns, ${PLAN.rounds} rounds at each concurrency, ` +
      'every other round in reverse order; each row is its median round (by requests/s), and "rounds" gives the lowest and highest of its rounds. ' +
      'The variants below the three run once, at 50 connections.',
    '',
    table(
      [
        'target',
        'connections',
        'requests/s',
        'rounds, requests/s',
        'p50 ms',
        'p99 ms',
        'slowest ms',
        'failed',
        'proxy CPU µs/req',
        'sandbox CPU µs/req',
      ],
      rows.map(({ name, connections, result: r }) => [
        name,
        connections,
        int(r.rps),
        r.rpsRange ? `${int(r.rpsRange[0])}–${int(r.rpsRange[1])}` : '–',
        ms(r.p50),
        ms(r.p99),
        ms(r.max),
        r.failed,
        r.frontCpu === undefined ? '–' : int(r.frontCpu),
        Number.isNaN(r.sandboxCpu) ? '–' : int(r.sandboxCpu),
      ]),
    ),
    '',
    `The relay against the bare proxy, each figure the median of the ${PLAN.rounds} rounds' own ratios (the two ran one after the other in each ` +
      "round, so a busy moment of the machine falls on both). Target (issue 17): the relay's own work — validate, rate limits, " +
      `token, forward, metrics — leaves it at least ${percent(TARGET_AT_50)} of the bare proxy's requests/s at 50 connections; ` +
      `at 1 connection the ratio is the latency the relay adds to each payment.`,
    '',
    table(
      [
        'connections',
        'relay ÷ bare proxy, requests/s',
        'rounds',
        'relay ÷ bare proxy, p50',
        'relay ÷ bare proxy, CPU per request',
        'relay CPU µs/req',
      ],
      ratios,
    ),
    '',
    verdict
      ? `At 50 connections: ${percent(verdict.median)} (rounds ${percent(verdict.low)}–${percent(verdict.high)}) against the target of ${percent(TARGET_AT_50)}: ` +
        `${verdict.median >= TARGET_AT_50 ? 'met' : 'not met'}.`
      : 'Not measured at 50 connections.',
  ].join('\n');
}

/** The round with the median throughput (its latency and CPU figures with it), and the spread of all rounds. */
function medianRound(results: Row['result'][]): Row['result'] {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)]!, rpsRange: [sorted[0]!.rps, sorted.at(-1)!.rps] };
}

/** Waits until the sandbox has seen no new request for a moment: what a finished run left in flight has landed. */
async function settle(sandbox: Child): Promise<void> {
  let last = await sandbox.counts();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = await sandbox.counts();
    if (now.auth === last.auth && now.epsPayments === last.epsPayments) return;
    last = now;
  }
}

function tokenSection(t: { auth: number; payments: number; refreshes: number | undefined; run: LoadResult }): string {
  return [
    '## 2. Token economy',
    '',
    `A relay that has not asked for a token yet; ${int(PLAN.tokenPayments)} payments at ${PLAN.tokenConnections} connections; the sandbox counts ` +
      "what reaches it. The sandbox's tokens live 600 s: the run stays well within one lifetime, so one `GET /auth` is right. " +
      '"Slowest" includes the first answers, while the cold relay takes on its 200 connections.',
    '',
    table(
      [
        'payments answered',
        'connections',
        'seconds',
        'failed',
        'slowest ms',
        '`POST /eps_payments` at the sandbox',
        '`GET /auth` at the sandbox',
        'relay_billing_token_refreshes_total',
      ],
      [
        [
          int(t.run.total),
          PLAN.tokenConnections,
          t.run.seconds.toFixed(1),
          t.run.failed,
          ms(t.run.max),
          int(t.payments),
          t.auth,
          t.refreshes ?? '–',
        ],
      ],
    ),
  ].join('\n');
}

function replaySection(replays: { store: string; result?: LoadResult; created?: number }[]): string {
  return [
    '## 3. Idempotent replays',
    '',
    `One payment with an \`Idempotency-Key\`, then the same key and body again at ${PLAN.replayConnections} connections ` +
      `(${PLAN.warmupSeconds} s warm-up, ${PLAN.seconds} s measured). Every replay must be answered from the store: "payments created" ` +
      'counts what reached the billing during the run (0 is right).',
    '',
    table(
      ['store', 'replays/s', 'p50 ms', 'p99 ms', 'failed', 'payments created'],
      replays.map(({ store, result, created }) =>
        result
          ? [store, int(result.rps), ms(result.p50), ms(result.p99), result.failed, created ?? '–']
          : [store, '–', '–', '–', '–', '–'],
      ),
    ),
  ].join('\n');
}

function widgetSection(
  sizes: Record<'widget' | 'reference', { raw: number; gzip: number }>,
  renders: number[][],
): string {
  const [widget, reference] = renders as [number[], number[]];
  const row = (name: string, size: { raw: number; gzip: number }, times: number[]) => [
    name,
    int(size.raw),
    int(size.gzip),
    ms(median(times)),
    `${ms(Math.min(...times))}–${ms(Math.max(...times))}`,
  ];
  return [
    '## 4. Widget weight and speed',
    '',
    `Bytes of the bundle as a page loads it (gzip -9). Time: from the \`<script type="module">\` tag to the element's ` +
      `first complete render (its \`/config\` loaded from the relay, \`updateComplete\` resolved, ready event fired), headless ` +
      `Chromium, median of ${PLAN.pageLoads} fresh page loads each (a new browser context every time: nothing cached), the two pages taking turns. ` +
      "The reference is a trivial Lit element that also fetches `/config` and renders it, bundled by the same Vite configuration except that it keeps Lit's template parser (its template is read at run time, as Lit ships): the floor Lit itself costs.",
    '',
    table(
      ['bundle', 'raw bytes', 'gzip bytes', 'script → rendered, median ms', 'min–max ms'],
      [row('`dist/billing-pay.js`', sizes.widget, widget), row('Lit reference element', sizes.reference, reference)],
    ),
    '',
    `The widget over the reference: +${int(sizes.widget.gzip - sizes.reference.gzip)} gzip bytes, +${ms(median(widget) - median(reference))} ms.`,
  ].join('\n');
}

type Memory = { rss: number; heapUsed: number };

function memorySection(m: {
  before: Memory;
  samples: Memory[];
  total: number;
  failed: number;
  seconds: number;
}): string {
  const after = m.samples.at(-1)!;
  const range = (key: keyof Memory) =>
    `${mb(Math.min(...m.samples.map((s) => s[key])))}–${mb(Math.max(...m.samples.map((s) => s[key])))}`;
  return [
    '## 5. Relay memory',
    '',
    `The relay of section 2 (keys in SQLite, limits in memory), warmed up by its ${int(PLAN.tokenPayments)} payments, then ${int(m.total)} payments at ` +
      `${PLAN.memoryConnections} connections (${m.seconds.toFixed(0)} s, ${m.failed} failed), measured after a full GC before, after each tenth and at the end. ` +
      'The payments carry no `Idempotency-Key`: with one, each answer is kept for `IDEMPOTENCY_TTL_SECONDS` by design.',
    '',
    table(
      ['', 'before', 'after', 'growth', 'range over the 10 samples'],
      [
        ['resident set (RSS), MB', mb(m.before.rss), mb(after.rss), mb(after.rss - m.before.rss), range('rss')],
        [
          'V8 heap used, MB',
          mb(m.before.heapUsed),
          mb(after.heapUsed),
          mb(after.heapUsed - m.before.heapUsed),
          range('heapUsed'),
        ],
      ],
    ),
  ].join('\n');
}

/** A fresh `Idempotency-Key` on every request, as the widget sends. */
function withFreshKey(request: { headers?: Record<string, string> }) {
  return { ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } };
}

async function bearerToken(baseUrl: string): Promise<string> {
  const basic = Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64');
  const answer = await fetch(`${baseUrl}/auth`, { headers: { authorization: `Basic ${basic}` } });
  return ((await answer.json()) as { response: { token: string } }).response.token;
}

/** Every target must create a payment before it is measured: a bench of error answers measures nothing. */
async function expectCreated(name: string, target: Target): Promise<void> {
  const answer = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  if (answer.status !== 201) throw new Error(`${name} answered ${answer.status}: ${await answer.text()}`);
}

async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : undefined;
}

function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

try {
  await (ONLY === 'ready' ? readyOnly() : main());
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopAll();
  await stopRedis();
}
