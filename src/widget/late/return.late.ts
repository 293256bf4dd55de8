/**
 * The payer's return, loaded when the address names an attempt (beside `/config`) or a tab holds one, and before a
 * payment is sent (it remembers the attempt): the storage of attempts (return-store.ts), saying the return
 * (return-said.ts) and the result screen.
 */
import { html, type TemplateResult } from 'lit';
import { LOOKUPS, type LookupKind } from '../../eps/lookup.js';
import { systemName, type FieldsContext } from '../billing-pay-fields.js';
import type { BillingPayReturnDetail } from '../events.js';
import { dateFormatOf } from '../formats.js';
import { fill } from '../i18n.js';
import { formatMoney } from '../money.js';
import type { EntriesPatch } from '../payer-entries.js';
import type { ReturnFormValues } from '../payment-return.js';
import { formatAmount } from '../../eps/locale-amount.js';
import { addEnglish } from '../texts/catalog.js';
import { RETURN_LABELS_EN } from '../texts/en-return.js';
import type { FirstTexts, ReturnLabelKey } from '../texts/types.js';

addEnglish({ labels: RETURN_LABELS_EN });

export { forget, remember } from '../return-store.js';
export { found, show } from '../return-said.js';

/** What was sent, row by row: system, amount, agreement, payment id, time. */
export function resultRows(d: BillingPayReturnDetail, c: FieldsContext, system: string): [string, string][] {
  const labels = resultLabels(c.t);
  const { kinds } = c.t;
  const time = dateFormatOf(c.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(d.time));
  return [
    [labels.system, system],
    [labels.amount, formatMoney(d.amount, c.locale, c.currency)],
    [kinds[LOOKUPS[d.lookup as LookupKind].key], d.agreement],
    [labels.result_id, d.paymentId],
    [labels.result_time, time],
  ];
}

/**
 * The result screen in place of the form: the heading and the honest words under it (for the live region; the billing
 * tells no payment's outcome), what was sent, and the next step.
 */
export function resultScreen(
  d: BillingPayReturnDetail,
  c: FieldsContext,
  values: ReturnFormValues | null,
  onClose: (restore: EntriesPatch | null) => void,
): { said: TemplateResult; screen: TemplateResult } {
  const labels = resultLabels(c.t);
  const system = systemName(c, d.system);
  const sent = d.outcome === 'sent';
  return {
    said: html`<h2 class="title">${sent ? fill(labels.result_sent_title, { system }) : labels.result_failed_title}</h2><p class="meaning">${sent ? fill(labels.result_sent, { system }) : labels.result_failed}</p>`,
    screen: html`<dl class="result" part="result">
        ${resultRows(d, c, system).map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}
      </dl>
      <button part="button" type="button" @click=${() => onClose(sent ? null : tryAgain(d, c.locale, values))}>${sent ? labels.another : labels.retry}</button>`,
  };
}

/** The element's labels with the result screen's: a language file has them; English gets them as this module loads. */
function resultLabels(t: FirstTexts): FirstTexts['labels'] & Record<ReturnLabelKey, string> {
  if (!('result_id' in t.labels)) throw new Error('billing-pay: the result screen came without its texts');
  return t.labels as FirstTexts['labels'] & Record<ReturnLabelKey, string>;
}

/**
 * "Try again" after a payment not completed: the form as it was sent, every value of the remembered attempt (the
 * amount in the form's own locale); without them, the payment's own system, amount and agreement.
 */
function tryAgain(d: BillingPayReturnDetail, locale: string, values: ReturnFormValues | null): EntriesPatch {
  return {
    chosenSystem: d.system,
    chosenKind: d.lookup,
    values: {
      amount: formatAmount(d.amount, locale),
      lookupValue: d.agreement,
      ...(values && { contact: values.email || values.phone, name: values.name, comment: values.comment }),
    },
    ...(values && { save: values.save, linkOnly: values.linkOnly, commentOpen: values.comment !== '' }),
  };
}
