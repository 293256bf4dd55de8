/** The shapes of the widget's texts: one language's texts, and what a page may override. */
import type { ErrorCode } from '../../eps/errors.js';
import type { LookupKey } from '../../eps/lookup.js';
import type { FormProblemKey } from '../../eps/messages.js';
import type { SystemId } from '../../eps/systems.js';
import type { FaultCode, WidgetErrorCode } from '../pay-error.js';
import type { CHECKOUT_LABELS_EN } from './en-checkout.js';
import type { FIRST_LABELS_EN } from './en.js';
import type { RETURN_LABELS_EN } from './en-return.js';
import type { METHODS_EN } from './en-methods.js';

export type Lang = 'en' | 'ru';

export type FirstLabelKey = keyof typeof FIRST_LABELS_EN;
export type ReturnLabelKey = keyof typeof RETURN_LABELS_EN;
export type LabelKey = FirstLabelKey | keyof typeof CHECKOUT_LABELS_EN | ReturnLabelKey;
/** What the payer is told for each error code; `{wait}`: when to try again ("in 30 seconds"). */
export type ErrorTexts = Record<Exclude<ErrorCode | WidgetErrorCode, FaultCode>, string> &
  Partial<Record<FaultCode, string>>;

/**
 * One language: labels, the names of the lookup kinds, the problem keys of a form, what the payer is told for each
 * error code, the "no agreement found" text of each lookup kind, and the payment systems' names (none built in).
 */
export interface Texts {
  labels: Record<LabelKey, string>;
  kinds: Record<LookupKey, string>;
  problems: Record<FormProblemKey, string>;
  errors: ErrorTexts;
  missing: Record<LookupKey, string>;
  systems: Partial<Record<SystemId, string>>;
}

/** The texts of `<billing-payment-methods>` in one language; `{title}` is the method's name as shown in the list. */
/**
 * What `<billing-pay>`'s first screen reads, and a failed load's words: every language has them from the start. The
 * rest of `Texts` comes with the submit chain for English (texts/en-checkout.ts); code that reads it runs there.
 */
export interface FirstTexts {
  labels: Record<FirstLabelKey, string>;
  kinds: Texts['kinds'];
  errors: Pick<ErrorTexts, 'load_failed' | 'internal_error'>;
  systems: Texts['systems'];
}

export type PaymentMethodsTexts = typeof METHODS_EN;

/**
 * Any of the texts of one language, each optional: what a page overrides. One object serves both elements:
 * `<billing-pay>` reads `labels`, `kinds`, `problems`, `errors`, `missing` and `systems`; `<billing-payment-methods>` reads
 * `methods` (and the one label it shares: `system_name`).
 */
export interface TextOverrides {
  labels?: Partial<Record<LabelKey, string>>;
  kinds?: Partial<Record<LookupKey, string>>;
  problems?: Partial<Record<FormProblemKey, string>>;
  errors?: Partial<Texts['errors']>;
  missing?: Partial<Record<LookupKey, string>>;
  /** The payment systems' names in this language (`{A: 'Bank card'}`); they win over `label-a`, `label-b`, `label-c`. */
  systems?: Partial<Record<SystemId, string>>;
  /** The texts of `<billing-payment-methods>`: the keys of `PAYMENT_METHODS_TEXTS.en`. */
  methods?: Partial<PaymentMethodsTexts>;
}

/**
 * What a page may set as the `texts` property (or, as JSON, the `texts` attribute): overrides for every language
 * (`{labels: {pay: 'Pay now'}}`), or per language tag (`{ru: {labels: {…}}, de: {labels: {…}, kinds: {…}}}`).
 * A tag that is not built in (`de`) becomes a language of its own: its overrides on top of English.
 */
export type TextsOption = TextOverrides | Record<string, TextOverrides>;

/** The texts and the locale (for `Intl`) an element speaks in. */
export interface Speech<T = Texts> {
  /** The locale of the texts, for `Intl` (`'ru-RU'`, `'de'`, `'en'`). */
  locale: string;
  t: T;
}
