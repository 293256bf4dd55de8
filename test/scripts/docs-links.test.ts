/**
 * Every relative link of the README, CONTRIBUTING, the CHANGELOG and the pages under docs/ leads somewhere: its file
 * exists, and its `#anchor` is a heading of that page (GitHub's slugs: lower case, punctuation dropped, spaces to
 * hyphens, a repeated heading numbered).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The page without its fenced code blocks and inline code spans (a `#` or `[x](y)` there is no heading or link). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors of a page's headings, as GitHub makes them. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n ? `${slug}-${n}` : slug);
  }
  return found;
}

/** Each relative link of a page: `[text](target)` and `![alt](target)`, outside code. */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('links between the docs', () => {
  it('find anchors the way GitHub makes them', () => {
    const made = anchors("# `GET /config`\n## Payment systems' parameters\n## In-process, for tests\n## A\n## A\n");
    assert.deepEqual([...made], ['get-config', 'payment-systems-parameters', 'in-process-for-tests', 'a', 'a-1']);
    assert.deepEqual([...anchors('```sh\n# a comment\n```\n')], []);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link leads to a file, and its anchor to a heading`, () => {
      const text = readFileSync(join(root, page), 'utf8');
      const broken: string[] = [];
      for (const target of links(text)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path ? join(dirname(join(root, page)), decodeURI(path)) : join(root, page);
        if (!existsSync(file)) {
          broken.push(`${target}: no ${relative(root, file)}`);
          continue;
        }
        if (anchor && (statSync(file).isDirectory() || !anchors(readFileSync(file, 'utf8')).has(anchor)))
          broken.push(`${target}: no heading #${anchor} in ${relative(root, file)}`);
      }
      assert.deepEqual(broken, []);
    });
  }
});
