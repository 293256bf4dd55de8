/** The bundles' weight as `npm run size` measures it, for docs/embedding.md: made from the build itself. */
import { weigh } from '../size.js';
import { table } from './markdown.js';

const WHAT: Record<string, string> = {
  'dist/billing-pay.js': '`<billing-pay>`',
  'dist/billing-pay-account.js': 'both elements',
};

const bytes = (n: number) => `${n.toLocaleString('en')} B`;

export function weightTable(): string {
  return table(
    ['bundle', 'raw', 'gzip', 'brotli', 'gzip budget'],
    weigh().map(({ file, raw, gzip, brotli, budget }) => [
      `\`${file}\` (${WHAT[file] ?? ''})`,
      bytes(raw),
      bytes(gzip),
      bytes(brotli),
      bytes(budget),
    ]),
  );
}
