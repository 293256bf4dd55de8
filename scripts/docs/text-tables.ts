/**
 * The texts a page may replace through `texts`, for docs/embedding.md, and the field problems the relay answers, for
 * docs/relay.md: made from the texts themselves (src/widget/texts/, src/eps/messages.ts).
 */
import { PROBLEM_TEXTS_EN } from '../../src/eps/messages.js';
import { PAYMENT_METHODS_TEXTS, TEXTS } from '../../src/widget/i18n.js';
import { cell, table } from './markdown.js';

type Part = Record<string, string | undefined>;

/** One table per part of `texts` (key, English, Russian), each folded under its name. */
export function textTables(): string {
  const parts: [string, Part, Part][] = [
    ...(['labels', 'kinds', 'problems', 'errors', 'missing'] as const).map(
      (part): [string, Part, Part] => [part, TEXTS.en[part], TEXTS.ru[part]],
    ),
    ['methods', PAYMENT_METHODS_TEXTS.en, PAYMENT_METHODS_TEXTS.ru],
  ];
  return parts
    .map(([part, en, ru]) => {
      const keys = [...new Set([...Object.keys(en), ...Object.keys(ru)])];
      const rows = keys.map((key) => [`\`${key}\``, cell(en[key]), cell(ru[key])]);
      return `<details><summary><code>${part}</code>: ${keys.length} texts</summary>\n\n${table(['key', 'English', 'Russian'], rows)}\n</details>`;
    })
    .join('\n\n');
}

/** Every field problem key the relay may answer, with the English `message` it sends beside it. */
export function problemTable(): string {
  return table(
    ['problem', 'message'],
    Object.entries(PROBLEM_TEXTS_EN).map(([key, text]) => [`\`${key}\``, cell(text)]),
  );
}
