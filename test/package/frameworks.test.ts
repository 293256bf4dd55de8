/**
 * The package in the frameworks the docs show, as a merchant's app gets it: `npm pack` of this checkout (after
 * `npm run build`), installed into a fresh Vite app per framework, whose source is the docs' example unchanged (every
 * `tsx` and `vue` block of the README and docs/), type-checked under strict TypeScript (`tsc`, `vue-tsc`) with every
 * library's types checked too, then built by Vite. And the package as a whole passes `publint --strict` and
 * `attw --profile esm-only` (it is ESM only). Installs come from the npm cache (`--prefer-offline`), the versions
 * those of this checkout's devDependencies; the two apps are made side by side.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fencesOf, type Fence } from '../docs/markdown-examples.js';

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
          'src/Example.tsx': react[0]!.code,
          'src/main.tsx': `import { createRoot } from 'react-dom/client';\nimport * as example from './Example.js';\nconst [Example] = Object.values(example);\ncreateRoot(document.getElementById('app')!).render(<Example />);\n`,
        },
      );
      await run(app, bin(app, 'tsc'), ['-p', '.']);
      await run(app, bin(app, 'vite'), ['build', '--logLevel', 'warn']);
    };
    const vueApp = async () => {
      const app = await viteApp('vue-app', ['vue', 'vue-tsc', 'typescript', 'vite', '@vitejs/plugin-vue'], {
        'tsconfig.json': tsconfig('preserve'),
        'index.html': html('main.ts'),
        // As the docs say: the tags are custom elements.
        'vite.config.ts': `import vue from '@vitejs/plugin-vue';\nexport default { plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag: string) => tag.startsWith('billing-') } } })] };\n`,
        'src/Example.vue': vue[0]!.code,
        'src/main.ts': `import { createApp } from 'vue';\nimport Example from './Example.vue';\ncreateApp(Example).mount('#app');\n`,
      });
      await run(app, bin(app, 'vue-tsc'), ['-p', '.']);
      await run(app, bin(app, 'vite'), ['build', '--logLevel', 'warn']);
    };
    await Promise.all([reactApp(), vueApp()]);
  });

  it('passes publint --strict and arethetypeswrong as an ESM-only package', async () => {
    await run(ROOT, bin(ROOT, 'publint'), ['--strict']);
    await run(ROOT, bin(ROOT, 'attw'), [tarball, '--profile', 'esm-only']);
  });
});
