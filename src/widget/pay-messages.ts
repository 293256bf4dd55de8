/**
 * What `<billing-pay>`'s first screen tells the payer, in the language of its texts: the line of each state (loading,
 * refused, sending, redirecting) and a failure's words before the submit chain is here (a part that could not be
 * loaded). What the submit chain says — a payment's failure, each field's problem, the duplicate question — comes
 * with it (checkout-messages.ts, checkout.ts).
 */
import type { FormView } from './form-model.js';
import type { FirstTexts } from './i18n.js';
import type { PayError } from './pay-error.js';
import type { ReadyState } from './readiness.js';
import type { SubmitState } from './payment-sender.js';

/** Why the form could not be shown: a page the relay does not allow, or anything else. */
export function loadFailureText(t: FirstTexts, failure: PayError | null): string {
  if (failure?.code === 'origin_not_allowed') return t.labels.error_origin;
  return t.labels.error_config;
}

/** A failure's words from the first screen's texts: a late module that could not be had, else a fault of the site. */
export function firstFailureText(t: FirstTexts, failure: PayError): string {
  return failure.code === 'load_failed' ? t.errors.load_failed : t.errors.internal_error;
}

export interface StatusContext {
  t: FirstTexts;
  locale: string;
  v: FormView;
  /** The status line of a failure, from the submit chain once it is here. */
  errorLine?: (failure: PayError) => string;
}

/** The live region's text in each state: progress, or what went wrong (the duplicate question is checkout.ts's). */
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
    case 'error':
      return c.errorLine ? c.errorLine(submit.failure) : firstFailureText(c.t, submit.failure);
    default:
      return '';
  }
}
