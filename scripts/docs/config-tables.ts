/**
 * The relay's configuration as the docs and `.env.example` give it, made from its one table
 * (src/relay/config-variables.ts): docs/relay.md's `config` part, and the whole of `.env.example`.
 */
import { CONFIG_GROUPS, VARIABLES, type ConfigGroup, type Variable } from '../../src/relay/config-variables.js';
import { cell, table } from './markdown.js';

const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
const groups = Object.keys(CONFIG_GROUPS) as ConfigGroup[];

/** One table per group: variable, required, default, meaning. */
export function configTables(): string {
  return groups
    .map((group) => {
      const rows = entries
        .filter(([, v]) => v.group === group)
        .map(([name, v]) => {
          const empty = v.empty ? ` (empty: ${v.empty})` : '';
          const secret = v.secret ? ' *Secret: never logged or served.*' : '';
          return [
            `\`${name}\``,
            v.required ? 'yes' : '',
            v.default ? `\`${cell(v.default)}\`` : '',
            `${cell(v.description)}${empty}.${secret}`,
          ];
        });
      return `### ${CONFIG_GROUPS[group]}\n\n${table(['variable', 'required', 'default', 'meaning'], rows)}`;
    })
    .join('\n');
}

/** `.env.example`: every variable, grouped, each with its meaning; required and secret ones left for the merchant. */
export function envExample(): string {
  const plain = (markdown: string) => markdown.replace(/\*\*|`/g, '');
  const lines = [
    '# The relay’s configuration (made by npm run build from src/relay/config-variables.ts).',
    '# cp .env.example .env, then fill in the required values; a variable set in the environment wins over .env.',
  ];
  for (const group of groups) {
    lines.push('', `# --- ${CONFIG_GROUPS[group]} ---`);
    for (const [name, v] of entries.filter(([, v]) => v.group === group)) {
      const tags = [v.required && 'required', v.secret && 'secret'].filter(Boolean).join(', ');
      lines.push(`# ${tags ? `(${tags}) ` : ''}${plain(v.description)}.`, `${name}=${v.default ?? v.example ?? ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
