/**
 * The README's tables of each element's attributes, events, CSS parts and custom properties are the built
 * `custom-elements.json`, made by scripts/readme-api.ts (in `npm run build`): this fails when the two disagree.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiTables, withApiTables, type Manifest } from '../../scripts/readme-api.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const skip = !existsSync(`${root}custom-elements.json`) && 'run `npm run build` first';

describe('README element tables', { skip }, () => {
  const manifest = () => JSON.parse(readFileSync(`${root}custom-elements.json`, 'utf8')) as Manifest;
  const readme = () => readFileSync(`${root}README.md`, 'utf8');

  it('match custom-elements.json', () => {
    assert.equal(withApiTables(readme(), manifest()), readme(), 'README.md is out of date: run npm run build');
  });

  it('list every attribute, event, part and custom property of both elements', () => {
    const text = readme();
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
    assert.notEqual(withApiTables(readme(), changed), readme());
    const cells = apiTables({
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
