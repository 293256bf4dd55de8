/**
 * What the submit chain tells the payer (it loads with it, late/pay.late.ts): the text of a failure, of each field's
 * problem and of the problems no field shows, in the language of the element's texts, which are whole by then.
 */
import { LOOKUPS, type LookupKind } from '../eps/lookup.js';
import { unshownProblems, type FormView } from './form-model.js';
import { problemOf, type FirstTexts, type Texts } from './i18n.js';
import { errorText } from './error-text.js';
import type { PayError } from './pay-error.js';

/**
 * The element's texts with the submit chain's: a language file is whole, and English is completed as this module
 * loads (`addEnglish`); anything else is a fault of the build.
 */
export function whole(t: FirstTexts): Texts {
  if (!('problems' in t && 'missing' in t)) throw new Error('billing-pay: the submit chain came without its texts');
  return t as Texts;
}

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

/** The status line of a failure: its text, then each problem no field shows with the name of what it is about. */
export function errorLine(
  t: Texts,
  locale: string,
  v: FormView,
  problems: Record<string, string>,
  failure: PayError,
): string {
  const unshown = unshownProblems(v, problems).map(
    ([path, p]) => `${fieldLabel(t, v.kind, path)}: ${problemText(t, v.kind, path, p)}`,
  );
  return [failureText(t, locale, failure, v.systems.length > 1), ...unshown].join(' ');
}
