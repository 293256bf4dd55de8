/**
 * Money as a locale writes it: the group and decimal marks of `Intl.NumberFormat` (Latin digits), and the canonical
 * amount written with them — exactly, never through a float. The widget reads and shows amounts with it; the sandbox's
 * pages show them the same way.
 */
import { formatMinorUnits, toMinorUnits } from './amount.js';

/** `Intl.NumberFormat` with Latin digits, for `locale` or (an invalid tag) English. */
export function numberFormat(locale: string): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, { numberingSystem: 'latn' } as Intl.NumberFormatOptions);
  } catch {
    return new Intl.NumberFormat('en');
  }
}

/** The group and decimal marks of a locale: `[',', '.']` in English, `['\u00a0', ',']` in Russian. */
export function marks(format: Intl.NumberFormat): [group: string, decimal: string] {
  const parts = format.formatToParts(12345.6);
  const mark = (type: string, fallback: string) => parts.find((p) => p.type === type)?.value ?? fallback;
  return [mark('group', ','), mark('decimal', '.')];
}

/**
 * The canonical text shown the way the locale writes it, exactly (read by the model's `toMinorUnits`; the whole part
 * goes to `Intl` as a `bigint`, the cents as the model writes them):
 * `"1500.50"` → `1,500.50` (English), `1 500,50` (Russian, no-break space), `1.500,50` (German).
 */
export function formatAmount(canonical: string, locale: string): string {
  const minor = toMinorUnits(canonical);
  if (minor === null) return canonical;
  const format = numberFormat(locale);
  return `${format.format(minor / 100n)}${marks(format)[1]}${formatMinorUnits(minor).slice(-2)}`;
}
