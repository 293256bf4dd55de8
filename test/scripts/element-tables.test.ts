/**
 * docs/embedding.md's tables of each element's attributes, events, CSS parts and custom properties are the built
 * `custom-elements.json`, made by scripts/docs/element-tables.ts (in `npm run build`): this fails when the two
 * disagree.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { elementTables, type Manifest } from '../../scripts/docs/element-tables.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const skip = !existsSync(`${root}custom-elements.json`) && 'run `npm run build` first';

describe('the element tables of docs/embedding.md', { skip }, () => {
  const manifest = () => JSON.parse(readFileSync(`${root}custom-elements.json`, 'utf8')) as Manifest;
  const page = () => readFileSync(`${root}docs/embedding.md`, 'utf8');

  it('match custom-elements.json', () => {
    assert.ok(page().includes(elementTables(manifest()).trim()), 'docs/embedding.md is out of date: run npm run build');
  });

  it('list every attribute, event, part and custom property of both elements', () => {
    const text = page();
    for (const declaration of manifest().modules.flatMap((m) => m.declarations ?? [])) {
      // The elements' shared base class (billing-element.ts) is a custom element class with no tag of its own.
      if (!declaration.customElement || !declaration.tagName) continue;
      assert.ok(text.includes(`### \`<${declaration.tagName}>\``), declaration.tagName);
      for (const item of [
        ...(declaration.attributes ?? []),
        ...(declaration.events ?? []),
        ...(declaration.cssParts ?? []),
        ...(declaration.cssProperties ?? []),
      ]) {
        assert.ok(text.includes(`| \`${item.name}\` |`), `${declaration.tagName}: ${item.name}`);
      }
    }
    for (const name of ['label-a', 'return-url', 'amount-fixed', 'agreement', 'allow-link-only', 'systems'])
      assert.match(text, new RegExp(`\\| \`${name}\` \\|`));
  });

  it('notice a description that changed, and keep a table cell in one piece', () => {
    const changed = manifest();
    const pay = changed.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'billing-pay')!;
    pay.attributes!.find((a) => a.name === 'relay')!.description = 'Another text.';
    assert.ok(!page().includes(elementTables(changed).trim()));
    const cells = elementTables({
      modules: [
        {
          declarations: [
            {
              customElement: true,
              tagName: 'x-y',
              attributes: [{ name: 'a', type: { text: "'p' | 'q'" }, description: 'one\n  line' }],
            },
          ],
        },
      ],
    });
    assert.ok(cells.includes("| `a` |  | `'p' \\| 'q'` |  | one line |"), cells);
  });
});
