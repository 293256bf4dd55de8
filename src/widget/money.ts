/**
 * An amount with its currency, for the Amount label and the Pay button: an ISO 4217 code (`RUB`) is written by `Intl`
 * with the locale's symbol and its place (`1 500,50 ₽`, `₽1,500.50`); any other `currency` text follows the number.
 * The number itself is `formatAmount`'s, exact.
 */
import { formatAmount } from './amount-input.js';
import { numberFormatOf } from './formats.js';

/** `Intl`'s parts of a currency amount for an ISO code, or `null` for any other text. */
function currencyParts(currency: string, locale: string): Intl.NumberFormatPart[] | null {
  if (!/^[a-z]{3}$/i.test(currency)) return null;
  try {
    return numberFormatOf(locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).formatToParts(1);
  } catch {
    return null;
  }
}

/**
 * Narrow symbols of common ISO codes, keyed by the space-separated tags that write them alike, in lower case
 * (`"ru ru-ru"`), made by `Intl` at build time (vite.config.ts): the first screen's Amount label then builds no
 * `Intl.NumberFormat`, whose first use costs a phone tens of milliseconds.
 */
declare const __BP_CURRENCY_SYMBOLS__: Record<string, Record<string, string>> | undefined;

function builtSymbol(currency: string, locale: string): string | undefined {
  if (typeof __BP_CURRENCY_SYMBOLS__ !== 'object') return undefined;
  const tag = locale.toLowerCase();
  for (const [tags, symbols] of Object.entries(__BP_CURRENCY_SYMBOLS__))
    if (tags.split(' ').includes(tag)) return symbols[currency];
  return undefined;
}

/** The symbol of an ISO code (`₽`), else the text as given. */
export function currencySymbol(currency: string, locale: string): string {
  return (
    builtSymbol(currency, locale) ??
    currencyParts(currency, locale)?.find((p) => p.type === 'currency')?.value ??
    currency
  );
}

/** A canonical amount (`"1500.50"`) with the currency, as the locale writes it. */
export function formatMoney(canonical: string, locale: string, currency: string): string {
  const number = formatAmount(canonical, locale);
  const parts = currencyParts(currency, locale);
  if (!parts) return `${number} ${currency}`.trim();
  let written = false;
  return parts
    .map((p) => {
      if (p.type === 'currency' || p.type === 'literal') return p.value;
      if (written) return '';
      written = true;
      return number;
    })
    .join('');
}
