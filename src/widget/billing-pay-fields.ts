/**
 * The controls of `<billing-pay>`'s form, drawn from its `FormView` (form-model.ts): payment systems as tiles, the
 * lookup, the amount, the receipt contact and the optional texts, the save switches, each with its problem next to
 * it, and the Pay button with the amount on it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { LOOKUPS } from '../eps/lookup.js';
import type { SystemId } from '../eps/systems.js';
import { parseAmountInput } from './amount-input.js';
import type { FormView, TextField, ValueKey } from './form-model.js';
import { PATHS_OF } from './form-model.js';
import { fill, type FirstTexts } from './i18n.js';
import { currencySymbol, formatMoney } from './money.js';

/** What the controls show and whom they tell of a change. */
export interface FieldsContext {
  v: FormView;
  t: FirstTexts;
  locale: string;
  problems: Record<string, string>;
  values: Record<ValueKey, string>;
  save: boolean;
  linkOnly: boolean;
  /** The attributes `label-a`, `label-b`, `label-c`. */
  names: Record<SystemId, string>;
  /** The attribute `currency`: an ISO code (`RUB`) or any text. */
  currency: string;
  /** The autopayment disclosure: N of `/config`, and the attributes `methods-url` and `autopay-terms-url`. */
  autopay: { days: number; methods: string; terms: string };
  /** Writes the autopayment disclosure: it comes with the submit chain (autopay-disclosure.ts), loaded at ready. */
  disclosure?: (c: FieldsContext) => TemplateResult;
  /** The text of a field's problem: problems come from the submit chain, and so do their texts. */
  problemText?: (path: string, key: string) => string;
  /** "Add a comment" pressed. The controls' `input` and `change` are heard by the form they bubble to. */
  onAddComment: () => void;
}

/** The first problem among `paths`, as an error paragraph with `id`. */
function error(c: FieldsContext, id: string, paths: string[]): TemplateResult | typeof nothing {
  const path = paths.find((p) => c.problems[p]);
  return path ? html`<p id=${id} class="error" part="error">${c.problemText?.(path, c.problems[path]!)}</p>` : nothing;
}

function textField(c: FieldsContext, f: TextField): TemplateResult {
  const { labels } = c.t;
  const paths = PATHS_OF[f.name];
  const problem = paths.some((p) => c.problems[p]);
  const id = `f-${f.name}`;
  const symbol = f.name === 'amount' && c.currency ? currencySymbol(c.currency, c.locale) : '';
  let label: string;
  if (symbol) label = fill(labels.amount_currency, { currency: symbol });
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
      class=${f.name}
      type=${f.type}
      inputmode=${f.inputmode ?? nothing}
      autocomplete=${f.autocomplete}
      maxlength="500"
      ?readonly=${f.readonly}
      ?required=${!f.optional}
      aria-invalid=${problem ? 'true' : 'false'}
      aria-describedby=${problem ? `${id}-error` : nothing}
      .value=${c.values[f.name]}
    />
    ${error(c, `${id}-error`, paths)}
  </div>`;
}

/** A system's name: the page's `texts.systems`, else `label-a`…, else "System A". */
export function systemName(c: Pick<FieldsContext, 't' | 'names'>, id: SystemId): string {
  return c.t.systems[id] || c.names[id] || fill(c.t.labels.system_name, { id });
}

/** The systems as tiles: native radios (arrow keys move and choose), each with the merchant's logo slot. */
function systems(c: FieldsContext): TemplateResult {
  const { v, t } = c;
  const problem = c.problems.system;
  return html`<fieldset part="systems" aria-describedby=${problem ? 'system-error' : nothing}>
    <legend part="legend">${t.labels.system}</legend>
    <div class="tiles">
      ${v.systems.map(
        (s) => html`<label class="tile" part="tile" for="system-${s.id}">
          <input
            type="radio"
            part="radio"
            name="system"
            id="system-${s.id}"
            value=${s.id}
            aria-invalid=${problem ? 'true' : 'false'}
            .checked=${s.id === v.system?.id}
          />
          <slot name="logo-${s.id.toLowerCase()}"></slot>
          <span class="name" part="system-name">${systemName(c, s.id)}</span>
        </label>`,
      )}
    </div>
    ${error(c, 'system-error', ['system'])}
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
    >
      ${v.kinds.map((k) => html`<option value=${k} ?selected=${k === v.kind}>${t.kinds[LOOKUPS[k].key]}</option>`)}
    </select>
    ${error(c, 'f-kind-error', ['agreement_param_id'])}
  </div>`;
}

/**
 * A checkbox and its label, then its hint if it has one. `error`: the id of the error that describes it ('' when it
 * has none; left out for a box that cannot be wrong); `about`: the id of another text that describes it too; a box
 * that is not `enabled` is shown checked and disabled.
 */
function checkbox(
  id: string,
  label: string,
  checked: boolean,
  enabled: boolean,
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
        ?disabled=${!enabled}
        .checked=${checked}
      />
      <label for=${id} part="label">${label}</label>
    </div>
    ${hint ? html`<p id="${id}-hint" class="hint" part="hint">${hint}</p>` : nothing}`;
}

/**
 * "Save payment method", and under it "Connect autopayments" (always on) with the autopayment disclosure, which
 * describes both boxes, and "Only link the card".
 */
function save(c: FieldsContext): TemplateResult | typeof nothing {
  const { v, t } = c;
  // Without saving, the row's place is kept (empty): the form is as tall whatever the relay offers, so the skeleton
  // drawn before `/config` takes exactly its place.
  if (!v.canSave)
    return html`<div class="check reserved" aria-hidden="true"><input type="checkbox" part="checkbox" disabled tabindex="-1" /><label part="label">${t.labels.save}</label></div>`;
  const paths = v.saveParams.map((f) => `eps_params.${f}`);
  const problem = paths.some((p) => c.problems[p]);
  const hint = c.save ? c.disclosure?.(c) : undefined;
  return html`<div class="field" part="field">
    ${checkbox('f-save', t.labels.save, c.save, true, undefined, problem ? 'f-save-error' : '', c.save && hint ? 'f-autopay-hint' : '')}
    ${
      c.save
        ? html`${checkbox('f-autopay', t.labels.autopay, true, false, hint)}
        ${v.linkOnly ? checkbox('f-link-only', t.labels.link_only, c.linkOnly, true, t.labels.link_only_hint) : nothing}`
        : nothing
    }
    ${error(c, 'f-save-error', paths)}
  </div>`;
}

/**
 * Every control of the form, in the order of `FormView.fields`, with "Add a comment" where the comment waits: a list,
 * not a template (one template fewer to make and clone on the first screen).
 */
export function formFields(c: FieldsContext): unknown[] {
  return [
    systems(c),
    lookup(c),
    c.v.textFields.map((f) => textField(c, f)),
    c.v.commentHidden
      ? html`<button type="button" class="more" part="add-comment" @click=${c.onAddComment}>${c.t.labels.add_comment}</button>`
      : nothing,
    save(c),
  ];
}

/**
 * The words on Pay: "Link card", else the label `pay` followed by the amount once it reads ("Pay ₽1,500.50",
 * "Оплатить 1 500,50 ₽"; a page's own `pay` text too), else `pay` alone.
 */
export function payLabel(c: FieldsContext, linking: boolean): string {
  const { labels } = c.t;
  if (linking) return labels.link;
  const amount = parseAmountInput(c.values.amount, c.locale);
  return amount.ok ? `${labels.pay} ${formatMoney(amount.amount, c.locale, c.currency)}` : labels.pay;
}
