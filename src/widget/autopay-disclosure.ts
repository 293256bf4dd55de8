/**
 * The autopayment disclosure under "Connect autopayments", which comes with the submit chain (late/pay.late.ts): it is
 * read only once the payer saves a method, and Pay cannot send without the submit chain.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { linkHref } from '../eps/url.js';
import type { FieldsContext } from './billing-pay-fields.js';
import { DAYS, numberFormatOf } from './formats.js';
import { fill, type Texts } from './i18n.js';

/**
 * What autopayments charge, when (N of `/config`, in the locale's words: "1 day", "2 дня") and how to switch them off:
 * on the merchant's `methods-url`, else through the shop; then the merchant's terms. Links go where any link goes, the
 * whole page when the widget is in a frame (as the payment page does); the form's values survive Back.
 */
export function disclosure(c: FieldsContext, t: Texts): TemplateResult {
  const { labels } = t;
  // An address that is not http(s) (`javascript:`…) gives no link.
  const [methods, terms] = [c.autopay.methods, c.autopay.terms].map((url) => linkHref(url, document.baseURI));
  const link = (href: string, text: string) => html`<a part="link" href=${href} target="_top">${text}</a>`;
  const [before, after] = labels.autopay_off.split('{link}');
  return html`${fill(labels.autopay_hint, { days: numberFormatOf(c.locale, DAYS).format(c.autopay.days) })}
  ${methods ? html`${before}${link(methods, labels.autopay_methods)}${after}` : labels.autopay_ask}
  ${terms ? link(terms, labels.autopay_terms) : nothing}`;
}
