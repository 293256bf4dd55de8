/** What `<billing-pay>` tells the payer of a failure and of each problem, in the language of its texts. */
import { LOOKUPS, type LookupKind } from '../eps/lookup.js';
import { problemOf, type Texts } from './i18n.js';
import { errorText, type PayError } from './pay-error.js';

/**
 * The text of a failure: the text of its code (an unknown one, such as a proxy's `http_502`, is a fault of the site),
 * with when to try again, and another system suggested only where one may help.
 */
export function failureText(t: Texts, locale: string, failure: PayError, otherSystems: boolean): string {
  const other = failure.code === 'billing_rejected' && otherSystems ? ` ${t.labels.other_system}` : '';
  return errorText(t.errors, failure, locale, t.errors.internal_error) + other;
}

/** The text of a field's problem; "no agreement found" is worded for the lookup kind in use. */
export function problemText(t: Texts, kind: LookupKind, path: string, key: string): string {
  return problemOf(t, key, path === 'agreement_param_value' ? LOOKUPS[kind].key : undefined);
}

/** The name of a field that has no control of its own in the form (a return address, a preset agreement…). */
export function fieldLabel(t: Texts, kind: LookupKind, path: string): string {
  if (path === 'agreement_param_value') return t.kinds[LOOKUPS[kind].key];
  if (path === 'agreement_param_id') return t.labels.lookup_kind;
  if (path === 'system') return t.labels.system;
  if (/url/.test(path)) return t.labels.return_url;
  return path;
}
