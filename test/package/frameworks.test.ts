/**
 * The package in the frameworks the docs show, as a merchant's app gets it: `npm pack` of this checkout (after
 * `npm run build`), installed into a fresh Vite app per framework, whose source is the docs' example unchanged (every
 * `tsx` and `vue` block of the README and docs/), type-checked under strict TypeScript (`tsc`, `vue-tsc`) with every
 * library's types checked too, then built by Vite. Each built app is then served by `vite preview`, which passes
 * `/relay` (the examples' relay) on to the package's own relay (`BASE_PATH=/relay`) on the billing sandbox, and
 * Chromium pays in it as a person would; the example's event handler is seen to run. And the package as a whole passes
 * `publint --strict` and `attw --profile esm-only` (it is ESM only). Installs come from the npm cache
 * (`--prefer-offline`), the versions those of this checkout's devDependencies; the two apps are made side by side.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type ConsoleMessage, type Page } from 'puppeteer-core';
import { CHROMIUM } from '../../scripts/chromium.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { fencesOf, type Fence } from '../docs/markdown-examples.js';
import { freePort, startServing, type Running } from './processes.js';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** The docs' blocks in `lang`, each with where it is. */
function blocks(lang: string): (Fence & { file: string })[] {
  return PAGES.flatMap((file) =>
    fencesOf(readFileSync(join(ROOT, file), 'utf8'), file)
      .filter((fence) => fence.lang === lang)
      .map((fence) => ({ ...fence, file })),
  );
}

/** `name@version` as this checkout has it installed: what the npm cache holds. */
const pinned = (name: string) =>
  `${name}@${(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`;

async function run(cwd: string, command: string, args: string[]) {
  const started = Date.now();
  try {
    await exec(command, args, {
      cwd,
      env: { ...process.env, npm_config_update_notifier: 'false' },
      maxBuffer: 1 << 26,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} in ${cwd}:\n${stdout}${stderr}`, { cause: error });
  }
  console.log(
    `  ${cwd === ROOT ? 'billing-pay' : basename(cwd)}: ${basename(command)} ${args[0]}: ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

const bin = (app: string, name: string) => join(app, 'node_modules/.bin', name);

/** Strict, and every library's .d.ts checked: a type the package ships broken fails here. */
const tsconfig = (jsx: string) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      jsx,
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
    },
    include: ['src'],
  });

let work: string;
let tarball: string;
/** Where the relay listens, chosen before the apps are made: their `vite preview` passes `/relay` on to it. */
let relayPort: number;
/** Each app's folder, once it is built, and the port `vite preview` serves it on. */
const apps = {} as Record<'react' | 'vue', { dir?: string; port: number }>;

/** An app's vite.config `server`, as docs/embedding.md says: `vite` and `vite preview` pass `/relay` to the relay. */
const server = () => `{ proxy: { '/relay': 'http://127.0.0.1:${relayPort}' } }`;

/** A fresh Vite app with the package and `packages` installed, and its `files`. */
async function viteApp(name: string, packages: string[], files: Record<string, string>): Promise<string> {
  const app = join(work, name);
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(app, file), text);
  await run(app, 'npm', ['install', tarball, ...packages.map(pinned), ...NPM_FLAGS]);
  return app;
}

describe('the docs’ framework examples in fresh Vite apps, and the package’s shape', { timeout: 300_000 }, () => {
  before(async () => {
    assert.ok(existsSync(join(ROOT, 'dist/lib/widget/vue.d.ts')), 'npm run build first');
    work = mkdtempSync(join(tmpdir(), 'billing-pay-frameworks-'));
    await run(ROOT, 'npm', ['pack', '--pack-destination', work, '--silent']);
    tarball = join(
      work,
      readdirSync(work).find((f) => f.endsWith('.tgz'))!,
    );
    relayPort = await freePort();
    apps.react = { port: await freePort() };
    apps.vue = { port: await freePort() };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('React and Vue: each example type-checks under strict TypeScript and builds', async () => {
    const [react, vue] = [blocks('tsx'), blocks('vue')];
    assert.equal(react.length, 1, 'the React example');
    assert.equal(vue.length, 1, 'the Vue example');
    const html = (entry: string) => `<div id="app"></div><script type="module" src="/src/${entry}"></script>\n`;

    const reactApp = async () => {
      const app = await viteApp(
        'react-app',
        ['react', 'react-dom', '@types/react', '@types/react-dom', 'typescript', 'vite'],
        {
          'tsconfig.json': tsconfig('react-jsx'),
          'index.html': html('main.tsx'),
          'vite.config.ts': `export default { server: ${server()} };\n`,
          'src/Example.tsx': react[0]!.code,
          'src/main.tsx': `import { createRoot } from 'react-dom/client';\nimport * as example from './Example.js';\nconst [Example] = Object.values(example);\ncreateRoot(document.getElementById('app')!).render(<Example />);\n`,
        },
      );
      await run(app, bin(app, 'tsc'), ['-p', '.']);
      await run(app, bin(app, 'vite'), ['build', '--logLevel', 'warn']);
      apps.react.dir = app;
    };
    const vueApp = async () => {
      const app = await viteApp('vue-app', ['vue', 'vue-tsc', 'typescript', 'vite', '@vitejs/plugin-vue'], {
        'tsconfig.json': tsconfig('preserve'),
        'index.html': html('main.ts'),
        // As the docs say: the tags are custom elements.
        'vite.config.ts': `import vue from '@vitejs/plugin-vue';\nexport default { plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag: string) => tag.startsWith('billing-') } } })], server: ${server()} };\n`,
        'src/Example.vue': vue[0]!.code,
        'src/main.ts': `import { createApp } from 'vue';\nimport Example from './Example.vue';\ncreateApp(Example).mount('#app');\n`,
      });
      await run(app, bin(app, 'vue-tsc'), ['-p', '.']);
      await run(app, bin(app, 'vite'), ['build', '--logLevel', 'warn']);
      apps.vue.dir = app;
    };
    await Promise.all([reactApp(), vueApp()]);
  });

  it('React and Vue: each built app, served with the relay at /relay, pays in Chromium as a person would', async () => {
    assert.ok(apps.react.dir && apps.vue.dir, 'the apps were built');
    const started = Date.now();
    const origin = (port: number) => `http://127.0.0.1:${port}`;
    const running: Running[] = [];
    let sandbox: Sandbox | undefined;
    let browser: Browser | undefined;
    try {
      sandbox = await startSandbox({ port: 0 });
      // The relay the tarball brings (its `billing-pay-relay` bin), run where no .env is.
      running.push(
        await startServing(process.execPath, [join(apps.react.dir, 'node_modules/billing-pay/dist/relay/server.js')], {
          cwd: work,
          env: {
            ...sandbox.relayEnv(),
            ALLOWED_ORIGINS: [apps.react.port, apps.vue.port].map(origin).join(','),
            BASE_PATH: '/relay',
            PORT: String(relayPort),
            STORE_FILE: ':memory:',
            LOG_LEVEL: 'warn',
            // Both apps pay agreement AG-1001 100.00 within seconds: not the payer's slip the relay asks about.
            DUPLICATE_WINDOW_SECONDS: '0',
          },
          url: `${origin(relayPort)}/relay/healthz`,
        }),
      );
      for (const { dir, port } of [apps.react, apps.vue]) {
        const args = ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'];
        running.push(await startServing(bin(dir!, 'vite'), args, { cwd: dir!, env: {}, url: `${origin(port)}/` }));
      }
      browser = await puppeteer.launch({ ...CHROMIUM, headless: true });
      const up = Date.now();
      const payPage = new RegExp(`^${sandbox.url}/pay/\\d+$`);

      // React: `texts` names the button; `onBillingPayRedirect` logs where the payer goes.
      const react = await payAsAPerson(browser, origin(apps.react.port), {
        amountLabel: 'Amount',
        amount: '100.00',
        pay: 'Pay now',
      });
      assert.match(react.landed, payPage);
      assert.deepEqual(react.logged, [{ type: 'log', values: ['to', react.landed] }], 'what the React app logged');

      // Vue: German texts from `:texts.prop`; `@billing-pay-error` warns with the detail of the unknown agreement.
      const vue = await payAsAPerson(browser, origin(apps.vue.port), {
        amountLabel: 'Betrag',
        amount: '100,00',
        pay: 'Bezahlen',
      });
      assert.match(vue.landed, payPage);
      assert.equal(vue.logged.length, 1, `one warning from the Vue app, which logged ${JSON.stringify(vue.logged)}`);
      const [warning] = vue.logged;
      assert.equal(warning!.type, 'warn');
      assert.partialDeepStrictEqual(warning!.values, [
        { code: 'agreement_not_found', fields: { agreement_param_value: 'No agreement with this number.' } },
      ]);
      const seconds = (from: number) => `${((Date.now() - from) / 1000).toFixed(1)} s`;
      console.log(
        `  both apps paid: ${seconds(started)}, of it ${seconds(up)} in Chromium (the rest: sandbox, relay, 2 × vite preview)`,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${running.map((r) => r.output()).join('\n')}`, { cause: error });
    } finally {
      await browser?.close();
      await Promise.all(running.map((r) => r.stop()));
      await sandbox?.close();
    }
  });

  it('passes publint --strict and arethetypeswrong as an ESM-only package', async () => {
    await run(ROOT, bin(ROOT, 'publint'), ['--strict']);
    await run(ROOT, bin(ROOT, 'attw'), [tarball, '--profile', 'esm-only']);
  });
});

interface Logged {
  type: string;
  values: unknown[];
}

/**
 * Opens the app and pays as a person would: picks system A, types the amount (as written in the app's language) and a
 * wrong agreement number, presses Pay and sees the field marked, types the right number over it and presses Pay again.
 * Answers the page it lands on and what the app logged (`console.log`/`warn`/`info`, the arguments as values).
 */
async function payAsAPerson(
  browser: Browser,
  origin: string,
  words: { amountLabel: string; amount: string; pay: string },
): Promise<{ landed: string; logged: Logged[] }> {
  const page = await browser.newPage();
  const failures: string[] = [];
  const logged: Promise<Logged>[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  page.on('console', (m: ConsoleMessage) => {
    if (['log', 'warn', 'info'].includes(m.type()))
      logged.push(Promise.all(m.args().map((a) => a.jsonValue())).then((values) => ({ type: m.type(), values })));
  });
  try {
    await page.goto(`${origin}/`);
    await page
      .waitForFunction(() => document.querySelector('billing-pay')?.getAttribute('state') === 'ready', {
        timeout: 15_000,
      })
      .catch(() => assert.fail(`the widget at ${origin} did not get ready: ${failures.join(' | ')}`));
    await page.locator('::-p-aria([name="System A"][role="radio"])').click();
    await typeOver(page, words.amountLabel, words.amount);
    await typeOver(page, 'Agreement number', 'AG-9999');
    // The button says the amount too ("Pay now 100.00 ₽"): the person reads the example's word and presses it.
    const pay = page.locator('billing-pay >>> button[type="submit"]');
    const label = await page.$eval('billing-pay >>> button[type="submit"]', (b) => b.textContent!.trim());
    assert.ok(label.startsWith(`${words.pay} `), `the button says "${label}"`);
    await pay.click();
    await page.waitForFunction(
      () => document.querySelector('billing-pay')?.shadowRoot?.querySelector('input[aria-invalid="true"]'),
      { timeout: 15_000 },
    );
    await typeOver(page, 'Agreement number', 'AG-1001');
    const [landed] = await Promise.all([page.waitForNavigation({ timeout: 15_000 }), pay.click()]);
    assert.equal(landed?.status(), 200);
    assert.deepEqual(failures, []);
    return { landed: page.url(), logged: await Promise.all(logged) };
  } finally {
    await page.close();
  }
}

/** Clicks the text field labelled `name`, selects what it holds and types `text` over it, key by key. */
async function typeOver(page: Page, name: string, text: string): Promise<void> {
  await page.locator(`::-p-aria([name="${name}"][role="textbox"])`).click();
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.type(text);
}
