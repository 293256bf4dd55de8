/**
 * `npm run build`: one ES module, `dist/billing-pay.js`, with Lit bundled and minified, from the registering entry.
 * `npx vite`: the dev page `index.html`.
 *
 * Vite 8 compiles TypeScript with Oxc, which takes `experimentalDecorators` and `useDefineForClassFields` from
 * tsconfig.json: Lit's legacy decorators become `__decorate(…)` calls and fields are assigned in the constructor
 * (checked in the built file). The widget's files with `html` templates (the late modules' too) go through
 * TypeScript's own transpiler first, with the same options, to prepare those templates (`compiledTemplates`); the page
 * bundles then carry no template parser (scripts/build/lit-unused.ts).
 */
import { compileLitTemplates } from '@lit-labs/compiler';
import ts from 'typescript';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { litUnused, litUnusedGuard } from './scripts/build/lit-unused.js';
import { applyEdits, found, replaced, type Edit } from './scripts/build/source-edits.js';
import { hashedName, integrityOf } from './src/relay/assets/widget-assets.js';
import { systemForms } from './src/widget/system-form.js';
import { METHODS_RU, RU } from './src/widget/texts/ru.js';

/**
 * Two page bundles, each one self-contained file: `dist/billing-pay.js` (`<billing-pay>`, for the payment page) and,
 * with `--mode account`, `dist/billing-pay-account.js` (both elements, for a "My account" page).
 */
const BUNDLES = {
  pay: { entry: 'src/widget/billing-pay.ts', file: 'billing-pay.js' },
  account: { entry: 'src/widget/bundle.ts', file: 'billing-pay-account.js' },
};

/**
 * The built-in texts of each language but English, one JSON file each beside the bundles (`billing-pay-ru.json`):
 * a bundle fetches the one its page speaks, pinned by the hash the build writes into it (`__BP_TEXTS__`).
 */
const TEXT_FILES = {
  ru: { name: 'billing-pay-ru.json', bytes: Buffer.from(JSON.stringify({ pay: RU, methods: METHODS_RU })) },
};

/**
 * The narrow symbols the Amount label shows for common currencies in the built-in languages, from this build's `Intl`
 * (src/widget/money.ts), under each tag that writes them alike (lower case); any other code or tag is asked of the
 * browser's `Intl`.
 */
function currencySymbols(): Record<string, Record<string, string>> {
  const of = (tag: string) =>
    Object.fromEntries(
      ['RUB', 'USD', 'EUR', 'GBP', 'CNY', 'KZT', 'BYN', 'UAH'].flatMap((code) => {
        const symbol = new Intl.NumberFormat(tag, {
          style: 'currency',
          currency: code,
          currencyDisplay: 'narrowSymbol',
        })
          .formatToParts(1)
          .find((p) => p.type === 'currency')?.value;
        return symbol && symbol !== code ? [[code, symbol]] : [];
      }),
    );
  const tags = { en: ['en', 'en-US', 'en-GB'], ru: ['ru', 'ru-RU'] };
  return Object.fromEntries(
    Object.entries(tags).map(([lang, all]) => {
      const symbols = of(lang);
      const alike = all.filter((tag) => JSON.stringify(of(tag)) === JSON.stringify(symbols));
      return [alike.join(' ').toLowerCase(), symbols];
    }),
  );
}

/** What `scripts/build-late.ts` wrote: each late module's file, integrity and the bundle's modules it borrows. */
export const LATE_MANIFEST = 'dist/late/late.json';
export type LateManifest = Record<string, { file: string; integrity: string; shared: Record<string, string[]> }>;

function lateManifest(): LateManifest {
  return existsSync(LATE_MANIFEST) ? (JSON.parse(readFileSync(LATE_MANIFEST, 'utf8')) as LateManifest) : {};
}

/**
 * The options every built file shares, page bundle or late module. Every `html` template is prepared at build time, so
 * a page bundle leaves Lit's template parser out (a late module borrows the bundle's Lit).
 */
export function builtFile({ pageBundle = false } = {}): UserConfig {
  const late = lateManifest();
  return {
    publicDir: false,
    plugins: [
      // First: the widget's files as written (the template compiler turns decorators into calls).
      litUnusedGuard(WIDGET_SOURCE),
      minifyTemplates(),
      compiledTemplates(),
      ...(pageBundle ? [partsOnly(), litUnused()] : []),
      textFiles(),
      sharedWithLate(late),
    ],
    define: {
      __BP_TEXTS__: JSON.stringify(
        Object.fromEntries(
          Object.entries(TEXT_FILES).map(([lang, { name, bytes }]) => [
            lang,
            { file: hashedName(name, bytes), integrity: integrityOf(bytes) },
          ]),
        ),
      ),
      __BP_CURRENCY_SYMBOLS__: JSON.stringify(currencySymbols()),
      __BP_SYSTEM_FORMS__: JSON.stringify(systemForms()),
      __BP_LATE__: JSON.stringify(
        Object.fromEntries(Object.entries(late).map(([name, { file, integrity }]) => [name, { file, integrity }])),
      ),
    },
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: false,
      // terser first (two passes of its compressor fold Lit's and the widget's code further than Oxc does), then Oxc's
      // minifier on the result as before. dist/billing-pay.js, gzip: 19,326 B with Oxc alone, 19,177 with terser alone,
      // 19,018 with both. Only safe transforms: no property mangling, no `unsafe_*` (which gained 15 B more).
      minify: 'terser',
      terserOptions: { module: true, ecma: 2020, compress: { passes: 2 } },
      sourcemap: false,
      // Library mode keeps whitespace and /* @__PURE__ */ in an ES build (for bundlers that tree-shake it again); this
      // file is the end product a page loads, so minify it completely.
      rolldownOptions: { output: { minify: true, comments: false } },
    },
  };
}

export default defineConfig(({ mode }) => {
  const bundle = mode === 'account' ? BUNDLES.account : BUNDLES.pay;
  const config = builtFile({ pageBundle: true });
  return {
    ...config,
    // The payment page's bundle is its first screen alone; the account bundle holds two elements, a page shows one.
    plugins: [...(config.plugins ?? []), ...(mode === 'account' ? [] : [compileHint()])],
    build: {
      ...config.build,
      lib: {
        entry: bundle.entry,
        formats: ['es'],
        fileName: () => bundle.file,
      },
    },
  };
});

/**
 * What a late module borrows, in the order both sides use: each module of the bundle (by key), each name it lends,
 * sorted. The bundle lends them as one array per late module; the late module reads them by position.
 */
export function lentInOrder(shared: Record<string, string[]>): { key: string; name: string }[] {
  return Object.keys(shared)
    .sort()
    .flatMap((key) => [...shared[key]!].sort().map((name) => ({ key, name })));
}

/**
 * Lends the late modules what they borrow from the bundle: fills `SHARED` of src/widget/late/load.ts with one function
 * per late module that answers the values the manifest names, in `lentInOrder` (a late module takes them from the
 * page's registry by position: no module path or export name is written into the bundle for it). A function, read when
 * the late module runs: `load.ts` runs before some of the modules it lends from (they import it), whose values are not
 * there yet while it runs.
 */
function sharedWithLate(late: LateManifest): Plugin {
  const modules = [...new Set(Object.values(late).flatMap((m) => Object.keys(m.shared)))].sort();
  const local = (key: string, name: string) => `shared${modules.indexOf(key)}_${name}`;
  return {
    name: 'billing-pay:shared-with-late',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/widget/late/load.ts') || !modules.length) return null;
      const placeholder = 'const SHARED: Record<string, unknown> = {};';
      if (!code.includes(placeholder)) throw new Error(`${id}: no \`${placeholder}\` to fill`);
      const imports = modules.map((key) => {
        const names = new Set(Object.values(late).flatMap((m) => m.shared[key] ?? []));
        return `import { ${[...names].map((n) => `${n} as ${local(key, n)}`).join(', ')} } from ${JSON.stringify(resolve(key))};`;
      });
      const entries = Object.entries(late)
        .map(
          ([name, { shared }]) =>
            `${JSON.stringify(name)}: () => [${lentInOrder(shared)
              .map((l) => local(l.key, l.name))
              .join(', ')}]`,
        )
        .join(', ');
      return {
        code: `${imports.join('\n')}\n${code.replace(placeholder, `const SHARED: Record<string, unknown> = { ${entries} };`)}`,
        map: null,
      };
    },
  };
}

/** Writes the language files (`TEXT_FILES`) into dist/, where scripts/build-assets.ts lists them in bundles.json. */
function textFiles(): Plugin {
  return {
    name: 'billing-pay:text-files',
    apply: 'build',
    generateBundle() {
      for (const { name, bytes } of Object.values(TEXT_FILES))
        this.emitFile({ type: 'asset', fileName: name, source: bytes });
    },
  };
}

/** The widget's own source files (its late modules' too): what the template plugins transform. */
const WIDGET_SOURCE = /[\\/]src[\\/]widget[\\/](?:late[\\/])?[^\\/]+\.ts$/;

/** tsconfig.json's compiler options (target, legacy decorators, class fields, module syntax), as TypeScript reads them. */
const projectOptions = (() => {
  const file = fileURLToPath(new URL('./tsconfig.json', import.meta.url));
  const { config } = ts.readConfigFile(file, (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(file)).options;
})();

/**
 * Minifies the text of the widget's `html` and `css` tagged templates (which no JS minifier touches): runs of
 * whitespace become one space and whitespace between tags goes; CSS also loses comments, the spaces around
 * `{ } ; ,` and after a property name. The templates are found with the TypeScript parser, so expressions and
 * other strings are never touched.
 */
function minifyTemplates(): Plugin {
  return {
    name: 'billing-pay:minify-templates',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!WIDGET_SOURCE.test(id) || !/\b(?:html|css)`/.test(code)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const tagged = found(
        file,
        (node): node is ts.TaggedTemplateExpression & { tag: ts.Identifier } =>
          ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && /^(?:html|css)$/.test(node.tag.text),
      );
      const edits = tagged.flatMap(({ tag, template: t }): Edit[] => {
        const minify = tag.text === 'css' ? minifyCss : minifyHtml;
        const parts = ts.isNoSubstitutionTemplateLiteral(t) ? [t] : [t.head, ...t.templateSpans.map((s) => s.literal)];
        return parts.map((part) => {
          const start = part.getStart(file) + 1; // after ` or }
          const end = part.getEnd() - (ts.isTemplateHead(part) || ts.isTemplateMiddle(part) ? 2 : 1); // before ${ or `
          return { start, end, text: minify(code.slice(start, end)) };
        });
      });
      return { code: applyEdits(code, edits), map: null };
    },
  };
}

/** Lit's template tags, and Lit's modules that export them. */
const TEMPLATE_TAGS = new Set(['html', 'svg', 'mathml']);
const LIT = /^lit(?:-html)?$/;

/** The number of Lit's tagged templates in a source (the tag by its name in Lit, under an alias too, or as `x.html`). */
function litTemplates(code: string, id: string): number {
  const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
  const names = new Set(TEMPLATE_TAGS);
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier;
    const bindings = statement.importClause?.namedBindings;
    if (LIT.test(from.text) && bindings && ts.isNamedImports(bindings))
      for (const e of bindings.elements) if (TEMPLATE_TAGS.has((e.propertyName ?? e.name).text)) names.add(e.name.text);
  }
  return found(file, (node): node is ts.TaggedTemplateExpression => {
    if (!ts.isTaggedTemplateExpression(node)) return false;
    const tag = ts.isPropertyAccessExpression(node.tag) ? node.tag.name : node.tag;
    return ts.isIdentifier(tag) && names.has(tag.text);
  }).length;
}

/**
 * Prepares the widget's `html` templates at build time (`@lit-labs/compiler`): the first render then skips Lit's
 * prepare step (reading each template's HTML for its parts), which took half of the ready form's render. The build
 * fails on a template left for Lit's parser, which the page bundles leave out: one the compiler cannot prepare (`svg`,
 * `mathml`) or one outside the widget's files (a module of templates read at run time, `static-html` or the `unsafe-*`
 * directives, fails `litUnusedGuard`). The part classes are imported by name, not by namespace, so that a late module can borrow them from the
 * bundle, and `html`, which a prepared template no longer calls, is not imported.
 */
function compiledTemplates(): Plugin {
  const NAMESPACE = /import \* as (\w+) from "lit-html\/private-ssr-support\.js";\nconst (\{[^}]*\}) = \1\._\$LH;/g;
  return {
    name: 'billing-pay:compiled-templates',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.ts$/.test(id)) return null;
      if (!litTemplates(code, id)) return null;
      if (!WIDGET_SOURCE.test(id))
        throw new Error(`${id}: Lit templates outside the widget's files, which the build prepares`);
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: { ...projectOptions, module: ts.ModuleKind.ESNext },
        transformers: { before: [compileLitTemplates()] },
      }).outputText;
      if (litTemplates(out, id)) throw new Error(`${id}: a Lit template the compiler could not prepare`);
      let namespaces = 0;
      const named = out.replace(NAMESPACE, (_, local: string, parts: string) => {
        namespaces += 1;
        return `import { _$LH as ${local} } from "lit-html/private-ssr-support.js";\nconst ${parts} = ${local};`;
      });
      if (namespaces !== 1) throw new Error(`${id}: not one import of Lit's part classes as the compiler writes it`);
      return { code: withoutHtmlImport(named, id), map: null };
    },
  };
}

/** `code` without `html` among the names it imports from Lit: a prepared template no longer calls the tag. */
function withoutHtmlImport(code: string, id: string): string {
  const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  const uses = found(
    file,
    (node): node is ts.Identifier =>
      ts.isIdentifier(node) && node.text === 'html' && !ts.isImportSpecifier(node.parent),
  ).length;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!LIT.test(statement.moduleSpecifier.text) || !bindings || !ts.isNamedImports(bindings)) continue;
    const kept = bindings.elements.filter((e) => e.name.text !== 'html');
    if (kept.length === bindings.elements.length) continue;
    if (uses) throw new Error(`${id}: \`html\` is used other than as a template's tag`);
    edits.push(replaced(file, bindings, `{ ${kept.map((e) => e.getText(file)).join(', ')} }`));
  }
  return applyEdits(code, edits);
}

/**
 * Marks the payment page's bundle for V8's eager compilation (`//# allFunctionsCalledOnLoad`, Chromium 136+, ignored
 * elsewhere): its functions are compiled at once (off the main thread where the script streams in), not one by one as
 * the first screen calls them. The bundle holds the first screen (what runs later is in the late modules). Slow 4G, CPU 4×: ready 16-26
 * ms sooner (the Lit reference element: 5 ms); CPU 1×: no change.
 */
function compileHint(): Plugin {
  return {
    name: 'billing-pay:compile-hint',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk') chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
    },
  };
}

/** The part classes `@lit-labs/compiler`'s prepared templates take from Lit's SSR support object. */
const PREPARED_PARTS = ['AttributePart', 'PropertyPart', 'BooleanAttributePart', 'EventPart'];

/**
 * The prepared templates take Lit's part classes from `lit-html/private-ssr-support.js`, whose one exported object also
 * holds the server renderer's helpers; a bundler cannot drop a property of an object it keeps. This keeps of that
 * object only its part classes (`…Part`), as Lit's file writes them, and fails the build when the file has another shape.
 */
function partsOnly(): Plugin {
  return {
    name: 'billing-pay:lit-parts-only',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]lit-html[\\/](?:development[\\/])?private-ssr-support\.js$/.test(id)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const objects = found(
        file,
        (node): node is ts.VariableDeclaration & { initializer: ts.ObjectLiteralExpression } =>
          ts.isVariableDeclaration(node) && !!node.initializer && ts.isObjectLiteralExpression(node.initializer),
      ).map((declaration) => declaration.initializer);
      const parts = (o: ts.ObjectLiteralExpression) =>
        o.properties.filter(
          (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && /Part$/.test(p.name.getText(file)),
        );
      const lent = objects.filter((o) => parts(o).length > 0);
      if (lent.length !== 1) throw new Error(`${id}: not one object of Lit's part classes (${lent.length})`);
      const [object] = lent as [ts.ObjectLiteralExpression];
      const kept = parts(object).map((p) => p.getText(file));
      const names = parts(object).map((p) => p.name.getText(file));
      const missing = PREPARED_PARTS.filter((name) => !names.includes(name));
      if (missing.length) throw new Error(`${id}: no ${missing.join(', ')} among Lit's part classes`);
      return { code: applyEdits(code, [replaced(file, object, `{${kept.join(',')}}`)]), map: null };
    },
  };
}

function minifyHtml(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/>\s+</g, '><');
}

function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/([{;][\w-]+): /g, '$1:')
    .replace(/;}/g, '}')
    .trim();
}
