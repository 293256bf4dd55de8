/**
 * The `Intl` formatters the widget writes with, each made once per locale and options: building one costs a phone
 * tens of milliseconds the first time (the locale's data), so the form makes those a payer's next step needs in idle
 * time once it is ready (`warmFormats`), not on the click that needs them.
 */
import { numberFormat } from '../eps/locale-amount.js';

const made = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function once<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = made.get(key) as T | undefined;
  if (!format) made.set(key, (format = make()));
  return format;
}

/** `Intl.NumberFormat(locale, options)`, made once; throws as it does (a currency that is no ISO code). */
export const numberFormatOf = (locale: string, options: Intl.NumberFormatOptions) =>
  once(`n${locale}${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** `Intl.DateTimeFormat(locale, options)`, made once. */
export const dateFormatOf = (locale: string, options: Intl.DateTimeFormatOptions) =>
  once(`d${locale}${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/** "1 day", "2 дня": N days in the locale's words. */
export const DAYS: Intl.NumberFormatOptions = { style: 'unit', unit: 'day', unitDisplay: 'long' };

/** Makes ahead what typing an amount and turning saving on need (the amount's marks, the days of the disclosure). */
export function warmFormats(locale: string): void {
  numberFormat(locale).formatToParts(1);
  numberFormatOf(locale, DAYS).format(1);
}
