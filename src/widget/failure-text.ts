/** What `<billing-pay>` tells the payer of a failure and of each problem, in the language of its texts. */
import { LOOKUP_KEYS, type LookupKind } from '../eps/lookup.js';
import { fill, problemOf, type Texts } from './i18n.js';
import type { PayError } from './relay-client.js';

/**
 * The text of a failure: the text of its code (an unknown one, such as a proxy's `http_502`, is a fault of the site),
 * with when to try again, and another system suggested only where one may help.
 */
export function failureText(t: Texts, locale: string, failure: PayError, otherSystems: boolean): string {
  const text = (t.errors as Record<string, string>)[failure.code] ?? t.errors.internal_error;
  const seconds = failure.retryAfter ?? 60;
  const [count, unit] = seconds >= 60 ? [Math.ceil(seconds / 60), 'minute' as const] : [seconds, 'second' as const];
  const other = failure.code === 'billing_rejected' && otherSystems ? ` ${t.labels.other_system}` : '';
  return fill(text, { wait: new Intl.RelativeTimeFormat(locale).format(count, unit) }) + other;
}

/** The text of a field's problem; "no agreement found" is worded for the lookup kind in use. */
export function problemText(t: Texts, kind: LookupKind, path: string, key: string): string {
  return problemOf(t, key, path === 'agreement_param_value' ? LOOKUP_KEYS[kind] : undefined);
}

/** The name of a field that has no control of its own in the form (a return address, a preset agreement…). */
export function fieldLabel(t: Texts, kind: LookupKind, path: string): string {
  if (path === 'agreement_param_value') return t.kinds[LOOKUP_KEYS[kind]];
  if (path === 'agreement_param_id') return t.labels.lookup_kind;
  if (path === 'system') return t.labels.system;
  if (/url/.test(path)) return t.labels.return_url;
  return path;
}
