// `npm run test:browser`: the widget's tests in Chromium, Firefox ESR and WebKitGTK, one engine after the other
// (test/widget/engines.ts; `ENGINES=webkit` runs one), TypeScript compiled by esbuild with tsconfig.json, so Lit's
// legacy decorators (`experimentalDecorators`, `useDefineForClassFields: false`) apply.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import * as esbuild from 'esbuild';
import { defaultReporter } from '@web/test-runner';
import { chosenEngines, engineTimeLimit, freePort, launcherFor } from './test/widget/engines.ts';
import { inputCommands } from './test/widget/input-commands.ts';
import { tabCommands } from './test/widget/tab-commands.ts';
import { browserConsole } from './test/widget/browser-console.ts';

/** The pages served with a Content-Security-Policy of their own (what they test), not the runner's (`strictCsp`). */
const OWN_POLICY = /^\/demo\/playground\.html$|^\/__e2e\/page\/\d+\.html$/;

/**
 * `/dist/NAME.<hash>.js|json`: the built file under the name bundles.json gives it, as the relay serves it (a built
 * bundle loads its later files by those names, next to itself).
 */
function hashedDist() {
  return {
    name: 'billing-pay-hashed-dist',
    async serve(context) {
      const hashed = /^\/dist\/([\w-]+)\.[0-9a-f]{10}\.(js|json)$/.exec(context.path);
      if (!hashed) return undefined;
      const dist = new URL('./dist/', import.meta.url);
      const manifest = JSON.parse(await readFile(new URL('bundles.json', dist), 'utf8'));
      const name = `${hashed[1]}.${hashed[2]}`;
      if (`/dist/${manifest[name]?.file}` !== context.path) return undefined;
      return { body: await readFile(new URL(name, dist), 'utf8'), type: hashed[2] };
    },
  };
}

/**
 * Starts the real relay and billing sandbox beside the test server, for the end-to-end tests (`test/widget/e2e*`),
 * and answers their `/__e2e/*` questions. The runner runs under tsx (see `npm run test:browser`) to load it.
 * Also serves the playground as `npm start` does (with this relay's and sandbox's addresses), and the pages a test
 * makes (`executeServerCommand('e2e-page', {html})` answers the path of a page with that HTML).
 */
function e2eStack() {
  let stack;
  const pages = [];
  return {
    name: 'billing-pay-e2e-stack',
    async serverStart({ config }) {
      const { startE2eStack } = await import('./test/widget/e2e-stack.ts');
      stack = await startE2eStack([`http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`]);
    },
    executeCommand({ command, payload }) {
      if (command !== 'e2e-page') return undefined;
      pages.push(payload.html);
      return `/__e2e/page/${pages.length}.html`;
    },
    async serve(context) {
      if (context.path === '/demo/playground.html' || context.path === '/demo/playground-options.json') {
        const { demoPage, playgroundOptions } = await import('./scripts/demo-pages.ts');
        return context.path.endsWith('.json')
          ? { body: JSON.stringify(await playgroundOptions()), type: 'json' }
          : { body: await demoPage('playground.html', stack.addresses), type: 'html' };
      }
      const page = /^\/__e2e\/page\/(\d+)\.html$/.exec(context.path);
      if (page) return pages[page[1] - 1] === undefined ? undefined : { body: pages[page[1] - 1], type: 'html' };
      if (context.path.startsWith('/__e2e/page/')) {
        const named = await stack.page(context.path, new URLSearchParams(context.querystring));
        return named && { body: named.html, type: 'html', headers: { 'Content-Security-Policy': named.csp } };
      }
      if (!context.path.startsWith('/__e2e/')) return undefined;
      const body = await stack.handle(context.path, new URLSearchParams(context.querystring));
      return body === undefined ? undefined : { body, type: 'json' };
    },
    async serverStop() {
      await stack?.close();
    },
  };
}

/**
 * React 19 ships CommonJS only, which a browser cannot import. For test/widget/react.test.ts, `react`, `react-dom` and
 * `react-dom/client` are served from one ES module that esbuild bundles (so there is one React), each with the named
 * exports that Node finds on it.
 */
function reactAsEsm() {
  const ids = ['react', 'react-dom', 'react-dom/client'];
  // The export names, read in a Node of their own: React's development build patches `console` as it loads.
  const exportsOf = (id) =>
    JSON.parse(
      execFileSync(process.execPath, ['-p', `JSON.stringify(Object.keys(require(${JSON.stringify(id)})))`], {
        encoding: 'utf8',
      }),
    );
  const bundlePath = '/__react/bundle.js';
  let bundle;
  const build = async () => {
    const entries = ids.map((id) => `${JSON.stringify(id)}: require(${JSON.stringify(id)})`).join(', ');
    const result = await esbuild.build({
      stdin: { contents: `module.exports = { ${entries} };`, resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
      bundle: true,
      format: 'esm',
      write: false,
      define: { 'process.env.NODE_ENV': '"development"' },
    });
    return result.outputFiles[0].text;
  };
  return {
    name: 'billing-pay-react-esm',
    resolveImport({ source }) {
      return ids.includes(source) ? `/__react/${source}.js` : undefined;
    },
    async serve(context) {
      if (context.path === bundlePath) return { body: (bundle ??= await build()), type: 'js' };
      const id = /^\/__react\/(.+)\.js$/.exec(context.path)?.[1];
      if (!ids.includes(id)) return undefined;
      const names = exportsOf(id).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      return {
        body: `import all from '${bundlePath}';\nconst m = all[${JSON.stringify(id)}];\nexport default m;\nexport const { ${names.join(', ')} } = m;\n`,
        type: 'js',
      };
    },
  };
}

/**
 * Every test page runs under a strict Content-Security-Policy, as a merchant's page may (issue 5): no inline script or
 * style, no `eval`. The runner's own two inline scripts (its config and its console capture) are allowed by their
 * SHA-256 hashes, computed from the page as served, so nothing else inline can run. test/widget/csp.test.ts checks that
 * the policy is in force and that the widget causes no violation.
 */
function strictCsp() {
  return async (context, next) => {
    await next();
    if (!context.response.is('html') || typeof context.body !== 'string' || OWN_POLICY.test(context.path)) return;
    // A page of the end-to-end stack (`/__e2e/page/<name>`) comes with a policy of its own.
    if (context.response.get('Content-Security-Policy')) return;
    const hashes = [...context.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
    );
    context.set(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        `script-src 'self' ${hashes.join(' ')}`,
        "style-src 'self'",
        "img-src 'self' data:",
        // The end-to-end tests reach the real relay, started on a free port of this machine.
        "connect-src 'self' http://127.0.0.1:* http://localhost:*",
        // test/widget/framing.test.ts frames this server's pages under its other name.
        "frame-src 'self' http://127.0.0.1:* http://localhost:*",
        "object-src 'none'",
        "base-uri 'none'",
      ].join('; '),
    );
  };
}

export default {
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  // Chosen by the OS, not scanned from 8000 up: other test runs on this machine may be scanning at the same moment.
  port: await freePort(),
  middleware: [strictCsp()],
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 5000 } },
  plugins: [
    hashedDist(),
    e2eStack(),
    reactAsEsm(),
    inputCommands(),
    tabCommands(),
    browserConsole(),
    esbuildPlugin({ ts: true, tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
  ],
  browsers: chosenEngines().map(launcherFor),
  reporters: [defaultReporter(), engineTimeLimit()],
};
