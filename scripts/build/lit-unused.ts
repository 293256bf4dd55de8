/**
 * Lit features no widget file uses, left out of the page bundles' Lit (`litUnused`), and the check that keeps it so
 * (`litUnusedGuard`): directives, decorators, the ShadyDOM/ShadyCSS polyfills' hooks and the registry of loaded Lit
 * versions, and `<style>` elements for browsers without constructable style sheets (every browser the form's CSS needs,
 * with `:has()`, container queries and `color-mix()`, adopts style sheets). About -480 B brotli of the payment page's
 * bundle. Each edit is found in Lit's published files by syntax and must match: the build fails when Lit changes shape.
 */
import ts from 'typescript';
import type { Plugin } from 'vite';

export const LIT_UNUSED = 'billing-pay:lit-unused';

/** Imports of what `litUnused` leaves out: directives and decorators. */
const LEFT_OUT = /^(?:lit(?:-html|-element)?|@lit\/reactive-element)\/(?:directives?\b|async-directive|decorators)/;

type Edit = { start: number; end: number; text: string };
type Edits = (file: ts.SourceFile) => Edit[];

/** Every node of `file` that `test` accepts. */
function found<T extends ts.Node>(file: ts.SourceFile, test: (node: ts.Node) => node is T): T[] {
  const all: T[] = [];
  const visit = (node: ts.Node): void => {
    if (test(node)) all.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return all;
}

function one<T>(all: T[], what: string): T {
  if (all.length !== 1) throw new Error(`${LIT_UNUSED}: not one ${what} (${all.length})`);
  return all[0]!;
}

const replace = (file: ts.SourceFile, node: ts.Node, text: string): Edit => ({
  start: node.getStart(file),
  end: node.getEnd(),
  text,
});

/** `x.<name>PolyfillSupport` read as nothing, and `(x.<name>Versions ??= []).push(…)` not called. */
const hooks =
  (name: string): Edits =>
  (file) => [
    replace(
      file,
      one(
        found(
          file,
          (n): n is ts.PropertyAccessExpression =>
            ts.isPropertyAccessExpression(n) && n.name.text === `${name}PolyfillSupport`,
        ),
        `${name}PolyfillSupport`,
      ),
      'void 0',
    ),
    replace(
      file,
      one(
        found(
          file,
          (n): n is ts.CallExpression =>
            ts.isCallExpression(n) && n.expression.getText(file).includes(`${name}Versions`),
        ),
        `${name}Versions push`,
      ),
      '0',
    ),
  ];

/** Each Lit file, and what leaves it. */
const EDITS: Record<string, Edits> = {
  'lit-html/lit-html.js': (file) => {
    // The directive resolver answers the value as it is: no widget file makes a directive.
    const resolver = one(
      found(
        file,
        (n): n is ts.FunctionDeclaration =>
          ts.isFunctionDeclaration(n) && !!n.body && n.body.getText(file).includes('_$litDirective$'),
      ),
      'directive resolver',
    );
    const value = resolver.parameters[1]?.name;
    if (!value || !ts.isIdentifier(value)) throw new Error(`${LIT_UNUSED}: the directive resolver takes no value`);
    return [replace(file, resolver.body!, `{return ${value.text}}`), ...hooks('litHtml')(file)];
  },
  '@lit/reactive-element/reactive-element.js': (file) => {
    // Decorators: the `Symbol.metadata` polyfill, the property metadata they leave, and `addInitializer`.
    const decorators = [
      ...found(
        file,
        (n): n is ts.BinaryExpression =>
          ts.isBinaryExpression(n) &&
          n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken &&
          /(?:^Symbol\.metadata|\.litPropertyMetadata)$/.test(n.left.getText(file)),
      ).map((n) => replace(file, n, '0')),
      ...found(
        file,
        (n): n is ts.IfStatement =>
          ts.isIfStatement(n) && n.thenStatement.getText(file).includes('litPropertyMetadata'),
      ).map((n) => replace(file, n, '')),
      ...found(
        file,
        (n): n is ts.MethodDeclaration => ts.isMethodDeclaration(n) && n.name.getText(file) === 'addInitializer',
      ).map((n) => replace(file, n, '')),
    ];
    if (decorators.length !== 4)
      throw new Error(`${LIT_UNUSED}: not the decorators' four places (${decorators.length})`);
    return [...decorators, ...hooks('reactiveElement')(file)];
  },
  'lit-element/lit-element.js': hooks('litElement'),
  '@lit/reactive-element/css-tag.js': (file) => [
    // Style sheets are adopted: the fallback to `<style>` elements goes with the test for it.
    replace(
      file,
      one(
        found(
          file,
          (n): n is ts.VariableDeclaration =>
            ts.isVariableDeclaration(n) &&
            !!n.initializer &&
            !ts.isArrowFunction(n.initializer) &&
            n.initializer.getText(file).includes('adoptedStyleSheets'),
        ),
        'test for adoptable style sheets',
      ).initializer!,
      '!0',
    ),
    // A value that is not a css result is a programmer's error the widget's files cannot make: a short message.
    ...found(file, (n): n is ts.StringLiteral => ts.isStringLiteral(n) && n.text.includes('unsafeCSS')).map((n) =>
      replace(file, n, '"not a css result"'),
    ),
  ],
};

/** Leaves the unused features out of Lit's files (page bundles only; a late module borrows the bundle's Lit). */
export function litUnused(): Plugin {
  const seen = new Set<string>();
  return {
    name: LIT_UNUSED,
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      const key = Object.keys(EDITS).find((k) => id.replaceAll('\\', '/').endsWith(`/node_modules/${k}`));
      if (!key) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const edits = EDITS[key]!(file);
      seen.add(key);
      let out = code;
      for (const { start, end, text } of edits.sort((a, b) => b.start - a.start))
        out = out.slice(0, start) + text + out.slice(end);
      return { code: out, map: null };
    },
    buildEnd(error) {
      const missing = Object.keys(EDITS).filter((k) => !seen.has(k));
      if (!error && missing.length) throw new Error(`${LIT_UNUSED}: ${missing.join(', ')} not among the modules built`);
    },
  };
}

/** Fails the build of any widget file (its late modules' too) that uses what `litUnused` leaves out of Lit. */
export function litUnusedGuard(source: RegExp): Plugin {
  return {
    name: 'billing-pay:lit-unused-guard',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!source.test(id)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const uses = found(
        file,
        (n): n is ts.Node =>
          ts.isDecorator(n) ||
          ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
            !!n.moduleSpecifier &&
            ts.isStringLiteral(n.moduleSpecifier) &&
            LEFT_OUT.test(n.moduleSpecifier.text)),
      );
      if (uses.length)
        throw new Error(
          `${id}: ${uses[0]!.getText(file)}: the page bundles' Lit has no directives or decorators (${LIT_UNUSED})`,
        );
      return null;
    },
  };
}
