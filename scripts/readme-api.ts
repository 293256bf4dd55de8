/**
 * `npm run build`, after the manifest: the README's tables of each element's attributes, events, CSS parts and CSS
 * custom properties, made from `custom-elements.json` (itself made from the components' JSDoc), between the markers
 * `<!-- api:start -->` and `<!-- api:end -->`. `--check` changes nothing and fails when the README is out of date;
 * test/widget-ssr/readme-api.test.ts does the same in `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Item {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
  fieldName?: string;
}
interface Declaration {
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  attributes?: Item[];
  events?: Item[];
  cssParts?: Item[];
  cssProperties?: Item[];
}
export interface Manifest {
  modules: { declarations?: Declaration[] }[];
}

const START = '<!-- api:start -->';
const END = '<!-- api:end -->';

/** A table cell: one line, `|` escaped. */
const cell = (text = '') =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replaceAll('|', '\\|')
    .trim();
const code = (text?: string) => (text ? `\`${cell(text)}\`` : '');

function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '';
  return (
    [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n') + '\n'
  );
}

/** The Markdown of every element of the manifest, in the manifest's order. */
export function apiTables(manifest: Manifest): string {
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
  return elements
    .map((d) =>
      [
        `### \`<${d.tagName}>\`\n\n${cell(d.summary)}\n`,
        table(
          ['attribute', 'property', 'type', 'default', 'description'],
          (d.attributes ?? []).map((a) => [
            code(a.name),
            code(a.fieldName),
            code(a.type?.text),
            code(a.default),
            cell(a.description),
          ]),
        ),
        table(
          ['event', 'description'],
          (d.events ?? []).map((e) => [code(e.name), cell(e.description)]),
        ),
        table(
          ['CSS part', 'description'],
          (d.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
        ),
        table(
          ['CSS custom property', 'default', 'description'],
          (d.cssProperties ?? []).map((p) => [code(p.name), cell(p.default), cell(p.description)]),
        ),
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
}

/** The README with its API section made anew from the manifest. */
export function withApiTables(readme: string, manifest: Manifest): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n<!-- made by scripts/readme-api.ts from custom-elements.json: npm run build -->\n\n${apiTables(manifest)}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../', import.meta.url);
  const readmePath = new URL('README.md', root);
  const readme = readFileSync(readmePath, 'utf8');
  const made = withApiTables(
    readme,
    JSON.parse(readFileSync(new URL('custom-elements.json', root), 'utf8')) as Manifest,
  );
  if (process.argv.includes('--check')) {
    if (made !== readme) {
      console.error('README.md: the element API tables differ from custom-elements.json; run npm run build');
      process.exit(1);
    }
  } else if (made !== readme) {
    writeFileSync(readmePath, made);
    console.log('README.md: element API tables updated from custom-elements.json');
  }
}
