/**
 * `.env.example`: every variable of the relay's one table (config-variables.ts), grouped, each with its meaning;
 * required and secret ones left for the merchant. `npm run build` writes it to the repository's `.env.example`
 * (scripts/docs-tables.ts); `billing-pay-relay init` (cli.ts) writes it as a starter `.env`.
 */
import { CONFIG_GROUPS, VARIABLES, type ConfigGroup, type Variable } from './variables.js';

export function envExample(): string {
  const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
  const plain = (markdown: string) => markdown.replace(/\*\*|`/g, '');
  const lines = [
    '# The relay’s configuration (made from src/relay/config/variables.ts; billing-pay-relay --help lists it too).',
    '# Fill in the required values; a variable set in the environment wins over .env.',
  ];
  for (const group of Object.keys(CONFIG_GROUPS) as ConfigGroup[]) {
    lines.push('', `# --- ${CONFIG_GROUPS[group]} ---`);
    for (const [name, v] of entries.filter(([, v]) => v.group === group)) {
      const tags = [v.required && 'required', v.secret && `secret; or ${name}_FILE`].filter(Boolean).join(', ');
      lines.push(`# ${tags ? `(${tags}) ` : ''}${plain(v.description)}.`, `${name}=${v.default ?? v.example ?? ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
