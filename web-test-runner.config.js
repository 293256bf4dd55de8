// `npm run test:browser`: the widget's tests in Debian's Chromium (headless), TypeScript compiled by esbuild with
// tsconfig.json, so Lit's legacy decorators (`experimentalDecorators`, `useDefineForClassFields: false`) apply.
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

/**
 * Starts the real relay and billing sandbox beside the test server, for the end-to-end tests (`test/widget/e2e*`),
 * and answers their `/__e2e/*` questions. The runner runs under tsx (see `npm run test:browser`) to load it.
 */
function e2eStack() {
  let stack;
  return {
    name: 'billing-pay-e2e-stack',
    async serverStart({ config }) {
      const { startE2eStack } = await import('./test/widget/e2e-stack.ts');
      stack = await startE2eStack([`http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`]);
    },
    async serve(context) {
      if (!context.path.startsWith('/__e2e/')) return undefined;
      const body = await stack.handle(context.path, new URLSearchParams(context.querystring));
      return body === undefined ? undefined : { body, type: 'json' };
    },
    async serverStop() {
      await stack?.close();
    },
  };
}

export default {
  files: ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 5000 } },
  plugins: [e2eStack(), esbuildPlugin({ ts: true, tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--disable-sync',
        ],
      },
    }),
  ],
};
