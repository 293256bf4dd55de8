/**
 * `npm run size`: the weight of the bundles pages load (Lit included): raw, gzip and brotli bytes. Fails when a gzip
 * size is above its budget (1 kB = 1000 bytes, as Vite prints it). Run `npm run build` first.
 * The budget is the measured weight rounded up to the next 50 B, and grows only for a measured reason (the history is
 * in CHANGELOG.md): 20.55 kB for the payment page's `dist/billing-pay.js` — 19.36 kB, then +149 B for the payer's texts
 * of a key whose outcome is unknown and of one still in flight (en and ru), then +971 B (measured: 19,548 → 20,519 B)
 * for the payer's return (payment-return.ts: the remembered attempt, B's own failure address, the message in en and ru
 * and `billing-pay-return`). Both languages stay in the one SRI-pinned bundle; a third would come as an opt-in module.
 * The "My account" bundle with both elements gets ~0.5 kB more (the return: 21,871 → 22,876 B).
 */
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGETS = { 'dist/billing-pay.js': 20_550, 'dist/billing-pay-account.js': 22_900 };
const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;

let over = false;
for (const [file, budget] of Object.entries(BUDGETS)) {
  let code: Buffer;
  try {
    code = readFileSync(new URL(`../${file}`, import.meta.url));
  } catch {
    console.error(`${file} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
  const gzip = gzipSync(code, { level: 9 }).length;
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`${file}: ${kB(code.length)} raw (${code.length} B), ${kB(gzip)} gzip (${gzip} B), ${kB(brotli)} brotli`);
  if (gzip > budget) {
    console.error(`  over budget: ${kB(gzip)} gzip > ${kB(budget)}`);
    over = true;
  } else {
    console.log(`  within the ${kB(budget)} gzip budget (${kB(budget - gzip)} left)`);
  }
}
if (over) process.exit(1);
