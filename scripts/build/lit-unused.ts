/**
 * Lit features no widget file uses, left out of the page bundles' Lit (`litUnused`), and the check that keeps it so
 * (`litUnusedGuard`): the template parser (every template is prepared at build time, vite.config.ts's
 * `compiledTemplates`), directives, decorators, the ShadyDOM/ShadyCSS polyfills' hooks and the registry of loaded Lit
 * versions (docs/performance.md has what it saves). Lit's `<style>` fallback for browsers without adoptable style
 * sheets stays: the form still renders there. Each edit is found in Lit's published files by syntax and must match:
 * the build fails when Lit changes shape.
 */
import ts from 'typescript';
import type { Plugin } from 'vite';
import { applyEdits, found, replaced as replace, type Edit } from './source-edits.js';

export const LIT_UNUSED = 'billing-pay:lit-unused';
export const LIT_UNUSED_GUARD = 'billing-pay:lit-unused-guard';

/**
 * Lit's modules of what `litUnused` leaves out, however reached: templates read at run time (`static-html`, and the
 * `unsafe-*` directives), directives, decorators, polyfill support.
 */
const LEFT_OUT = new RegExp(
  String.raw`[\\/]node_modules[\\/](?:lit|lit-html|lit-element|@lit[\\/]reactive-element)[\\/]` +
    String.raw`(?:development[\\/])?(?:static(?:-html)?\.js|directives?\b|async-directive|directive-helpers|decorators|polyfill-support)`,
);

type Edits = (file: ts.SourceFile) => Edit[];

function one<T>(all: T[], what: string): T {
  if (all.length !== 1) throw new Error(`${LIT_UNUSED}: not one ${what} (${all.length})`);
  return all[0]!;
}

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

/**
 * The template parser (the class that reads a template's HTML for its parts, with its regular expressions): its
 * constructor and its parse function throw, and its top-level `RegExp(…)` calls are marked pure, so the minifier drops
 * all it used.
 */
function templateParser(file: ts.SourceFile): Edit[] {
  // The template class: the one with a static `createElement` (which prepared templates use too).
  const isStatic = (m: ts.MethodDeclaration) => m.modifiers?.some((k) => k.kind === ts.SyntaxKind.StaticKeyword);
  const template = one(
    found(
      file,
      (n): n is ts.ClassDeclaration =>
        ts.isClassDeclaration(n) &&
        n.members.some((m) => ts.isMethodDeclaration(m) && m.name.getText(file) === 'createElement' && isStatic(m)),
    ),
    'template class',
  );
  const body = one(template.members.filter(ts.isConstructorDeclaration), 'template constructor').body!;
  // The parse function, called as `const [html, attrNames] = getTemplateHtml(strings, type)`.
  const call = one(
    found(
      body,
      (n): n is ts.VariableDeclaration =>
        ts.isVariableDeclaration(n) &&
        ts.isArrayBindingPattern(n.name) &&
        !!n.initializer &&
        ts.isCallExpression(n.initializer) &&
        ts.isIdentifier(n.initializer.expression),
    ),
    'call of the template parser',
  );
  const name = ((call.initializer as ts.CallExpression).expression as ts.Identifier).text;
  const parse = one(
    found(
      file,
      (n): n is ts.VariableDeclaration =>
        ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && !!n.initializer,
    ),
    'template parser',
  ).initializer!;
  if (!ts.isArrowFunction(parse)) throw new Error(`${LIT_UNUSED}: the template parser is not an arrow function`);
  const refuse = 'throw Error("billing-pay: a template not prepared at build time")';
  const pure = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .flatMap(({ initializer: init }) =>
      init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'RegExp'
        ? [{ start: init.getStart(file), end: init.getStart(file), text: '/*@__PURE__*/ ' }]
        : [],
    );
  return [replace(file, parse, `() => {${refuse}}`), replace(file, body, `{${refuse}}`), ...pure];
}

/** The directive resolver answers the value as it is: no widget file makes a directive. */
function directiveResolver(file: ts.SourceFile): Edit[] {
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
  return [replace(file, resolver.body!, `{return ${value.text}}`)];
}

/** Each Lit file, and what leaves it. */
const EDITS: Record<string, Edits> = {
  'lit-html/lit-html.js': (file) => [...templateParser(file), ...directiveResolver(file), ...hooks('litHtml')(file)],
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
  '@lit/reactive-element/css-tag.js': (file) => {
    // A value that is not a css result is a programmer's error the widget's files cannot make: a short message.
    const errors = found(
      file,
      (n): n is ts.CallExpression =>
        ts.isCallExpression(n) &&
        n.expression.getText(file) === 'Error' &&
        n.arguments.some((a) => a.getText(file).includes('unsafeCSS')),
    );
    if (errors.length !== 2) throw new Error(`${LIT_UNUSED}: not css-tag's two errors (${errors.length})`);
    return errors.map((n) => replace(file, n, 'Error("billing-pay: not a css result")'));
  },
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
      seen.add(key);
      return { code: applyEdits(code, EDITS[key]!(file)), map: null };
    },
    buildEnd(error) {
      const missing = Object.keys(EDITS).filter((k) => !seen.has(k));
      if (!error && missing.length) throw new Error(`${LIT_UNUSED}: ${missing.join(', ')} not among the modules built`);
    },
  };
}

/**
 * Fails the build of a page bundle or late module that uses what `litUnused` leaves out of Lit: a widget file with a
 * decorator, or any of Lit's modules of directives, decorators or polyfill support among the modules built (however
 * imported: statically, dynamically, by a library).
 */
export function litUnusedGuard(source: RegExp): Plugin {
  return {
    name: LIT_UNUSED_GUARD,
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!source.test(id)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const [decorator] = found(file, ts.isDecorator);
      if (decorator)
        throw new Error(`${id}: ${decorator.getText(file)}: the page bundles' Lit has no decorators (${LIT_UNUSED})`);
      return null;
    },
    buildEnd(error) {
      const used = [...this.getModuleIds()].filter((id) => LEFT_OUT.test(id));
      if (!error && used.length)
        throw new Error(
          `${used.join(', ')}: the page bundles' Lit has no template parser, directives or decorators (${LIT_UNUSED})`,
        );
    },
  };
}
