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

/** The symbol of an ISO code (`₽`), else the text as given. */
export function currencySymbol(currency: string, locale: string): string {
  return currencyParts(currency, locale)?.find((p) => p.type === 'currency')?.value ?? currency;
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
