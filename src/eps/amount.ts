/**
 * Money as text. Amounts are carried as canonical decimal strings ("1500.50") and compared as integer
 * minor units (bigint); they never go through binary floating-point arithmetic.
 */

/** A plain decimal with at most two decimals, no sign, no exponent, no grouping. */
const DECIMAL = /^(\d{1,15})(?:\.(\d{1,2}))?$/;

/** Amounts are validated up to this many integer digits before any bound is applied. */
export const MAX_INTEGER_DIGITS = 15;

/**
 * Turns a JSON amount (a decimal string, or a JSON number) into integer minor units, or `null` when it is not a
 * plain decimal with at most two decimals. A JSON number is read through its shortest round-trip text, which is
 * exact for every amount of up to 15 significant digits.
 */
export function toMinorUnits(amount: unknown): bigint | null {
  let text: string;
  if (typeof amount === 'string') text = amount.trim();
  else if (typeof amount === 'number' && Number.isFinite(amount)) text = String(amount);
  else return null;
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Integer minor units back to the canonical two-decimal text: 150050n → "1500.50". */
export function formatMinorUnits(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** The canonical two-decimal text of an amount, or `null` when it is not a valid amount text. */
export function canonicalAmount(amount: unknown): string | null {
  const minor = toMinorUnits(amount);
  return minor === null ? null : formatMinorUnits(minor);
}

/** Why an amount is refused, or `null` when it is acceptable: greater than zero and at most `max`. */
export function amountProblem(amount: unknown, max: bigint): AmountProblem | null {
  if (typeof amount === 'string' && /^\s*-/.test(amount)) return 'amount_positive';
  if (typeof amount === 'number' && amount < 0) return 'amount_positive';
  if (typeof amount === 'string' && /^\s*\d+\.\d{3,}\s*$/.test(amount)) return 'amount_decimals';
  if (typeof amount === 'number' && Number.isFinite(amount) && /\.\d{3,}$/.test(String(amount))) {
    return 'amount_decimals';
  }
  const minor = toMinorUnits(amount);
  if (minor === null) return 'amount_format';
  if (minor <= 0n) return 'amount_positive';
  if (minor > max) return 'amount_max';
  return null;
}

export type AmountProblem = 'amount_format' | 'amount_decimals' | 'amount_positive' | 'amount_max';
