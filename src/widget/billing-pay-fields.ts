/**
 * The controls of `<billing-pay>`'s form, drawn from its `FormView` (form-model.ts): payment systems, amount, lookup,
 * optional texts and the save switches, each with its problem next to it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { LOOKUPS } from '../eps/lookup.js';
import type { SystemId } from '../eps/systems.js';
import { linkHref } from '../eps/url.js';
import { failureText, fieldLabel, problemText } from './failure-text.js';
import type { FormView, TextField, ValueKey } from './form-model.js';
import { PATH_OF, unshownProblems } from './form-model.js';
import { fill, type Texts } from './i18n.js';
import type { ReadyState } from './readiness.js';
import type { PayError } from './pay-error.js';
import type { SubmitState } from './payment-sender.js';

/** What the controls show and whom they tell of a change. */
export interface FieldsContext {
  v: FormView;
  t: Texts;
  locale: string;
  problems: Record<string, string>;
  values: Record<ValueKey, string>;
  save: boolean;
  linkOnly: boolean;
  /** The attributes `label-a`, `label-b`, `label-c` and `currency`. */
  names: Record<SystemId, string>;
  currency: string;
  /** The autopayment disclosure: N of `/config`, and the attributes `methods-url` and `autopay-terms-url`. */
  autopay: { days: number; methods: string; terms: string };
  on: Record<'input' | 'system' | 'kind' | 'save' | 'linkOnly', (e: Event) => void>;
}

function error(c: FieldsContext, id: string, path: string): TemplateResult | typeof nothing {
  const problem = c.problems[path];
  return problem
    ? html`<p id=${id} class="error" part="error">${problemText(c.t, c.v.kind, path, problem)}</p>`
    : nothing;
}

function textField(c: FieldsContext, f: TextField): TemplateResult {
  const { labels } = c.t;
  const path = PATH_OF[f.name];
  const problem = c.problems[path];
  const id = `f-${f.name}`;
  let label: string;
  if (f.name === 'amount') label = c.currency ? fill(labels.amount_currency, { currency: c.currency }) : labels.amount;
  else if (f.name === 'lookupValue') label = c.t.kinds[LOOKUPS[c.v.kind].key];
  else label = labels[f.name];
  return html`<div class="field" part="field">
    <label for=${id} part="label"
      >${label}${f.optional ? html` <span class="optional">(${labels.optional})</span>` : nothing}</label
    >
    <input
      id=${id}
      name=${f.name}
      part="input"
      type=${f.type}
      inputmode=${f.inputmode ?? nothing}
      autocomplete=${f.autocomplete}
      maxlength="500"
      ?readonly=${f.readonly}
      ?required=${!f.optional}
      aria-invalid=${problem ? 'true' : 'false'}
      aria-describedby=${problem ? `${id}-error` : nothing}
      .value=${c.values[f.name]}
      @input=${c.on.input}
      @change=${c.on.input}
    />
    ${error(c, `${id}-error`, path)}
  </div>`;
}

/** A system's name: the page's `texts.systems`, else `label-a`…, else "System A". */
export function systemName(c: Pick<FieldsContext, 't' | 'names'>, id: SystemId): string {
  return c.t.systems[id] || c.names[id] || fill(c.t.labels.system_name, { id });
}

function systems(c: FieldsContext): TemplateResult {
  const { v, t } = c;
  const problem = c.problems.system;
  return html`<fieldset part="systems" aria-describedby=${problem ? 'system-error' : nothing}>
    <legend part="legend">${t.labels.system}</legend>
    <div class="options">
      ${v.systems.map(
        (s) => html`<span class="check">
          <input
            type="radio"
            part="radio"
            name="system"
            id="system-${s.id}"
            value=${s.id}
            aria-invalid=${problem ? 'true' : 'false'}
            .checked=${s.id === v.system?.id}
            @change=${c.on.system}
          />
          <label for="system-${s.id}" part="label">${systemName(c, s.id)}</label>
        </span>`,
      )}
    </div>
    ${error(c, 'system-error', 'system')}
  </fieldset>`;
}

/** The preset agreement, or the lookup kind chooser (when there is a choice); its value field is a text field. */
function lookup(c: FieldsContext): TemplateResult | typeof nothing {
  const { v, t } = c;
  if (v.preset) {
    return html`<p class="preset" part="preset"><span class="label">${t.kinds[LOOKUPS[v.kind].key]}:</span> ${v.preset}</p>`;
  }
  if (v.kinds.length < 2) return nothing;
  const problem = c.problems.agreement_param_id;
  return html`<div class="field" part="field">
    <label for="f-kind" part="label">${t.labels.lookup_kind}</label>
    <select
      id="f-kind"
      part="select"
      aria-invalid=${problem ? 'true' : 'false'}
      aria-describedby=${problem ? 'f-kind-error' : nothing}
      @change=${c.on.kind}
    >
      ${v.kinds.map((k) => html`<option value=${k} ?selected=${k === v.kind}>${t.kinds[LOOKUPS[k].key]}</option>`)}
    </select>
    ${error(c, 'f-kind-error', 'agreement_param_id')}
  </div>`;
}

/**
 * A checkbox and its label, then its hint if it has one. `error`: the id of the error that describes it ('' when it
 * has none; left out for a box that cannot be wrong); `about`: the id of another text that describes it too; without
 * `onChange` it is shown checked and disabled.
 */
function checkbox(
  id: string,
  label: string,
  checked: boolean,
  onChange?: (e: Event) => void,
  hint?: string | TemplateResult,
  error?: string,
  about?: string,
): TemplateResult {
  return html`<div class="check">
      <input
        type="checkbox"
        part="checkbox"
        id=${id}
        aria-invalid=${error === undefined ? nothing : error ? 'true' : 'false'}
        aria-describedby=${[error, hint && `${id}-hint`, about].filter(Boolean).join(' ') || nothing}
        ?disabled=${!onChange}
        .checked=${checked}
        @change=${onChange}
      />
      <label for=${id} part="label">${label}</label>
    </div>
    ${hint ? html`<p id="${id}-hint" class="hint" part="hint">${hint}</p>` : nothing}`;
}

/**
 * What autopayments charge, when (N of `/config`, in the locale's words: "1 day", "2 дня") and how to switch them off:
 * on the merchant's `methods-url`, else through the shop; then the merchant's terms. Links go where any link goes, the
 * whole page when the widget is in a frame (as the payment page does); the form's values survive Back.
 */
function disclosure(c: FieldsContext): TemplateResult {
  const { labels } = c.t;
  // An address that is not http(s) (`javascript:`…) gives no link.
  const [methods, terms] = [c.autopay.methods, c.autopay.terms].map((url) => linkHref(url, document.baseURI));
  const link = (href: string, text: string) => html`<a part="link" href=${href} target="_top">${text}</a>`;
  const [before, after] = labels.autopay_off.split('{link}');
  const days = new Intl.NumberFormat(c.locale, { style: 'unit', unit: 'day', unitDisplay: 'long' });
  return html`${fill(labels.autopay_hint, { days: days.format(c.autopay.days) })}
  ${methods ? html`${before}${link(methods, labels.autopay_methods)}${after}` : labels.autopay_ask}
  ${terms ? link(terms, labels.autopay_terms) : nothing}`;
}

/**
 * "Save payment method", and under it "Connect autopayments" (always on) with the autopayment disclosure, which
 * describes both boxes, and "Only link the card".
 */
function save(c: FieldsContext): TemplateResult | typeof nothing {
  const { v, t } = c;
  if (!v.canSave) return nothing;
  const path = v.saveParams.map((f) => `eps_params.${f}`).find((p) => c.problems[p]);
  return html`<div class="field" part="field">
    ${checkbox('f-save', t.labels.save, c.save, c.on.save, undefined, path ? 'f-save-error' : '', c.save ? 'f-autopay-hint' : '')}
    ${
      c.save
        ? html`${checkbox('f-autopay', t.labels.autopay, true, undefined, disclosure(c))}
        ${v.linkOnly ? checkbox('f-link-only', t.labels.link_only, c.linkOnly, c.on.linkOnly, t.labels.link_only_hint) : nothing}`
        : nothing
    }
    ${path ? error(c, 'f-save-error', path) : nothing}
  </div>`;
}

/** Every control of the form, in the order of `FormView.fields`. */
export function formFields(c: FieldsContext): TemplateResult {
  const [amount, ...rest] = c.v.textFields;
  const lookupValue = rest[0]?.name === 'lookupValue' ? rest.shift() : undefined;
  return html`${systems(c)} ${textField(c, amount!)} ${lookup(c)} ${lookupValue ? textField(c, lookupValue) : nothing}
  ${rest.map((f) => textField(c, f))} ${save(c)}`;
}

/** The text of the live region: progress, or what went wrong with the problems no control shows (a return address…). */
export function statusText(c: FieldsContext, state: ReadyState, submit: SubmitState, failure: PayError | null): string {
  const { labels } = c.t;
  if (state === 'loading') return labels.loading;
  if (state === 'failed') return labels.error_config;
  if (!c.v.systems.length) return labels.no_systems;
  if (submit === 'sending') return labels.sending;
  if (submit === 'redirecting') return labels.redirecting;
  if (submit !== 'error' || !failure) return '';
  const unshown = unshownProblems(c.v, c.problems).map(
    ([path, p]) => `${fieldLabel(c.t, c.v.kind, path)}: ${problemText(c.t, c.v.kind, path, p)}`,
  );
  return [failureText(c.t, c.locale, failure, c.v.systems.length > 1), ...unshown].join(' ');
}
