/**
 * `npm run build`, after the manifest: every part of the docs that mirrors code, made from its one source — the
 * embed snippets with this build's hashed bundle and integrity (README.md, docs/embedding.md, from dist/bundles.json);
 * the element tables and the bundles' weight (docs/embedding.md); the relay's configuration (docs/relay.md and the
 * whole of `.env.example`), its error codes and each payment system's parameters (docs/relay.md); the nginx
 * configuration that test/relay/nginx.test.ts runs (docs/operating.md).
 * `--check` changes nothing and fails when a file is out of date; test/scripts/docs-tables.test.ts does the same in
 * `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configTables, envExample } from './docs/config-tables.js';
import type { AttributeValue } from '../demo/playground-snippet.js';
import { EMBED_ATTRIBUTES, embedBlock } from './docs/embed-snippet.js';
import { elementTables, type Manifest } from './docs/element-tables.js';
import { errorTable } from './docs/error-table.js';
import { withPart, type GeneratedPart } from './docs/markdown.js';
import { systemTables } from './docs/system-tables.js';
import type { BundleManifest } from '../src/relay/assets/widget-assets.js';
import { problemTable, textTables } from './docs/text-tables.js';
import { weightTable } from './docs/weight-table.js';

const root = new URL('../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

/** A page's embed snippet for this build: the tags that load the hashed bundle, then the element with `attributes`. */
const embed = (attributes: [string, AttributeValue][]): GeneratedPart => ({
  name: 'embed',
  source: 'dist/bundles.json and scripts/docs/embed-snippet.ts',
  make: () => embedBlock(JSON.parse(read('dist/bundles.json')) as BundleManifest, attributes),
});

/** A file the build writes: its path from the repository's root, and how it is made from what it holds now. */
export interface Generated {
  file: string;
  make: (now: string) => string;
}

/** A page whose generated parts are made anew, the prose around them kept. */
const page = (file: string, parts: GeneratedPart[]): Generated => ({
  file,
  make: (now) => parts.reduce((text, part) => withPart(text, part, file), now),
});

export const GENERATED: Generated[] = [
  page('README.md', [embed([['lookup', '5 7']])]),
  page('docs/embedding.md', [
    embed(EMBED_ATTRIBUTES),
    {
      name: 'api',
      source: 'custom-elements.json (the elements’ JSDoc)',
      make: () => elementTables(JSON.parse(read('custom-elements.json')) as Manifest),
    },
    { name: 'weight', source: 'the built bundles (scripts/size.ts)', make: weightTable },
    { name: 'texts', source: 'src/widget/texts/en.ts and ru.ts', make: textTables },
  ]),
  page('docs/relay.md', [
    { name: 'config', source: 'src/relay/config/variables.ts', make: configTables },
    { name: 'errors', source: 'ERRORS in src/eps/errors.ts', make: errorTable },
    { name: 'problems', source: 'PROBLEM_TEXTS_EN in src/eps/messages.ts', make: problemTable },
    {
      name: 'systems',
      source: 'SYSTEMS and PARAM_MEANINGS in src/eps/systems.ts, and what src/widget/request.ts sends',
      make: systemTables,
    },
  ]),
  page('docs/operating.md', [
    {
      name: 'nginx',
      source: 'docs/deploy/nginx.conf, which test/relay/nginx.test.ts runs',
      make: () => `\`\`\`nginx\n${read('docs/deploy/nginx.conf')}\`\`\`\n`,
    },
  ]),
  { file: '.env.example', make: envExample },
];

/** The generated files that differ from what they hold, each with what it should hold. */
export function staleFiles(): { file: string; now: string; made: string }[] {
  return GENERATED.map(({ file, make }) => {
    const now = read(file);
    return { file, now, made: make(now) };
  }).filter(({ now, made }) => now !== made);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = staleFiles();
  if (process.argv.includes('--check')) {
    for (const { file } of stale) console.error(`${file}: a generated part is out of date; run npm run build`);
    if (stale.length) process.exit(1);
  } else {
    for (const { file, made } of stale) {
      writeFileSync(new URL(file, root), made);
      console.log(`${file}: generated parts updated`);
    }
  }
}
