/**
 * The built `custom-elements.json` (package.json `customElements`: what editors and documentation tools read) declares
 * each element's API: every attribute the element class observes, its events, CSS parts and CSS custom properties,
 * each with a description, and a definition of the tag that points at the declaring module. `npm test` builds before
 * it runs this.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = existsSync(`${root}custom-elements.json`);
const skip = !built && 'run `npm run build` first';

interface Named {
  name: string;
  description?: string;
}
interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: Named[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
}
interface Manifest {
  modules: {
    path: string;
    declarations?: Declaration[];
    exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

const manifest = (): Manifest => JSON.parse(readFileSync(`${root}custom-elements.json`, 'utf8')) as Manifest;

function element(tag: string): { module: string; declaration: Declaration } {
  for (const module of manifest().modules) {
    const declaration = module.declarations?.find((d) => d.customElement && d.tagName === tag);
    if (declaration) return { module: module.path, declaration };
  }
  assert.fail(`custom-elements.json declares no <${tag}>`);
}

const names = (items: Named[] | undefined) => (items ?? []).map((i) => i.name);
const source = (file: string) => readFileSync(`${root}src/widget/${file}`, 'utf8');

/** Every name in `part="…"` of a component's templates. */
const partsUsed = (file: string) => [
  ...new Set([...source(file).matchAll(/\bpart="([^"$]+)"/g)].flatMap(([, p]) => p!.split(/\s+/))),
];

/** Every `--billing-pay-*` custom property a styles file reads or declares. */
const propertiesIn = (file: string) => [...new Set(source(file).match(/--billing-pay-[\w-]+/g) ?? [])];

/** Each item is described, for the editor's tooltip. */
function expectDescribed(tag: string, what: string, items: Named[] | undefined): void {
  const bare = (items ?? []).filter((i) => !i.description?.trim()).map((i) => i.name);
  assert.deepEqual(bare, [], `<${tag}> ${what} without a description`);
}

describe('custom-elements.json', { skip }, () => {
  const cases = [
    {
      tag: 'billing-pay',
      load: async () => (await import('../../src/widget/billing-pay.js')).BillingPay,
      // The element's templates and styles, with those it shares with the other element.
      component: ['billing-pay.component.ts', 'billing-pay-fields.ts'],
      styles: ['billing-element.styles.ts', 'billing-pay.styles.ts'],
      attributes: [
        'relay',
        'amount-fixed',
        'return-url',
        'email',
        'phone',
        'label-b',
        'allow-link-only',
        'texts',
        'theme',
        'lang',
      ],
      events: [
        'billing-pay-ready',
        'billing-pay-submit',
        'billing-pay-redirect',
        'billing-pay-error',
        'billing-pay-return',
      ],
      parts: ['form', 'input', 'button', 'status', 'radio'],
      properties: [
        '--billing-pay-color-accent',
        '--billing-pay-color-field',
        '--billing-pay-radius',
        '--billing-pay-font-family',
      ],
    },
    {
      tag: 'billing-payment-methods',
      load: async () => (await import('../../src/widget/billing-payment-methods.js')).BillingPaymentMethods,
      component: ['billing-payment-methods.component.ts'],
      styles: ['billing-payment-methods.styles.ts'],
      attributes: ['relay', 'session', 'texts', 'theme', 'lang'],
      events: ['billing-payment-methods-change', 'billing-payment-methods-error'],
      parts: ['base', 'list', 'disable', 'confirm-button', 'status'],
      properties: [
        '--billing-pay-color-accent',
        '--billing-pay-color-muted',
        '--billing-pay-spacing',
        '--billing-pay-max-width',
      ],
    },
  ];

  for (const c of cases) {
    describe(`<${c.tag}>`, () => {
      it('declares every attribute the element class observes, each described', async () => {
        const { declaration } = element(c.tag);
        const declared = names(declaration.attributes);
        for (const name of c.attributes)
          assert.ok(declared.includes(name), `attribute ${name}; declared: ${declared.join(', ')}`);
        const observed = [...((await c.load()) as unknown as { observedAttributes: string[] }).observedAttributes];
        assert.ok(observed.length >= c.attributes.length, `the class observes ${observed.join(', ')}`);
        assert.deepEqual(
          observed.filter((name) => !declared.includes(name)),
          [],
          'observed but not in custom-elements.json',
        );
        // `state` is the element's output (src/widget/readiness.ts): reflected, never read back.
        assert.ok(declared.includes('state'), 'the reflected state attribute');
        assert.deepEqual(
          declared.filter((name) => !observed.includes(name) && name !== 'state'),
          [],
          'in custom-elements.json but not observed',
        );
        expectDescribed(c.tag, 'attributes', declaration.attributes);
      });

      it('declares its events, each described', () => {
        const { declaration } = element(c.tag);
        assert.deepEqual(names(declaration.events).sort(), [...c.events].sort());
        expectDescribed(c.tag, 'events', declaration.events);
      });

      it('declares every CSS part its templates use, each described', () => {
        const { declaration } = element(c.tag);
        const declared = names(declaration.cssParts);
        for (const name of c.parts)
          assert.ok(declared.includes(name), `part ${name}; declared: ${declared.join(', ')}`);
        const used = [...new Set(c.component.flatMap(partsUsed))];
        assert.ok(used.length >= c.parts.length, `parts found in ${c.component}: ${used.join(', ')}`);
        assert.deepEqual(
          used.filter((name) => !declared.includes(name)),
          [],
          `parts used in ${c.component} but not declared`,
        );
        expectDescribed(c.tag, 'CSS parts', declaration.cssParts);
      });

      it('declares the CSS custom properties its styles read, each described, with their defaults', () => {
        const { declaration } = element(c.tag);
        const declared = names(declaration.cssProperties);
        for (const name of c.properties)
          assert.ok(declared.includes(name), `property ${name}; declared: ${declared.join(', ')}`);
        const read = [...new Set(c.styles.flatMap(propertiesIn))];
        assert.ok(read.length >= 4, `properties found in ${c.styles}: ${read.join(', ')}`);
        assert.deepEqual(
          read.filter((name) => !declared.includes(name)),
          [],
          `properties in ${c.styles} but not declared`,
        );
        expectDescribed(c.tag, 'CSS properties', declaration.cssProperties);
        const accent = declaration.cssProperties!.find((p) => p.name === '--billing-pay-color-accent') as Named & {
          default?: string;
        };
        assert.equal(accent.default, '#1d5bc7');
      });

      it('defines the tag in the published module and points the definition at the declaring module', () => {
        const { module, declaration } = element(c.tag);
        assert.match(module, /^dist\/lib\/widget\/[\w.-]+\.component\.js$/);
        assert.ok(existsSync(`${root}${module}`), `${module} is built`);
        const definitions = manifest().modules.flatMap((m) =>
          (m.exports ?? [])
            .filter((e) => e.kind === 'custom-element-definition' && e.name === c.tag)
            .map((e) => ({ from: m.path, ...e.declaration })),
        );
        assert.equal(definitions.length, 1, `one definition of <${c.tag}>`);
        assert.deepEqual(definitions[0], { from: `dist/lib/widget/${c.tag}.js`, name: declaration.name, module });
      });
    });
  }
});
