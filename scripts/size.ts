/**
 * `npm run size`: the weight of the bundle a page loads, `dist/billing-pay.js` (Lit included): raw, gzip and brotli
 * bytes. Fails when the gzip size is above the budget (issue 5: 20 kB, aiming at 14 kB; 1 kB = 1000 bytes, as Vite
 * prints it). Run `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const FILE = 'dist/billing-pay.js';
const BUDGET_GZIP = 20_000;

let code: Buffer;
try {
  code = readFileSync(new URL(`../${FILE}`, import.meta.url));
} catch {
  console.error(`${FILE} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
const gzip = gzipSync(code, { level: 9 }).length;
const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;

console.log(`${FILE}: ${kB(code.length)} raw (${code.length} B), ${kB(gzip)} gzip (${gzip} B), ${kB(brotli)} brotli`);
if (gzip > BUDGET_GZIP) {
  console.error(`Over budget: ${kB(gzip)} gzip > ${kB(BUDGET_GZIP)}.`);
  process.exit(1);
}
console.log(`Within the ${kB(BUDGET_GZIP)} gzip budget (${kB(BUDGET_GZIP - gzip)} left).`);
