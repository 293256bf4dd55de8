/**
 * Everything `<billing-pay>` tells the payer, in one place and in the language of its texts: the line of each state
 * (loading, refused, sending, redirecting, the duplicate question, an error), each field's problem, and what a
 * return from the payment page means.
 */
import { LOOKUPS, type LookupKind } from '../eps/lookup.js';
import type { FormView } from './form-model.js';
import { unshownProblems } from './form-model.js';
import { problemOf, type Texts } from './i18n.js';
import { errorText, type PayError } from './pay-error.js';
import type { ReadyState } from './readiness.js';
import type { SubmitState } from './payment-sender.js';

/**
 * The text of a failure: the text of its code (an unknown one, such as a proxy's `http_502`, is a fault of the site),
 * with when to try again, and another system suggested only where one may help.
 */
export function failureText(t: Texts, locale: string, failure: PayError, otherSystems: boolean): string {
  const other = failure.code === 'billing_rejected' && otherSystems ? ` ${t.labels.other_system}` : '';
  return errorText(t.errors, failure, locale, t.errors.internal_error) + other;
}

/** Why the form could not be shown: a page the relay does not allow, or anything else. */
export function loadFailureText(t: Texts, failure: PayError | null): string {
  if (failure?.code === 'origin_not_allowed') return t.labels.error_origin;
  return t.labels.error_config;
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

export interface StatusContext {
  t: Texts;
  locale: string;
  v: FormView;
  problems: Record<string, string>;
}

/** The live region's text in each state: progress, or what went wrong with what no field shows (the duplicate
 * question is the submit chain's, checkout.ts). */
export function statusText(c: StatusContext, ready: ReadyState, submit: SubmitState, loadFailure: PayError | null) {
  const { labels } = c.t;
  if (ready === 'loading') return labels.loading;
  if (ready === 'failed') return loadFailureText(c.t, loadFailure);
  if (!c.v.systems.length) return labels.no_systems;
  switch (submit.name) {
    case 'sending':
      return labels.sending;
    case 'redirecting':
      return labels.redirecting;
    case 'error': {
      const unshown = unshownProblems(c.v, c.problems).map(
        ([path, p]) => `${fieldLabel(c.t, c.v.kind, path)}: ${problemText(c.t, c.v.kind, path, p)}`,
      );
      return [failureText(c.t, c.locale, submit.failure, c.v.systems.length > 1), ...unshown].join(' ');
    }
    default:
      return '';
  }
}
