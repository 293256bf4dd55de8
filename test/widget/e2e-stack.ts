/**
 * The real relay and billing sandbox for the widget's end-to-end tests, started by the test runner (see
 * web-test-runner.config.js) and reached by the test pages through `/__e2e/*` on the runner's own server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { longestAuthorizedCallMs } from '../../src/relay/billing/client.js';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { elementHtml, relayHints, scriptHtml } from '../../demo/playground-snippet.js';
import { configRequests } from '../../scripts/relay-metrics.js';
import { freePort } from './engines.js';

const SESSION_SECRET = 'e2e-session-secret-that-is-long-enough-0123456789';

export async function startE2eStack(pageOrigins: string[]) {
  // N = 2, not the default: the autopayment disclosure's end-to-end test sees the sandbox's N reach the widget.
  const sandbox = await startSandbox({ port: 0, username: 'e2e', password: 'e2e-password', autopaymentLeadDays: 2 });
  const relay = await startRelay(
    loadConfig({
      ...sandbox.relayEnv(),
      ALLOWED_ORIGINS: pageOrigins.join(','),
      PORT: '0',
      METRICS_PORT: '0',
      STORE_FILE: ':memory:',
      SESSION_SECRET,
      RATE_LIMIT_IP: '10000/60',
      RATE_LIMIT_AGREEMENT: '10000/60',
      // The tests look agreements up by e-mail too, and miss on purpose more often than a payer would.
      ALLOWED_LOOKUPS: '1 4 5 6 7 8 10 11 14 15',
      RATE_LIMIT_NOT_FOUND: '10000/60',
      DUPLICATE_WINDOW_SECONDS: '0',
    }),
    createLogger('silent'),
  );
  // A relay of another merchant: the test pages' origin is not among its ALLOWED_ORIGINS.
  const foreignRelay = await startRelay(
    loadConfig({
      ...sandbox.relayEnv(),
      ALLOWED_ORIGINS: 'https://other-shop.example',
      PORT: '0',
      STORE_FILE: ':memory:',
    }),
    createLogger('silent'),
  );

  const tampering = await startFileProxy(relay.url, 'tampered');
  const slow = await startFileProxy(relay.url, 'slow');
  const slowReturn = await startFileProxy(relay.url, 'slow-return');
  const processRelay = new ProcessRelay(sandbox, pageOrigins);
  /** Relays a test started with a `.env` of its own (`merchant-relay`). */
  const merchantRelays: Relay[] = [];

  /** Answers for `/__e2e/<name>`: what a test needs to see of the billing side. */
  const routes: Record<string, (query: URLSearchParams) => Promise<unknown>> = {
    stack: async () => ({ relay: relay.url, sandbox: sandbox.url, foreignRelay: foreignRelay.url }),
    /** The billing answers the next payment with this status (`?status=404`: a billing that says "not found" so). */
    fault: async (q) => {
      sandbox.faults.epsPayments = { status: Number(q.get('status')), times: 1 };
      return {};
    },
    session: async (q) => ({
      session: await createClientSession({ agreementId: Number(q.get('agreement')) }, SESSION_SECRET),
    }),
    /** `GET /config` requests the relay has answered so far (its `relay_http_requests_total`). */
    'config-requests': async () => ({ count: await configRequests(relay.metricsUrl!) }),
    /** `POST /payments` requests the relay has answered so far, whatever their status (`relay_http_requests_total`). */
    'payment-requests': async () => ({ count: await paymentRequests(relay.metricsUrl!) }),
    /** The `POST /eps_payments` bodies that reached the billing. */
    payments: async () =>
      sandbox.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/eps_payments')).map((c) => c.body),
    /** How many `DELETE`s (disabled payment methods) reached the billing. */
    deletes: async () => ({ count: sandbox.calls.filter((c) => c.method === 'DELETE').length }),
    /** A method of `?agreement_number=` saved with autopayment, through the relay and the hosted page: `{id}`. */
    'saved-method': async (q) => {
      const res = await fetch(`${relay.url}/payments`, {
        method: 'POST',
        headers: { origin: pageOrigins[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({
          system: 'A',
          amount: '10.00',
          agreement_param_id: 5,
          agreement_param_value: q.get('agreement_number'),
          eps_params: [
            { name: 'confirmation_type', value: 'redirect' },
            { name: 'confirmation_return_url', value: `${pageOrigins[0]}/` },
            { name: 'save_payment_method', value: true },
            { name: 'enable_autopayments', value: true },
            { name: 'preferred_method', value: true },
          ],
        }),
      });
      const { redirect_url: url } = (await res.json()) as { redirect_url: string };
      await fetch(url, { method: 'POST', body: new URLSearchParams({ decision: 'pay' }), redirect: 'manual' });
      return { id: [...sandbox.store.paymentMethods.values()].at(-1)!.payment_method_id };
    },
    methods: async (q) =>
      [...sandbox.store.paymentMethods.values()].filter((m) => m.agreement_id === Number(q.get('agreement'))),
    balance: async (q) => ({ balance: String(sandbox.store.agreements.get(Number(q.get('agreement')))?.balance) }),
    /** Moves the sandbox's clock to one minute past one day before the next monthly period (the 1st, UTC). */
    eve: async () => {
      const now = sandbox.clock.now();
      const eveOf = (month: number) => Date.UTC(now.getUTCFullYear(), month, 1) - 24 * 3600_000 + 60_000;
      const month = eveOf(now.getUTCMonth() + 1) > now.getTime() ? now.getUTCMonth() + 1 : now.getUTCMonth() + 2;
      return sandbox.clock.advanceTo(eveOf(month)).events;
    },
    /**
     * A relay on the sandbox, configured by `?env=` — a `.env` text, read as the relay reads its `.env` file (Node's
     * `parseEnv`, the parser of `process.loadEnvFile`) — over nothing but the billing's variables: `{url}`.
     */
    'merchant-relay': async (q) => {
      const merchant = await startRelay(
        loadConfig({ ...sandbox.relayEnv(), PORT: '0', STORE_FILE: ':memory:', ...parseEnv(q.get('env') ?? '') }),
        createLogger('silent'),
      );
      merchantRelays.push(merchant);
      return { url: merchant.url };
    },
    /** The sandbox's client card of an agreement, as HTML. */
    card: async (q) => ({
      html: await (await fetch(`${sandbox.url}/agreements/${Number(q.get('agreement'))}`)).text(),
    }),
    /** The client's choice on the payment system's page: the form the hosted page posts. */
    decide: async (q) => {
      const res = await fetch(q.get('url')!, {
        method: 'POST',
        body: new URLSearchParams({ decision: q.get('decision')! }),
        redirect: 'manual',
      });
      return { status: res.status, location: res.headers.get('location') };
    },
    /** A relay in a process of its own, on a fresh key store (the one before, if any, killed): `{url, leaseMs}`. */
    'proc-relay/start': async () => processRelay.start(),
    /**
     * The billing holds the next payment `?ms` long. Answers how many payments had reached it, for `proc-relay/kill`.
     */
    'proc-relay/hold': async (q) => {
      sandbox.faults.epsPayments = { delayMs: Number(q.get('ms')), times: 1 };
      return { billed: sandbox.counts.epsPayments };
    },
    /**
     * SIGKILL to the process relay, and its exit waited for. With `?billed=N`: as soon as more than N payments have
     * reached the billing (watched here, every 2 ms: the relay gives up on the billing after BILLING_TIMEOUT_MS, and
     * would then store that answer; a page polling `/__e2e/payments` could come too late). Answers when it was killed
     * (epoch ms) and how many payments had reached the billing by then.
     */
    'proc-relay/kill': async (q) => {
      if (q.has('billed')) await billedMoreThan(sandbox, Number(q.get('billed')));
      const killedAt = await processRelay.kill();
      return { killedAt, billed: sandbox.counts.epsPayments };
    },
    /** The process relay started again on the same port and the same key store: `{url}`. */
    'proc-relay/restart': async () => processRelay.restart(),
  };

  /** Pages for `/__e2e/page/<name>`, each with the Content-Security-Policy it runs under. */
  const pages: Record<string, (query: URLSearchParams) => Promise<E2ePage>> = {
    /**
     * A merchant's page with the embed as the docs write it: the built bundle from the relay, with its integrity, and
     * the hints (`?hints=no-crossorigin`: the preload without `crossorigin`, as a page may get it wrong). `?lang=ru`:
     * a page in Russian; `?files=tampered`: the bundle (intact) from a server that alters every file the bundle loads
     * later, as a compromised server or cache would; `?files=slow`: from one that holds the submit chain's module back
     * for `SLOW_LATE_MS`, and `?files=slow-return` the return's.
     */
    embed: async (q) => {
      // `?relay=foreign`: the bundle and /config of a relay whose ALLOWED_ORIGINS does not name this page.
      const from = q.get('relay') === 'foreign' ? foreignRelay : relay;
      const bundles = (await (await fetch(`${from.url}/bundles.json`)).json()) as Record<string, EmbedBundle>;
      const bundle = bundles['billing-pay.js'];
      if (!bundle) throw new Error('the relay serves no billing-pay.js: run `npm run build` first');
      const proxies: Record<string, string> = {
        tampered: tampering.url,
        slow: slow.url,
        'slow-return': slowReturn.url,
      };
      const files = proxies[q.get('files') ?? ''] ?? from.url;
      let hints = relayHints(from.url);
      if (q.get('hints') === 'no-crossorigin') hints = hints.replace(/( as="fetch") crossorigin /, '$1 ');
      // `?hook=1`: test/widget/pages/ready-hook.ts before the bundle, which hands the test page the ready event.
      const hook =
        q.get('hook') === '1' ? '<script type="module" src="/test/widget/pages/ready-hook.ts"></script>\n' : '';
      const head = `${hints}\n${hook}${scriptHtml(files, bundle)}`;
      // `?preset=1`: system, amount (in roubles) and agreement set by the page, so that Pay is all the payer does.
      const preset: [string, string][] =
        q.get('preset') === '1'
          ? [
              ['systems', 'A'],
              ['amount', '10'],
              ['currency', 'RUB'],
              ['lookup', '5'],
              ['agreement', 'AG-1001'],
            ]
          : [];
      const element = elementHtml('billing-pay', [['relay', from.url], ...preset]);
      // `?trusted-types=lit-html`: the page requires Trusted Types and allows only the policies named.
      const trustedTypes = q.get('trusted-types');
      const lang = q.get('lang') === 'ru' ? 'ru' : 'en';
      return {
        html: `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title>\n${head}\n</head>\n<body>${element}</body></html>\n`,
        csp: [
          `default-src 'none'; script-src ${hook ? "'self' " : ''}${files}; connect-src ${from.url} ${files}; style-src 'self'; base-uri 'none'`,
          ...(trustedTypes === null ? [] : [`require-trusted-types-for 'script'; trusted-types ${trustedTypes}`]),
        ].join('; '),
      };
    },
    /**
     * A "My account" page with `<billing-payment-methods>` for `?session=` (the account bundle from the relay), and
     * test/widget/pages/frame-reporter.ts, which tells a framing test page where the element's parts are.
     * `?frame-origins=`: the element's attribute.
     */
    account: async (q) => {
      const bundles = (await (await fetch(`${relay.url}/bundles.json`)).json()) as Record<string, EmbedBundle>;
      const bundle = bundles['billing-pay-account.js'];
      if (!bundle) throw new Error('the relay serves no billing-pay-account.js: run `npm run build` first');
      const element = elementHtml('billing-payment-methods', [
        ['lang', 'en'],
        ['relay', relay.url],
        ['session', q.get('session') ?? ''],
        ...(q.has('frame-origins') ? [['frame-origins', q.get('frame-origins')!] as [string, string]] : []),
      ]);
      const reporter = '<script type="module" src="/test/widget/pages/frame-reporter.ts"></script>';
      return {
        html: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Account</title>\n${scriptHtml(relay.url, bundle)}\n${reporter}\n</head>\n<body>${element}</body></html>\n`,
        csp: `default-src 'none'; script-src 'self' ${relay.url}; connect-src ${relay.url}; style-src 'self'; base-uri 'none'`,
      };
    },
    /**
     * A merchant's page with `<billing-pay>` (the built bundle from the relay) filled in by its attributes — system C,
     * `?amount=`, agreement AG-1001 — so that Pay is the payer's one click; and frame-reporter.ts, as on `account`.
     * `?frame-origins=`: the element's attribute.
     */
    pay: async (q) => {
      // `?relay=`: a relay of `merchant-relay` (say, with its duplicate window on) in place of the runner's.
      const from = merchantRelays.find((r) => r.url === q.get('relay')) ?? relay;
      const bundles = (await (await fetch(`${from.url}/bundles.json`)).json()) as Record<string, EmbedBundle>;
      const bundle = bundles['billing-pay.js'];
      if (!bundle) throw new Error('the relay serves no billing-pay.js: run `npm run build` first');
      const element = elementHtml('billing-pay', [
        ['lang', 'en'],
        ['relay', from.url],
        ['systems', 'C'],
        ['amount', q.get('amount') ?? '10.00'],
        ['lookup', '5'],
        ['agreement', 'AG-1001'],
        ...(q.has('frame-origins') ? [['frame-origins', q.get('frame-origins')!] as [string, string]] : []),
      ]);
      const reporter = '<script type="module" src="/test/widget/pages/frame-reporter.ts"></script>';
      return {
        html: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Shop</title>\n${scriptHtml(from.url, bundle)}\n${reporter}\n</head>\n<body>${element}</body></html>\n`,
        csp: `default-src 'none'; script-src 'self' ${from.url}; connect-src ${from.url}; style-src 'self'; base-uri 'none'`,
      };
    },
  };

  return {
    /** Where the relay and the sandbox listen, for the demo pages (scripts/demo-pages.ts). */
    addresses: { relay: relay.url, sandbox: sandbox.url },
    async handle(path: string, query: URLSearchParams): Promise<string | undefined> {
      const route = routes[path.replace(/^\/__e2e\//, '')];
      return route && JSON.stringify(await route(query));
    },
    async page(path: string, query: URLSearchParams): Promise<E2ePage | undefined> {
      return pages[path.replace(/^\/__e2e\/page\//, '')]?.(query);
    },
    async close() {
      await Promise.all(merchantRelays.map((r) => r.close()));
      await processRelay.close();
      await foreignRelay.close();
      tampering.close();
      slow.close();
      slowReturn.close();
      await relay.close();
      await sandbox.close();
    },
  };
}

/**
 * A server in front of the relay that passes on the page bundles as they are and adds a space before every other
 * file (the texts and modules a bundle loads later): the bundle's pins must refuse them.
 */
/**
 * How long `?files=slow` holds the submit chain's module back (and `slow-return` the return's): a payer's press fits
 * well before it arrives.
 */
export const SLOW_LATE_MS = 1_500;

/**
 * The relay's files through a proxy that alters every file the bundle loads later, or holds a late module back (the
 * submit chain's, or the return's).
 */
async function startFileProxy(relay: string, mode: 'tampered' | 'slow' | 'slow-return') {
  const held = { tampered: null, slow: 'pay', 'slow-return': 'return' }[mode];
  const server = createServer(async (request, response) => {
    if (held && new RegExp(`^/billing-pay-${held}\\.[0-9a-f]{10}\\.js$`).test(request.url ?? ''))
      await new Promise((resolve) => setTimeout(resolve, SLOW_LATE_MS));
    const answer = await fetch(`${relay}${request.url}`, {
      headers: { origin: request.headers.origin ?? '', 'accept-encoding': 'identity' },
    });
    let body = Buffer.from(await answer.arrayBuffer());
    // A leading space: still valid JSON and JavaScript, so only the pin can tell.
    if (mode === 'tampered' && !/^\/billing-pay(-account)?\.[0-9a-f]{10}\.js$/.test(request.url ?? '') && answer.ok) {
      body = Buffer.concat([Buffer.from(' '), body]);
    }
    const headers = Object.fromEntries(
      [...answer.headers].filter(([name]) => !/^(content-length|content-encoding|etag|transfer-encoding)$/.test(name)),
    );
    response.writeHead(answer.status, { ...headers, 'content-length': body.length });
    response.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

interface EmbedBundle {
  file: string;
  integrity: string;
}

export interface E2ePage {
  html: string;
  /** The page's own Content-Security-Policy (the runner's strict one would refuse the relay's script). */
  csp: string;
}

/** A process relay's billing deadline: short, so that a key held by a killed relay turns unknown within seconds. */
const PROCESS_RELAY_BILLING_TIMEOUT_MS = 300;
/** How long a process relay may take to start (tsx compiles it first: about 2 s here). */
const PROCESS_RELAY_START_MS = 20_000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The relay as a merchant runs it: `src/relay/bin.ts` in a process of its own (on this Node, which has node:sqlite),
 * configured by its environment alone, keys in a SQLite file. It is killed with a real SIGKILL and started again on the
 * same port and the same file. It runs in the key store's directory, so that no `.env` of the working tree (which
 * server.ts reads) changes its configuration.
 */
class ProcessRelay {
  #child?: ChildProcess;
  #exited?: Promise<unknown>;
  #dir?: string;
  #port?: number;
  #output = '';

  constructor(
    private readonly sandbox: Sandbox,
    private readonly pageOrigins: string[],
  ) {}

  /** The key's lease of this relay (src/relay/app.ts): a key held past it without an answer is unknown. */
  readonly leaseMs = longestAuthorizedCallMs(PROCESS_RELAY_BILLING_TIMEOUT_MS) + 5_000;

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  async start(): Promise<{ url: string; leaseMs: number }> {
    await this.close();
    this.#dir = await mkdtemp(join(tmpdir(), 'billing-pay-e2e-relay-'));
    this.#port = await freePort();
    await this.#spawn();
    return { url: this.url, leaseMs: this.leaseMs };
  }

  async restart(): Promise<{ url: string }> {
    if (!this.#dir) throw new Error('proc-relay/restart: no relay was started');
    await this.kill();
    await this.#spawn();
    return { url: this.url };
  }

  /** SIGKILL, and its exit waited for; answers when it was sent (epoch ms). */
  async kill(): Promise<number> {
    const killedAt = Date.now();
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await this.#exited;
    return killedAt;
  }

  async close(): Promise<void> {
    await this.kill();
    if (this.#dir) await rm(this.#dir, { recursive: true, force: true });
    this.#child = this.#exited = this.#dir = this.#port = undefined;
  }

  async #spawn(): Promise<void> {
    this.#output = '';
    // tsx by its address: the relay runs in its own directory, where `--import tsx` would not be found.
    const tsx = import.meta.resolve('tsx');
    const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/relay/bin.ts')], {
      cwd: this.#dir,
      env: {
        PATH: process.env.PATH ?? '',
        ...this.sandbox.relayEnv(),
        ALLOWED_ORIGINS: this.pageOrigins.join(','),
        PORT: String(this.#port),
        STORE_FILE: join(this.#dir!, 'keys.db'),
        BILLING_TIMEOUT_MS: String(PROCESS_RELAY_BILLING_TIMEOUT_MS),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_IP: '10000/60',
        RATE_LIMIT_AGREEMENT: '10000/60',
        RATE_LIMIT_NOT_FOUND: '10000/60',
        DUPLICATE_WINDOW_SECONDS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    this.#exited = once(child, 'exit').catch(() => undefined);
    // The runner's own exit (a crash, Ctrl-C) ends it too.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    child.once('error', (error) => (this.#output += `\n${error.message}`));
    const keep = (chunk: Buffer) => (this.#output = (this.#output + chunk).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    // Its "relay listening" line is logged at `info`, which `warn` leaves out: it listens once `/healthz` answers.
    const listening = () =>
      fetch(`${this.url}/healthz`).then(
        async (res) => (await res.arrayBuffer(), res.ok),
        () => false,
      );
    const started = Date.now();
    while (!(await listening())) {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) {
        throw new Error(`the process relay exited (${child.exitCode ?? child.signalCode}):\n${this.#output}`);
      }
      if (Date.now() - started > PROCESS_RELAY_START_MS) {
        await this.kill();
        throw new Error(`the process relay did not start within ${PROCESS_RELAY_START_MS} ms:\n${this.#output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** `POST /payments` requests a relay has answered so far, whatever their status (`relay_http_requests_total`). */
async function paymentRequests(metricsUrl: string): Promise<number> {
  const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
  return metrics
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('relay_http_requests_total{') && l.includes('route="/payments"') && l.includes('method="POST"'),
    )
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

/** Resolves as soon as more than `count` payments have reached the billing; fails after 10 s (the hold is cleared). */
async function billedMoreThan(sandbox: Sandbox, count: number): Promise<void> {
  const until = Date.now() + 10_000;
  while (sandbox.counts.epsPayments <= count) {
    if (Date.now() > until) {
      delete sandbox.faults.epsPayments;
      throw new Error(`no payment reached the billing (still ${sandbox.counts.epsPayments})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
