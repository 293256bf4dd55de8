/**
 * Every part of the docs that mirrors code is made from its one source by `npm run build` (scripts/docs-tables.ts):
 * this fails when one is stale, and shows that the marker helper all generators share replaces only its part.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED, staleFiles } from '../../scripts/docs-tables.js';
import { errorTable } from '../../scripts/docs/error-table.js';
import { withPart } from '../../scripts/docs/markdown.js';
import { systemTables } from '../../scripts/docs/system-tables.js';
import { ERROR_CODES } from '../../src/eps/errors.js';
import { PARAM_MEANINGS, SYSTEM_IDS, SYSTEMS } from '../../src/eps/systems.js';

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

describe('the payment systems’ parameters', () => {
  const row = (tables: string, system: string, name: string) =>
    tables
      .split('### System ')
      .find((t) => t.startsWith(system))!
      .split('\n')
      .find((line) => line.startsWith(`| \`${name}\` |`));

  it('list every parameter of every system once, with its meaning', () => {
    const tables = systemTables();
    for (const system of SYSTEM_IDS) {
      for (const name of Object.keys(SYSTEMS[system].params)) {
        assert.ok(row(tables, system, name)?.includes(PARAM_MEANINGS[system][name]!), `${system} ${name}`);
      }
    }
  });

  it('say what the widget sends, read from the requests it builds', () => {
    const tables = systemTables();
    assert.match(row(tables, 'A', 'confirmation_type')!, /\| always: `redirect` \|$/);
    assert.match(
      row(tables, 'A', 'preferred_method')!,
      /exactly when `save_payment_method` is `true`.*`true` when the payer saves/,
    );
    assert.match(row(tables, 'A', 'cancel_payment')!, /`true` when the payer only links the card \|$/);
    assert.match(row(tables, 'A', 'payment_method_data')!, /\| never \|$/);
    assert.match(row(tables, 'C', 'return_url')!, /\| URL \| always \|/);
    assert.equal(row(tables, 'B', 'confirmation_type'), undefined, 'B takes no confirmation_type');
  });

  it('fail the build when a parameter has no meaning, or a meaning names no parameter', () => {
    const meaning = PARAM_MEANINGS.B.name!;
    try {
      delete PARAM_MEANINGS.B.name;
      assert.throws(systemTables, /PARAM_MEANINGS\.B: no meaning for name/);
      PARAM_MEANINGS.B.name = meaning;
      PARAM_MEANINGS.C.nickname = 'a name the system does not take';
      assert.throws(systemTables, /no such parameter: nickname/);
    } finally {
      PARAM_MEANINGS.B.name = meaning;
      delete PARAM_MEANINGS.C.nickname;
    }
  });
});

describe('the error codes', () => {
  it('list every code of the closed set once, with its statuses', () => {
    const table = errorTable();
    for (const code of ERROR_CODES) assert.equal(table.split(`| \`${code}\` |`).length, 2, code);
    assert.match(table, /\| `billing_unavailable` \| 502, 503 \|/);
  });
});
