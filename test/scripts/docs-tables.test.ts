/**
 * Every part of the docs that mirrors code is made from its one source by `npm run build` (scripts/docs-tables.ts):
 * this fails when one is stale, and shows that the marker helper all generators share replaces only its part.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED, staleFiles } from '../../scripts/docs-tables.js';
import { withPart } from '../../scripts/docs/markdown.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const skip = !existsSync(`${root}custom-elements.json`) && 'run `npm run build` first';

describe('the generated parts of the docs', { skip }, () => {
  it('are what their sources make (npm run build)', () => {
    assert.deepEqual(
      staleFiles().map(({ file }) => file),
      [],
      'out of date: run npm run build',
    );
  });

  it('notice a generated part edited by hand, and make it anew', () => {
    const note = 'edit that, not this -->\n\n';
    for (const { file, make } of GENERATED.filter((g) => g.file.endsWith('.md'))) {
      const now = readFileSync(`${root}${file}`, 'utf8');
      assert.ok(now.includes(note), file);
      const edited = now.replace(note, `${note}a hand-made line\n`);
      assert.notEqual(make(edited), edited, file);
      assert.equal(make(edited), now, file);
    }
  });
});

describe('withPart', () => {
  const part = { name: 'demo', source: 'here', make: () => '| a |\n|---|\n| 1 |\n' };

  it('replaces what lies between the markers, and keeps the prose around them', () => {
    const page = 'intro\n\n<!-- demo:start -->\nold table\n<!-- demo:end -->\n\nafter\n';
    const made = withPart(page, part, 'page.md');
    assert.equal(
      made,
      'intro\n\n<!-- demo:start -->\n<!-- made by npm run build from here; edit that, not this -->\n\n| a |\n|---|\n| 1 |\n\n<!-- demo:end -->\n\nafter\n',
    );
    assert.equal(withPart(made, part, 'page.md'), made, 'made twice, the same');
  });

  it('refuses a page without its markers', () => {
    assert.throws(() => withPart('no markers', part, 'page.md'), /page\.md has no <!-- demo:start -->/);
  });
});
