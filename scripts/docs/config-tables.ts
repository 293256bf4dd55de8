/**
 * The relay's configuration as the docs and `.env.example` give it, made from its one table
 * (src/relay/config/variables.ts): docs/relay.md's `config` part, and the whole of `.env.example` (made by the relay's
 * own `envExample`, which `billing-pay-relay init` writes too).
 */
import { CONFIG_GROUPS, VARIABLES, type ConfigGroup, type Variable } from '../../src/relay/config/variables.js';
import { cell, table } from './markdown.js';

export { envExample } from '../../src/relay/config/env-example.js';

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
          const secret = v.secret
            ? ` *Secret: never logged or served; or read from a file: \`${name}_FILE\` names it ([operating.md](operating.md#secrets-from-files)).*`
            : '';
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
