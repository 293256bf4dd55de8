/**
 * The payment form as data, with no DOM: from the relay's `/config`, the element's attributes and what the person
 * entered, what the form shows (systems, lookup kinds, fields in order, the save / autopay / link-only switches).
 * Its check on Pay is form-check.ts, loaded after the first screen.
 */
import { isLookupKind, LOOKUPS, SESSION_LOOKUP_KIND, type LookupKind } from '../eps/lookup.js';
import type { OfferedSystem, PaymentOptions } from '../eps/relay-api.js';
import type { Entries } from './payer-entries.js';
import { SYSTEM_FORMS } from './system-form.js';

/**
 * The text fields a person types into: one receipt contact (an e-mail or a phone, told apart as typed) stands for the
 * systems' `email` and `phone`.
 */
export type ValueKey = 'amount' | 'lookupValue' | 'contact' | 'name' | 'comment';

export const NO_VALUES: Readonly<Record<ValueKey, string>> = {
  amount: '',
  lookupValue: '',
  contact: '',
  name: '',
  comment: '',
};

/** Everything the form depends on: the attributes, the relay's answers and the person's entries. */
export interface FormInput extends Entries {
  config: PaymentOptions | null;
  /** The attributes `systems`, `lookup`, `agreement`, `amount`, `amount-fixed`, `allow-link-only`, `show-comment`. */
  systems: string;
  lookup: string;
  agreement: string;
  amount: string;
  amountFixed: boolean;
  allowLinkOnly: boolean;
  showComment: boolean;
  /** The agreement the client session names, once loaded. */
  sessionAgreement: string;
}

/** One text field: its value, the request path it fills and how the browser should ask for it. */
export interface TextField {
  name: ValueKey;
  type: string;
  inputmode?: string;
  autocomplete: string;
  optional?: boolean;
  readonly?: boolean;
}

/** A control of the form, in the order shown: its element id and the request paths whose problems it shows. */
export interface Field {
  id: string;
  paths: string[];
}

/** What the form shows. */
export interface FormView {
  systems: OfferedSystem[];
  system: OfferedSystem | undefined;
  kinds: LookupKind[];
  kind: LookupKind;
  /** The agreement the client does not type: the merchant's preset, else the session's. */
  preset: string;
  /** The lookup value (unless preset), the amount and the optional texts the system takes, in order. */
  textFields: TextField[];
  /** "Add a comment" is offered: the system takes one, and it is not shown yet. */
  commentHidden: boolean;
  /** "Save payment method" is offered (it connects autopayments). */
  canSave: boolean;
  /** "Only link the card" is offered (under a saved method). */
  linkOnly: boolean;
  /** The request parameters the save switches set. */
  saveParams: string[];
  /** Every control, in order; none until a system is on offer. */
  fields: Field[];
}

/** Which request paths each text field fills (the contact: one of two). */
export const PATHS_OF: Record<ValueKey, string[]> = {
  amount: ['amount'],
  lookupValue: ['agreement_param_value'],
  contact: ['eps_params.email', 'eps_params.phone'],
  name: ['eps_params.name'],
  comment: ['eps_params.comment'],
};

const PARAM_INPUTS: Record<'contact' | 'name' | 'comment', Pick<TextField, 'type' | 'autocomplete'>> = {
  contact: { type: 'text', autocomplete: 'email' },
  name: { type: 'text', autocomplete: 'name' },
  comment: { type: 'text', autocomplete: 'off' },
};

const list = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function formView(input: FormInput): FormView {
  const offered = input.config?.systems ?? [];
  const wanted = list(input.systems.toUpperCase());
  const systems = wanted.length ? [...new Set(wanted)].flatMap((id) => offered.filter((s) => s.id === id)) : offered;
  const system = systems.find((s) => s.id === input.chosenSystem) ?? systems[0];
  const preset = input.agreement || input.sessionAgreement;
  // A session's agreement is found by its own kind, unless the merchant presets one of their own.
  const lookup = input.agreement || !input.sessionAgreement ? list(input.lookup).map(Number) : [SESSION_LOOKUP_KIND];
  const listed = lookup.filter(isLookupKind);
  const kinds = listed.length ? [...new Set(listed)] : ([5] as LookupKind[]);
  const kind = preset ? kinds[0]! : (kinds.find((k) => k === input.chosenKind) ?? kinds[0]!);
  const form = system && SYSTEM_FORMS[system.id];
  const takes = (name: string) => Boolean(form?.takes.includes(name));
  const canSave = Boolean(system?.canSave && form?.canSave);
  const linkOnly = canSave && input.allowLinkOnly && Boolean(system?.linkOnly && form?.linkOnly);
  const saveParams = canSave ? form!.saveParams : [];

  const takesComment = takes('comment');
  const commentShown = takesComment && (input.showComment || input.commentOpen || Boolean(input.values.comment));
  const optional = (['contact', 'name', 'comment'] as const).filter((name) =>
    name === 'contact' ? takes('email') : name === 'comment' ? commentShown : takes(name),
  );
  const textFields: TextField[] = system
    ? [
        ...(preset
          ? []
          : [
              {
                name: 'lookupValue' as const,
                type: 'text',
                autocomplete: 'off',
                ...LOOKUPS[kind].input,
              },
            ]),
        {
          name: 'amount',
          type: 'text',
          inputmode: 'decimal',
          autocomplete: 'transaction-amount',
          readonly: input.amountFixed && Boolean(input.amount),
        },
        ...optional.map((name) => ({ name, optional: true, ...PARAM_INPUTS[name] })),
      ]
    : [];
  const fields: Field[] = system
    ? [
        { id: `system-${systems[0]!.id}`, paths: ['system'] },
        ...(kinds.length > 1 && !preset ? [{ id: 'f-kind', paths: ['agreement_param_id'] }] : []),
        ...textFields.map((f) => ({ id: `f-${f.name}`, paths: PATHS_OF[f.name] })),
        ...(canSave ? [{ id: 'f-save', paths: saveParams.map((p) => `eps_params.${p}`) }] : []),
      ]
    : [];
  return {
    systems,
    system,
    kinds,
    kind,
    preset,
    textFields,
    commentHidden: takesComment && !commentShown,
    canSave,
    linkOnly,
    saveParams,
    fields,
  };
}

/** The problems no control of the form shows (a return address, a preset agreement…): the status line says them. */
export function unshownProblems(v: FormView, problems: Record<string, string>): [path: string, problem: string][] {
  const shown = new Set(v.fields.flatMap((f) => f.paths));
  return Object.entries(problems).filter(([path]) => !shown.has(path));
}

/** The id of the first control with a problem, where the focus goes. */
export function firstProblemField(v: FormView, problems: Record<string, string>): string | undefined {
  return v.fields.find((f) => f.paths.some((p) => problems[p]))?.id;
}

/** The problems without those of `paths` (a field the person changed); the same object when there were none. */
export function withoutProblems(problems: Record<string, string>, ...paths: string[]): Record<string, string> {
  if (!paths.some((p) => p in problems)) return problems;
  return Object.fromEntries(Object.entries(problems).filter(([path]) => !paths.includes(path)));
}
