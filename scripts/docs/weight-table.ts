/** The bundles' weight as `npm run size` measures it, for docs/embedding.md: made from the build itself. */
import { weigh } from '../size.js';
import { table } from './markdown.js';

const WHAT: Record<string, string> = {
  'dist/billing-pay.js': '`<billing-pay>`, the first screen',
  'dist/billing-pay.js and all it may load': 'with the files it loads later: the Russian texts, the late modules',
  'dist/billing-pay-account.js': 'both elements',
};

const bytes = (n: number) => `${n.toLocaleString('en')} B`;

export function weightTable(): string {
  return table(
    ['bundle', 'raw', 'gzip', 'brotli', 'gzip budget'],
    weigh().map(({ file, raw, gzip, brotli, budget }) => [
      `${file.replace(/^dist\/\S+/, (name) => `\`${name}\``)} (${WHAT[file] ?? ''})`,
      bytes(raw),
      bytes(gzip),
      bytes(brotli),
      bytes(budget),
    ]),
  );
}
