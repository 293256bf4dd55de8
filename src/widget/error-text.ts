/** The one function that words a failure for the payer (both elements, and `<billing-pay>`'s submit chain). */
import { fill } from './i18n.js';
import type { PayError } from './pay-error.js';

/**
 * What the payer is told of a failure: the text of its code in `texts`, else `fallback`, with `{wait}` filled in
 * (when to try again: the relay's `Retry-After`, else a minute) in the words of `locale`.
 */
export function errorText(
  texts: Partial<Record<string, string>>,
  failure: PayError,
  locale: string,
  fallback: string,
): string {
  const seconds = failure.retryAfter ?? 60;
  const [count, unit] = seconds >= 60 ? [Math.ceil(seconds / 60), 'minute' as const] : [seconds, 'second' as const];
  // Own keys only: a code such as `constructor` from a proxy is a code without a text.
  const text = Object.hasOwn(texts, failure.code) ? texts[failure.code] : undefined;
  return fill(text ?? fallback, { wait: new Intl.RelativeTimeFormat(locale).format(count, unit) });
}
