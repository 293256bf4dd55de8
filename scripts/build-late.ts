/**
 * `npm run build`, first step: the late modules (src/widget/late/*.late.ts), each one file `dist/billing-pay-NAME.js`
 * that a page bundle loads after its first screen (src/widget/late/load.ts). What a late module imports that the page
 * bundle already carries (Lit, the texts, the relay client…) is not built into it: it is taken from the page's registry,
 * where the bundle lends it. So the bundle is built in memory first, to learn its modules; then each late module, with
 * those left out; then `dist/late/late.json` names each late file, its integrity and the modules it borrows, from which
 * the page bundles' build (vite.config.ts) writes the pins and the loan.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { build, type Rollup } from 'vite';
import { hashedName, integrityOf } from '../src/relay/assets/widget-assets.js';
import { LATE_SOURCES } from '../src/widget/late/modules.js';
import { builtFile, LATE_MANIFEST, lentInOrder, type LateManifest } from '../vite.config.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const REGISTRY = 'globalThis[Symbol.for("billing-pay")]';
/** The late module's array of what the bundle lends it (`lentInOrder`), and the mark of each borrowed module. */
const LENT = '__bp_lent';
const MARK = '__BP_BORROW__';
const MARKED = new RegExp(`${MARK}\\(["\`]([^"\`]+)["\`]\\)`, 'g');
/** A module's key: its path from the root. */
const keyOf = (id: string) => relative(ROOT, id).split('\\').join('/');

/**
 * The bundle's modules a late module may carry a copy of: the shared model and the widget's stateless helpers and
 * English texts (no class checked by `instanceof`, no cache, no registry). Any other is always borrowed.
 */
const COPYABLE = /^src\/eps\/|^src\/widget\/(request|framing|form-model|i18n|error-text|texts\/en[\w-]*)\.ts$/;

const outputOf = (result: Awaited<ReturnType<typeof build>>) =>
  (Array.isArray(result) ? result[0]! : (result as Rollup.RollupOutput)).output;

/** The modules of the page bundle (`src/widget/billing-pay.ts`), by absolute id, each with the exports it keeps. */
async function bundleModules(): Promise<Map<string, Set<string>>> {
  const output = outputOf(
    await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'silent', build: { write: false } }),
  );
  const chunk = output.find((o): o is Rollup.OutputChunk => o.type === 'chunk' && o.isEntry)!;
  return new Map(chunk.moduleIds.map((id) => [id, new Set(chunk.modules[id]?.renderedExports ?? [])]));
}

/**
 * One late module, built until what it borrows settles: a module of the bundle is borrowed when the bundle keeps every
 * name the late module takes from it; otherwise the late module carries its own copy where that is safe (`COPYABLE`),
 * so the bundle keeps no code for the late module alone.
 */
async function buildLate(
  name: string,
  bundle: Map<string, Set<string>>,
): Promise<{ code: string; shared: Record<string, string[]>; copied: string[] }> {
  let copied = new Set<string>();
  for (;;) {
    const built = await buildLateOnce(name, bundle, copied);
    const next = new Set(
      [...bundle]
        .filter(([id, kept]) => {
          const wanted = built.names.get(keyOf(id));
          return wanted && [...wanted].some((n) => !kept.has(n)) && COPYABLE.test(keyOf(id));
        })
        .map(([id]) => id),
    );
    if ([...next].every((id) => copied.has(id)))
      return { code: built.code, shared: built.shared, copied: [...copied].map(keyOf).sort() };
    copied = new Set([...copied, ...next]);
  }
}

async function buildLateOnce(
  name: string,
  bundle: Map<string, Set<string>>,
  copied: Set<string>,
): Promise<{ code: string; shared: Record<string, string[]>; names: Map<string, Set<string>> }> {
  const config = builtFile();
  // The bundle's modules the output takes from the registry (asked for each import left out, as it is written).
  const shared = new Set<string>();
  const names = new Map<string, Set<string>>();
  // A mark for now: which names, at which positions, is known once the build has seen every import.
  const borrow = (id: string) => {
    shared.add(keyOf(id));
    return `${MARK}(${JSON.stringify(keyOf(id))})`;
  };
  const output = outputOf(
    await build({
      ...config,
      configFile: false,
      logLevel: 'warn',
      plugins: [
        ...(config.plugins ?? []),
        {
          name: 'billing-pay:borrow-from-bundle',
          enforce: 'pre',
          async resolveId(source, importer, options) {
            if (!importer) return null;
            const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
            return resolved && bundle.has(resolved.id) && !copied.has(resolved.id)
              ? { id: resolved.id, external: true }
              : null;
          },
          // The names each late source imports from a module of the bundle: the bundle lends those alone.
          async transform(code, id) {
            for (const { from, names: imported } of importsOf(code, id)) {
              const resolved = await this.resolve(from, id);
              if (!resolved || !bundle.has(resolved.id)) continue;
              // Names taken from any module of the bundle, copied or borrowed: the next build decides again.
              const key = keyOf(resolved.id);
              names.set(key, new Set([...(names.get(key) ?? []), ...imported]));
            }
            return null;
          },
        },
      ],
      build: {
        ...config.build,
        write: false,
        lib: { entry: resolve(ROOT, `src/widget/late/${name}.late.ts`), formats: ['iife'], name: 'late' },
        rolldownOptions: {
          output: {
            ...config.build!.rolldownOptions!.output,
            globals: borrow,
            footer: `${REGISTRY}.modules[${JSON.stringify(name)}]=late;`,
          },
        },
      },
    }),
  );
  const chunk = output.find((o): o is Rollup.OutputChunk => o.type === 'chunk')!;
  const lent: Record<string, string[]> = Object.fromEntries(
    [...shared].sort().map((key) => [key, [...(names.get(key) ?? [])].sort()]),
  );
  // Each borrowed module becomes an object of its names, read by position from the array the bundle lends.
  const order = lentInOrder(lent);
  const at = (key: string, name: string) => order.findIndex((l) => l.key === key && l.name === name);
  let marks = 0;
  const code = chunk.code.replace(MARKED, (_, key: string) => {
    marks += 1;
    return `{${lent[key]!.map((n) => `${n}:${LENT}[${at(key, n)}]`).join(',')}}`;
  });
  if (marks !== shared.size) throw new Error(`${name}: ${marks} borrowed modules marked, ${shared.size} borrowed`);
  // A value missing from the loan fails the load (the payer is told), never runs on as `undefined`.
  const lentCheck = `if(${LENT}.includes(void 0))throw Error(${JSON.stringify(`billing-pay-${name}: a value the bundle lends it is missing`)});`;
  return {
    code: `var ${LENT}=${REGISTRY}.shared[${JSON.stringify(name)}]();${lentCheck}${code}`,
    shared: lent,
    names,
  };
}

/**
 * The values a TypeScript source takes from other modules, by import or by `export … from` (`import type` and
 * type-only names left out): from where, which names.
 */
function importsOf(code: string, id: string): { from: string; names: string[] }[] {
  const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, false);
  return file.statements.flatMap((statement) => {
    if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      if (statement.isTypeOnly) return [];
      if (!clause || !ts.isNamedExports(clause))
        throw new Error(`${id}: a late module re-exports names, not a whole module (${statement.getText(file)})`);
      const names = clause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text);
      return names.length ? [{ from: statement.moduleSpecifier.text, names }] : [];
    }
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) return [];
    const bindings = clause.namedBindings;
    if (clause.name || (bindings && ts.isNamespaceImport(bindings)))
      throw new Error(`${id}: a late module imports names, not a default or a namespace (${statement.getText(file)})`);
    const names = bindings
      ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
      : [];
    return names.length ? [{ from: statement.moduleSpecifier.text, names }] : [];
  });
}

rmSync(resolve(ROOT, 'dist'), { recursive: true, force: true });
const bundle = await bundleModules();
const manifest: LateManifest = {};
mkdirSync(resolve(ROOT, 'dist/late'), { recursive: true });
for (const name of Object.keys(LATE_SOURCES)) {
  const { code, shared, copied } = await buildLate(name, bundle);
  const file = `billing-pay-${name}.js`;
  const bytes = Buffer.from(code);
  writeFileSync(resolve(ROOT, 'dist', file), bytes);
  manifest[name] = { file: hashedName(file, bytes), integrity: integrityOf(bytes), shared };
  console.log(
    `dist/${file}: ${bytes.length} B; borrows ${Object.keys(shared).length} modules of the bundle` +
      (copied.length ? `, carries its own copy of ${copied.join(', ')}` : ''),
  );
}
writeFileSync(resolve(ROOT, LATE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
