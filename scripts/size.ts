/**
 * `npm run size`: the weight of what pages load (Lit included): raw, gzip and brotli bytes. Fails when a gzip size is
 * above its budget (1 kB = 1000 bytes, as Vite prints it). Run `npm run build` first.
 * A budget is the measured weight rounded up to the next 50 B, and grows only for a measured reason (the history is in
 * CHANGELOG.md). Two kinds of budget:
 * - the main bundle, `dist/billing-pay.js`, pinned by the page's `integrity`: what the first screen needs, on every
 *   page view's critical path. 20.45 kB: 21,536 B measured before the Russian texts left it for a file of their own
 *   (-1,629 B), then +506 B for the loader of late modules (the pinned script, the loan of the bundle's modules) with
 *   the payment request as the first late module: 20,413 B measured; then 23.75 kB: +3,286 B for the designed
 *   checkout (system tiles with logo slots, one contact field, the comment behind a link, the amount on Pay, a
 *   skeleton of the form's size, the result screen on return, the duplicate question, the host's reset of every
 *   inherited property), the return recognised in a new tab and the refusal to act in a foreign frame: 23,699 B;
 *   then 23.8 kB: +46 B for "Try again" restoring every value sent (contact, name, comment, save): 23,745 B;
 *   then 23.65 kB: the return's storage and result screen left for a late module (-598 B; the bundle still takes the
 *   address's markers out at once), after +483 B for less work before ready (texts layered once per change, the return
 *   and the formatters in idle time, a skeleton without layout shift for any offer): 23,630 B; then 23.9 kB: +229 B for
 *   a first screen without `Intl.NumberFormat` (the Amount label's symbol of common currencies, made at build time:
 *   -90 ms of a 4 × slower CPU) and `/config` asked for before the first render, which waits for it a moment (the
 *   form drawn once, no skeleton when `/config` is preloaded): 23,859 B; then 25 kB: +1,130 B for templates prepared at build time
 *   (`@lit-labs/compiler`; Lit's prepare step was half of the ready form's render: about -40 ms before ready at 4 ×
 *   CPU against +4.6 ms for the bytes on Slow 4G): 24,989 B; then 25.1 kB: +83 B for a relay or session changed
 *   before the first form (one load per change, one ready event for the form shown): 25,072 B; then 25.05 kB: -23 B,
 *   the readiness's unused "first ready" gone and the symbol table's tags lower-cased by the build: 25,049 B; then
 *   22.55 kB: -2,520 B, the submit chain left for the payment path's late module (the form's check with the model's
 *   request rules, the sending, the duplicate question; the build borrows a module of the bundle only when the bundle
 *   keeps every name the late module takes from it): 22,529 B; then 21.75 kB: -790 B, the submit chain's English (its
 *   labels, the problems, the failures, "no agreement found") gone with it, and the model's table of every problem no
 *   longer kept by a bundler that took a literal of spreads for a side effect: 21,739 B; then 20.85 kB: -908 B, the
 *   autopayment disclosure with the submit chain, and `<billing-payment-methods>`'s English in that element's bundle
 *   alone: 20,831 B; then 20.9 kB: +62 B, after a review: one submit chain per element whoever asks first, and a press
 *   made before it arrived that counts only for an element still in the page, with its form, and (with Save on) after
 *   the disclosure was shown: 20,893 B; then 20.8 kB: -115 B, the submit chain's words (a payment's failure, the fields'
 *   problems, the status line's error) with it, the first screen typed to read only its own texts: 20,778 B; then
 *   20.85 kB: +24 B, V8's compile hint on the first line (all compiled at once, not function by function as the
 *   first screen runs: 16-26 ms sooner ready at 4 × CPU): 20,802 B; then 20.5 kB: -333 B, the loan to the late modules as one
 *   array of values per late module, read by position (no module path or export name written for it): 20,469 B; then
 *   20.35 kB: -163 B, the check for a foreign frame with the submit chain (the first screen does not act): 20,306 B;
 *   then 20.15 kB: -189 B, the attempt's return addresses, its remembering and its id with the submit chain:
 *   20,117 B; then 20.05 kB: -73 B, the form's model and the texts' helpers copied into the submit chain where the first screen does
 *   not keep what it takes (`unshownProblems`, `problemOf`), not kept in the bundle for it: 20,044 B; then 19.95 kB:
 *   -129 B, the result screen's English with the return's late module, each late module adding its English to the
 *   first screen's (`addEnglish`) instead of the submit chain lending the whole: 19,915 B; then 19.8 kB: -117 B,
 *   the wording of a failure (`errorText`, with `Intl.RelativeTimeFormat`) in a module of its own that the first
 *   screen does not need (its two failures have no `{wait}`): 19,798 B; then 19.6 kB: -225 B, the form reading a table
 *   of what it needs of each system, made by the build from `SYSTEMS` (`systemForms`), instead of `SYSTEMS` itself:
 *   19,573 B; then 19.2 kB: -378 B, of the object Lit's prepared templates take their part classes from, only those
 *   (not the server renderer's helpers beside them): 19,195 B; then 19.1 kB: -100 B, "Try again"'s values put back by
 *   the result screen's module: 19,095 B; then 19.05 kB: -77 B, a payment's refusal read with its fields and a
 *   duplicate's time by the submit chain (`paymentError`), the first screen's `relayError` reading only code, message
 *   and `Retry-After`: 19,018 B; then 19.05 kB: 19,013 B with the loan read when a late module runs (it was read
 *   before some of the values it lends existed); then 18.2 kB: -839 B, Lit's template parser left out (every template,
 *   the late modules' too, prepared at build time): 18,174 B; 18,196 B with the form kept usable while the tab's attempt is looked into; 18,165 B with the last of the parser's
 *   regular expressions gone (a `RegExp()` call marked pure) and the tab's attempt read for the page it returns to;
 *   then 17.6 kB: 18,184 B with one `pageOf` for the page of an address; -167 B, the return said by the return module,
 *   the late files' table written once, the host's `all: initial` and no amount read without one: 18,017 B; -417 B,
 *   Lit's features the widget does not use left out of the page bundles (directives, decorators, the polyfills' hooks,
 *   the registry of versions: scripts/build/lit-unused.ts): 17,600 B; then 17.55 kB: -71 B, one listener on the form for
 *   every control's `input` and `change`, one style sheet, the form's controls as a list: 17,529 B; then 17.7 kB: +130 B,
 *   the relay asked through `XMLHttpRequest` instead of `fetch` (the preloaded `/config` read without a `Response` and
 *   its body stream: about 9 ms sooner ready at 4 × CPU, untraced): 17,659 B;
 * - the whole set a page may load after it (the main bundle, then the files it pins: a language's texts, the late
 *   modules): 27.4 kB (27,353 B measured); then 29.1 kB: +1,710 B, the same changes, the return module compressed on
 *   its own and its loan of the bundle's modules: 29,063 B; then 29.3 kB: the same +229 B (29,284 B); then 30.45 kB: +1,130 B, the templates prepared at build time (30,414 B); then 30.5 kB: +83 B, the same change (30,497 B); then 32.3 kB: +1,756 B for the submit chain's move, mostly the late module's own copies of the model's stateless modules the bundle keeps in part (amount, lookup, systems, url, request…), loaded after ready: 32,253 B; then 32.55 kB: +263 B, the English the submit chain brings, compressed apart from the bundle's (32,516 B); then 32.1 kB: -445 B, the same changes (32,071 B); then 32.15 kB: +31 B, the review's changes (32,102 B); then 32.4 kB: +265 B, the submit chain's words on their own side (32,367 B); then 32.45 kB: the compile hint (32,383 B); then 32.2 kB: -228 B, the loan by position (32,155 B); then 32.3 kB: +105 B, the frame check and the attempt in the submit chain, which borrows the return's markers (32,260 B); then 32.3 kB: the model's copies (32,280 B); then 32.4 kB: +77 B, the result screen's English compressed in its own module (32,357 B); then 32.35 kB: the wording of a failure in the submit chain (32,320 B), and 32,338 B with the return module's own copy of `SYSTEMS`; then 32 kB: -378 B, Lit's part classes alone (31,960 B), 31,979 B with "Try again" in the return module; then 32.1 kB: `paymentError` (32,064 B); then 32.2 kB: +91 B, the loan read when a late module runs, and checked there (32,155 B); then 31.6 kB: -565 B, Lit's template parser left out, the late modules' templates prepared (+254 B of them) (31,590 B); then 31.65 kB: +22 B, the form kept usable while the tab's attempt is looked into (31,612 B); then 31.6 kB: the parser's last expression (31,579 B); then 31.3 kB: 31,587 B with one `pageOf`; -417 B, Lit's unused features, +91 B, the return module saying the return and the same changes (31,261 B); then 31.25 kB: -71 B, the same change (31,190 B); then 31.35 kB: +130 B, `XMLHttpRequest` (31,320 B).
 * The "My account" bundle with both elements: 25.55 kB (25,510 B measured); then 25.4 kB (25,398 B: it has no return); then 25.65 kB: the same +229 B (25,627 B); then 26.95 kB: +1,293 B, its templates prepared at build time (26,920 B); then 27.05 kB: +80 B, the same change (27,000 B); then 27 kB: 26,978 B; then 24.55 kB: -2,461 B, the submit chain's move (24,517 B); then 23.8 kB: -763 B, its English (23,754 B); then 23.2 kB: -575 B, the disclosure's move (23,179 B); then 23.3 kB: +79 B, the review's changes (23,258 B); then 23.15 kB: -127 B, the same change (23,131 B); then 23.2 kB: +28 B, the compile hint (23,159 B); then 22.85 kB: -351 B, the loan by position (22,808 B); then 22.6 kB: -246 B, the same changes (22,562 B); then 22.55 kB: -61 B, the same (22,501 B); then 22.45 kB: -100 B, the result screen's English (22,401 B); then 22.4 kB: 22,387 B; then 22.2 kB: -226 B, the systems' table for the form (22,161 B); then 21.8 kB: -380 B, Lit's part classes alone (21,781 B); then 21.7 kB: -106 B, "Try again" in the return module (21,675 B); then 21.65 kB: `paymentError` (21,602 B); then 21.6 kB: the compile hint on the payment page's bundle alone (21,577 B); then 20.75 kB: -837 B, Lit's template parser left out (20,740 B); then 20.8 kB: +22 B, the same fix (20,762 B); then 20.75 kB: the parser's last expression (20,730 B); then 20.2 kB: 20,740 B with one `pageOf`; -425 B, Lit's unused features, -152 B, the same changes (20,163 B); then 20.15 kB: -63 B, the same change (20,100 B); then 20.25 kB: +132 B, `XMLHttpRequest` (20,232 B).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Each budget: one file, or a set of files (the main bundle and every file it may load later). */
export const BUDGETS: Record<string, { files: () => string[]; budget: number }> = {
  'dist/billing-pay.js': { files: () => ['dist/billing-pay.js'], budget: 17_700 },
  'dist/billing-pay.js and all it may load': { files: () => ['dist/billing-pay.js', ...laterFiles()], budget: 31_350 },
  'dist/billing-pay-account.js': { files: () => ['dist/billing-pay-account.js'], budget: 20_250 },
};

/** The files a bundle loads later, pinned by it: a language's texts (`billing-pay-*.json`), the late modules. */
function laterFiles(): string[] {
  const dist = new URL('../dist/', import.meta.url);
  return readdirSync(dist)
    .filter((name) => /^billing-pay-[\w-]+\.(json|js)$/.test(name) && name !== 'billing-pay-account.js')
    .map((name) => `dist/${name}`);
}
export const kB = (n: number) => `${(n / 1000).toFixed(2)} kB`;

export interface Weight {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
  budget: number;
}

/** The weight of each budgeted file or set as built (a set's: the sum of its files'); throws when one is missing. */
export function weigh(): Weight[] {
  return Object.entries(BUDGETS).map(([file, { files, budget }]) => {
    const weights = filesOf(files).map((name) => {
      let code: Buffer;
      try {
        code = readFileSync(new URL(`../${name}`, import.meta.url));
      } catch {
        throw new Error(`${name} is missing: run \`npm run build\` first.`);
      }
      const gzip = gzipSync(code, { level: 9 }).length;
      const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      return { raw: code.length, gzip, brotli };
    });
    const sum = (key: 'raw' | 'gzip' | 'brotli') => weights.reduce((total, w) => total + w[key], 0);
    return { file, raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli'), budget };
  });
}

function filesOf(files: () => string[]): string[] {
  try {
    return files();
  } catch {
    throw new Error('dist/ is missing: run `npm run build` first.');
  }
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
