/**
 * The project as a merchant gets it, in a temporary copy of this checkout (its files as git sees them):
 * - the production recipe: `npm ci && npm run build && npm prune --omit=dev`, then `npm run sandbox` and `npm run relay`
 *   (configured by `.env`, one variable overridden by the environment) take a payment through to the sandbox's page;
 * - the widget package: `npm pack`, installed into a fresh project: its dependency list and size, every documented
 *   entry point, a session signed with `billing-pay/relay/session`, a type-checked file importing them all,
 *   `.env.example`, and `npx billing-pay-relay` (`--help`, `init`, the relay) running from it with no server package
 *   installed.
 * Installs reuse the npm cache (`--prefer-offline`); this file takes about 2 minutes on 2 busy cores, most of it
 * `npm ci` and `npm run build`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { VARIABLES } from '../../src/relay/config/variables.js';
import { envExample } from '../../src/relay/config/env-example.js';
import { verifyClientSession } from '../../src/relay/session/client-session.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { SHOP, paymentA } from '../relay/harness.js';
import { isSupportedNode, supportedNode } from '../../scripts/with-node.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
/** What a production install or the widget package must never bring. */
const SERVER_PACKAGES = [
  'hono',
  '@hono/node-server',
  'pino',
  'redis',
  '@redis/client',
  'undici',
  'prom-client',
  'rate-limiter-flexible',
];
const ENTRY_POINTS = [
  'billing-pay',
  'billing-pay/payment-methods',
  'billing-pay/react',
  'billing-pay/vue',
  'billing-pay/bundle',
  'billing-pay/bundle/account',
  'billing-pay/relay/session',
  'billing-pay/custom-elements.json',
];
/** Every event detail type events.ts declares, each to be imported by name from its element's entry and from react. */
const DETAILS = [
  ...readFileSync(join(ROOT, 'src/widget/events.ts'), 'utf8').matchAll(/^export (?:interface|type) (\w+Detail)\b/gm),
].map((m) => m[1]!);
const METHODS_DETAILS = DETAILS.filter((name) => name.startsWith('BillingPaymentMethods'));
const PAY_DETAILS = DETAILS.filter((name) => !METHODS_DETAILS.includes(name));
const SESSION_SECRET = 'package-test-session-secret-0123456789abcdef';
const ENV_SECRET = 'dotenv-secret-that-must-stay-local-5e1f';

let work: string;
let app: string;
/** What `npm ci` of the checkout warned. */
let ciWarnings: string;

/** Runs npm; answers what it wrote to stderr (its warnings, at npm's default log level). */
async function npm(cwd: string, args: string[]): Promise<string> {
  const started = Date.now();
  const { stderr } = await run('npm', args, {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Date.now() - started;
  console.log(`  npm ${args.filter((a) => !NPM_FLAGS.includes(a)).join(' ')}: ${(ms / 1000).toFixed(1)} s`);
  return stderr;
}

/** A long-running command; its output is collected, and the whole process group is stopped by `stop`. */
function start(cwd: string, command: string, args: string[], env: Record<string, string>) {
  let output = '';
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return {
    output: () => output,
    async waitFor(pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> {
      const until = Date.now() + ms;
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > until)
          throw new Error(`${command} ${args.join(' ')}: no ${pattern} in:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const dirBytes = (dir: string) => filesUnder(dir).reduce((total, file) => total + statSync(file).size, 0);

const sri = (bytes: Uint8Array) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe('the package as a merchant installs it', { timeout: 420_000 }, () => {
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'billing-pay-package-'));
    app = join(work, 'billing-pay');
    // The checkout's files as git sees them (tracked, and new ones not ignored): what a fresh clone would hold.
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const file of stdout.split('\0').filter(Boolean)) {
      if (!existsSync(join(ROOT, file))) continue; // deleted, not yet committed
      mkdirSync(join(app, file, '..'), { recursive: true });
      cpSync(join(ROOT, file), join(app, file));
    }
    // A filled-in .env before the build: neither the built relay nor the package may carry it.
    writeFileSync(join(app, '.env'), `BILLING_PASSWORD=${ENV_SECRET}\nSESSION_SECRET=${ENV_SECRET}\n`);
    // At npm's default log level: its warnings are what a merchant sees.
    ciWarnings = await npm(app, ['ci', ...NPM_FLAGS.filter((flag) => !flag.startsWith('--loglevel'))]);
    await npm(app, ['run', 'build', '--silent']);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it(`npm ci on Node ${process.versions.node} warns of no unsupported engine`, () => {
    assert.doesNotMatch(ciWarnings, /EBADENGINE/, ciWarnings);
  });

  it('npm ci finds no install script that allowScripts has not judged', () => {
    assert.doesNotMatch(ciWarnings, /install-scripts/, ciWarnings);
  });

  describe('the widget package', () => {
    let consumer: string;
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startSandbox({ port: 0 });
      await npm(app, ['pack', '--pack-destination', work, '--silent']);
      consumer = join(work, 'shop');
      mkdirSync(consumer);
      writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
      const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
      await npm(consumer, ['install', join(work, tarball), ...NPM_FLAGS]);
    });
    after(() => sandbox?.close());

    it('installs only what the browser and the session signer need, and says how much', () => {
      const lock = JSON.parse(readFileSync(join(consumer, 'node_modules/.package-lock.json'), 'utf8')) as {
        packages: Record<string, { version: string }>;
      };
      const installed = Object.keys(lock.packages)
        .map((path) => path.replace(/^.*node_modules\//, ''))
        .sort();
      const own = dirBytes(join(consumer, 'node_modules/billing-pay'));
      const all = dirBytes(join(consumer, 'node_modules'));
      console.log(`  installed: ${installed.join(', ')}`);
      console.log(
        `  node_modules: ${(all / 1e6).toFixed(2)} MB (billing-pay itself ${(own / 1e6).toFixed(2)} MB, of it the relay ${(statSync(join(consumer, 'node_modules/billing-pay/dist/relay/server.js')).size / 1e6).toFixed(2)} MB)`,
      );
      for (const name of SERVER_PACKAGES) assert.ok(!installed.includes(name), `${name} is installed`);
      // @types/react (and its csstype) is a peer dependency of @lit/react, which npm installs with it.
      const allowed =
        /^(billing-pay|lit|lit-html|lit-element|@lit\/.+|@lit-labs\/.+|@types\/trusted-types|zod|jose|@types\/react|csstype)$/;
      assert.deepEqual(
        installed.filter((name) => !allowed.test(name)),
        [],
        'only lit, @lit/react, zod and jose with their own dependencies',
      );
      assert.ok(all < 15e6, `${all} bytes`);
      assert.ok(
        !existsSync(join(consumer, 'node_modules/billing-pay/.env')) &&
          !existsSync(join(consumer, 'node_modules/billing-pay/src')),
        'no .env, no sources',
      );
      for (const file of filesUnder(join(consumer, 'node_modules/billing-pay')))
        assert.ok(!readFileSync(file, 'utf8').includes(ENV_SECRET), `${file} holds .env's secret`);
    });

    it('resolves every documented entry point, and signs a session the relay accepts', async () => {
      const script = `
        const resolved = ${JSON.stringify(ENTRY_POINTS)}.map((id) => import.meta.resolve(id));
        await import('billing-pay'); await import('billing-pay/payment-methods');
        const { createClientSession } = await import('billing-pay/relay/session');
        console.log(JSON.stringify({ resolved, session: await createClientSession({ agreementId: 1001, ttlSeconds: 60 }, ${JSON.stringify(SESSION_SECRET)}) }));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer });
      const { resolved, session } = JSON.parse(stdout) as { resolved: string[]; session: string };
      for (const url of resolved) {
        assert.ok(url.includes('/node_modules/billing-pay/'), url);
        assert.ok(existsSync(fileURLToPath(url)), url);
      }
      assert.deepEqual(await verifyClientSession(`Bearer ${session}`, SESSION_SECRET), { agreementId: 1001 });
    });

    it('type-checks a file that imports every entry point, and every .d.ts of the package', async () => {
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        // Every .d.ts of the package, not only those shop.ts reaches: none may need a package that is not installed.
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            lib: ['ES2022', 'DOM'],
            types: [],
          },
          include: ['shop.ts', 'node_modules/billing-pay/dist/lib/**/*.d.ts'],
          // It needs vue, not installed here: the Vue app of frameworks.test.ts checks it.
          exclude: ['node_modules/billing-pay/dist/lib/widget/vue.d.ts'],
        }),
      );
      writeFileSync(
        join(consumer, 'shop.ts'),
        `import 'billing-pay';
import { BillingPay } from 'billing-pay';
import { BillingPaymentMethods } from 'billing-pay/payment-methods';
import { BillingPay as BillingPayReact } from 'billing-pay/react';
import 'billing-pay/bundle';
import 'billing-pay/bundle/account';
import { createClientSession } from 'billing-pay/relay/session';
import type * as Pay from 'billing-pay';
import type * as Methods from 'billing-pay/payment-methods';
import type * as ReactEntry from 'billing-pay/react';
const pay: BillingPay = document.createElement('billing-pay');
pay.addEventListener('billing-pay-redirect', (e) => console.log(e.detail.url));
const methods: BillingPaymentMethods | null = document.querySelector('billing-payment-methods');
const session: Promise<string> = createClientSession({ agreementId: 1, ttlSeconds: 60 }, 'x'.repeat(32));
export { pay, methods, session, BillingPayReact };
export type Details = [${[...PAY_DETAILS.map((name) => `Pay.${name}`), ...METHODS_DETAILS.map((name) => `Methods.${name}`), ...DETAILS.map((name) => `ReactEntry.${name}`)].join(', ')}];
`,
      );
      await assert.doesNotReject(
        run(process.execPath, [TSC, '-p', consumer], { cwd: consumer }).catch((error: { stdout?: string }) => {
          throw new Error(`tsc: ${error.stdout}`);
        }),
      );
    });

    it('ships .env.example; `npx billing-pay-relay --help` lists every variable, `init` writes a starter .env', async () => {
      assert.equal(readFileSync(join(consumer, 'node_modules/billing-pay/.env.example'), 'utf8'), envExample());
      const npx = (args: string[], cwd: string) =>
        run('npx', ['--no-install', 'billing-pay-relay', ...args], {
          cwd,
          env: { ...process.env, npm_config_update_notifier: 'false' },
        });
      const { stdout: help } = await npx(['--help'], consumer);
      for (const name of Object.keys(VARIABLES)) assert.match(help, new RegExp(`^  ${name}\\b`, 'm'));
      const config = join(consumer, 'relay-config');
      mkdirSync(config);
      await npx(['init'], config);
      assert.match(readFileSync(join(config, '.env'), 'utf8'), /^SESSION_SECRET=[\w-]{43,}$/m);
    });

    it('runs `npx billing-pay-relay` from the package, with no server package installed, serving the widget', async () => {
      const relay = start(consumer, 'npx', ['--no-install', 'billing-pay-relay'], {
        ...sandbox.relayEnv(),
        ALLOWED_ORIGINS: SHOP,
        PORT: '0',
      });
      try {
        const [, url] = await relay.waitFor(/"url":"(http:[^"]+)"/);
        assert.equal((await fetch(`${url}/healthz`)).status, 200);
        const manifest = (await (await fetch(`${url}/bundles.json`)).json()) as Record<
          string,
          { file: string; integrity: string }
        >;
        const bundle = await fetch(`${url}/${manifest['billing-pay.js']!.file}`, {
          headers: { 'accept-encoding': 'br' },
        });
        assert.equal(bundle.headers.get('content-encoding'), 'br');
        assert.equal(sri(new Uint8Array(await bundle.arrayBuffer())), manifest['billing-pay.js']!.integrity);
      } finally {
        relay.stop();
      }
    });
  });

  describe('the production recipe: npm prune --omit=dev, npm run sandbox, npm run relay', () => {
    const stops: (() => void)[] = [];
    after(() => stops.forEach((stop) => stop()));
    let baseUrl = '';

    it(`takes a payment through the sandbox on Node ${process.versions.node} with dev dependencies gone, .env read and the environment winning`, async () => {
      assert.ok(
        isSupportedNode(process.version),
        'the supported Node runs this (npm run test:package: scripts/with-node.ts)',
      );
      await npm(app, ['prune', '--omit=dev', ...NPM_FLAGS]);
      for (const name of ['tsx', 'vite', 'typescript', ...SERVER_PACKAGES])
        assert.ok(!existsSync(join(app, 'node_modules', name)), `${name} is still installed`);

      const sandbox = start(app, 'npm', ['run', 'sandbox', '--silent'], { SANDBOX_PORT: '0' });
      stops.push(() => sandbox.stop());
      [, baseUrl = ''] = await sandbox.waitFor(/API base_url:\s+(\S+)/);
      writeFileSync(
        join(app, '.env'),
        [
          `BILLING_BASE_URL=${baseUrl}`,
          'BILLING_USERNAME=demo',
          'BILLING_PASSWORD=demo-secret',
          'EPS_UUID_A=sandbox-eps-a',
          `ALLOWED_ORIGINS=${SHOP}`,
          'MAX_AMOUNT=500.00',
          'PORT=0',
          'METRICS_PORT=0',
          '',
        ].join('\n'),
      );
      const relay = start(app, 'npm', ['run', 'relay', '--silent'], { MAX_AMOUNT: '9000.00' });
      stops.push(() => relay.stop());
      const [, url] = await relay.waitFor(/"url":"(http:[^"]+)"/);

      const config = (await (await fetch(`${url}/config`)).json()) as { maxAmount: string; systems: { id: string }[] };
      assert.equal(config.maxAmount, '9000.00', 'the environment wins over .env');
      assert.deepEqual(
        config.systems.map((s) => s.id),
        ['A'],
        'the rest comes from .env',
      );

      const res = await fetch(`${url}/payments`, {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': 'production-recipe-1' },
        body: JSON.stringify(paymentA()),
      });
      assert.equal(res.status, 201);
      const { redirect_url: page } = (await res.json()) as { redirect_url: string };
      assert.match(page, /\/pay\/\d+$/);
      const paid = await fetch(page, {
        method: 'POST',
        body: new URLSearchParams({ decision: 'pay' }),
        redirect: 'manual',
      });
      assert.equal(paid.status, 303);
      assert.match(paid.headers.get('location') ?? '', new RegExp(`^${SHOP}/paid\\?payment_id=\\d+&status=succeeded`));
      assert.match(
        await (await fetch(`${(await relay.waitFor(/"metrics":"(http:[^"]+)"/))[1]}`)).text(),
        /relay_http_requests_total\{route="\/payments",method="POST",status="201"\} 1/,
      );
      assert.ok(
        existsSync(join(app, 'billing-pay-relay.db')),
        'its keys are in STORE_FILE, by default in the working directory',
      );
    });

    it('the same built relay takes a payment on Node 22', async () => {
      const node22 = supportedNode(22);
      const relay = start(app, node22, ['dist/relay/server.js'], {
        BILLING_BASE_URL: baseUrl,
        MAX_AMOUNT: '9000.00',
        STORE_FILE: join(work, 'node22.db'),
      });
      stops.push(() => relay.stop());
      const [, url] = await relay.waitFor(/"url":"(http:[^"]+)"/);
      const res = await fetch(`${url}/payments`, {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json', 'idempotency-key': 'production-node-22' },
        body: JSON.stringify(paymentA()),
      });
      assert.equal(res.status, 201);
      const { stdout } = await run(node22, ['--version']);
      assert.match(stdout, /^v22\./);
    });
  });
});
