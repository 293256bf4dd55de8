/**
 * `npm run build`: the relay's configuration as the docs and `.env.example` give it, made from its one table
 * (src/relay/config-variables.ts): the README's table between `<!-- config:start -->` and `<!-- config:end -->`, and
 * the whole of `.env.example`. `--check` changes nothing and fails when either is out of date;
 * test/scripts/config-docs.test.ts does the same in `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_GROUPS, VARIABLES, type ConfigGroup, type Variable } from '../src/relay/config-variables.js';
import { envExample } from '../src/relay/env-example.js';

const START = '<!-- config:start -->';
const END = '<!-- config:end -->';

const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
const cell = (text: string) => text.replaceAll('|', '\\|');

/** One table per group: variable, required, default, meaning. */
export function configTables(): string {
  return (Object.keys(CONFIG_GROUPS) as ConfigGroup[])
    .map((group) => {
      const rows = entries
        .filter(([, v]) => v.group === group)
        .map(([name, v]) => {
          const fallback = v.default ? `\`${cell(v.default)}\`` : '';
          const empty = v.empty ? ` (empty: ${v.empty})` : '';
          const secret = v.secret ? ' *Secret: never logged or served.*' : '';
          return `| \`${name}\` | ${v.required ? 'yes' : ''} | ${fallback} | ${cell(v.description)}${empty}.${secret} |`;
        });
      return [
        `#### ${CONFIG_GROUPS[group]}`,
        '',
        '| variable | required | default | meaning |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n');
    })
    .join('\n\n');
}

/** `.env.example`: made by the relay itself too (`billing-pay-relay init`), so its one generator lives beside it. */
export { envExample };

export function withConfigTables(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n<!-- made by scripts/config-docs.ts from src/relay/config-variables.ts: npm run build -->\n\n${configTables()}\n\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../', import.meta.url);
  const files = [
    { url: new URL('README.md', root), make: withConfigTables },
    { url: new URL('.env.example', root), make: () => envExample() },
  ];
  let stale = false;
  for (const { url, make } of files) {
    const now = readFileSync(url, 'utf8');
    const made = make(now);
    if (made === now) continue;
    if (process.argv.includes('--check')) {
      console.error(`${fileURLToPath(url)}: out of date with src/relay/config-variables.ts; run npm run build`);
      stale = true;
    } else {
      writeFileSync(url, made);
      console.log(`${fileURLToPath(url)}: updated from src/relay/config-variables.ts`);
    }
  }
  if (stale) process.exit(1);
}
