/**
 * `npm run size`: the weight of the bundles pages load (Lit included): raw, gzip and brotli bytes. Fails when a gzip
 * size is above its budget (1 kB = 1000 bytes, as Vite prints it). Run `npm run build` first.
 * The budget is the measured weight rounded up to the next 50 B, and grows only for a measured reason (the history is
 * in CHANGELOG.md): 21.55 kB for the payment page's `dist/billing-pay.js` — 19.55 kB, then +47 B for the lookup kinds
 * as data and the one error module, +730 B for the autopayment disclosure a saved method needs (what is charged, when
 * with N from `/config`, how to switch it off, the merchant's terms; en and ru), +971 B for the payer's return (the
 * remembered attempt, B's own failure address, the message in en and ru, `billing-pay-return`), and +262 B for that
 * return made strict (a stored attempt checked before it is believed, Back and reload not taken for a return, texts
 * true after a decline too) and a locale `Intl` refuses, +24 B for a relative `return-url`: 21,536 B measured; then
 * 24.30 kB, +2,704 B for the payer-facing redesign (system tiles with logo slots, the one receipt contact, the amount
 * on Pay by `Intl`, the skeleton, the duplicate payment question, the result screen, the host's reset of inherited
 * styles; en and ru): 24,240 B measured. Both languages stay in the one SRI-pinned bundle; a third would come as an
 * opt-in module. The "My account" bundle with both elements: 26.60 kB (26,525 B).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const BUDGETS = { 'dist/billing-pay.js': 24_300, 'dist/billing-pay-account.js': 26_600 };
export const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;

export interface Weight {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
  budget: number;
}

/** The weight of each budgeted bundle as built; throws when one is missing. */
export function weigh(): Weight[] {
  return Object.entries(BUDGETS).map(([file, budget]) => {
    let code: Buffer;
    try {
      code = readFileSync(new URL(`../${file}`, import.meta.url));
    } catch {
      throw new Error(`${file} is missing: run \`npm run build\` first.`);
    }
    const gzip = gzipSync(code, { level: 9 }).length;
    const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    return { file, raw: code.length, gzip, brotli, budget };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let weights: Weight[];
  try {
    weights = weigh();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  let over = false;
  for (const { file, raw, gzip, brotli, budget } of weights) {
    console.log(`${file}: ${kB(raw)} raw (${raw} B), ${kB(gzip)} gzip (${gzip} B), ${kB(brotli)} brotli`);
    if (gzip > budget) {
      console.error(`  over budget: ${kB(gzip)} gzip > ${kB(budget)}`);
      over = true;
    } else {
      console.log(`  within the ${kB(budget)} gzip budget (${kB(budget - gzip)} left)`);
    }
  }
  if (over) process.exit(1);
}
