/**
 * Each payment system's `eps_params`: name, kind, when it is required, what it means, and what the widget sets itself.
 * Made from the shared model (`SYSTEMS` and `PARAM_MEANINGS`, src/eps/systems.ts) and, for the last column, from what
 * the widget's own request builder (`buildPaymentRequest`, src/widget/request.ts) puts in a request.
 */
import { PARAM_MEANINGS, SYSTEM_IDS, SYSTEMS, type ParamKind, type SystemId } from '../../src/eps/systems.js';
import { buildPaymentRequest, TEXT_PARAMS, type FormValues } from '../../src/widget/request.js';
import { cell, table } from './markdown.js';

const KIND_NAMES: Record<ParamKind, string> = {
  boolean: 'boolean',
  url: 'URL',
  email: 'e-mail',
  phone: 'phone',
  text: 'text',
  token: 'code',
};

const RETURN_URL = 'the return URL';
const FORM = 'form:';

/** The widget's parameters for a form filled in one way: name → value. */
function sent(system: SystemId, form: Partial<FormValues>): Map<string, unknown> {
  const filled: FormValues = {
    system,
    amount: '1.00',
    lookupKind: 5,
    lookupValue: 'AG-1',
    ...Object.fromEntries(TEXT_PARAMS.map((name) => [name, ''])),
    save: false,
    linkOnly: false,
    returnUrl: RETURN_URL,
    ...form,
  } as FormValues;
  const request = buildPaymentRequest(filled, { canSave: true, linkOnly: true });
  return new Map(request.eps_params.map(({ name, value }) => [name, value]));
}

/** What the widget sets, per parameter: read from requests it builds for an empty form, a filled one, a saved method. */
function widgetSets(system: SystemId): Map<string, string> {
  const said = new Map<string, string>();
  const show = (value: unknown) => (value === RETURN_URL ? '`return-url`, else the page’s address' : `\`${String(value)}\``);
  for (const [name, value] of sent(system, {})) said.set(name, `always: ${show(value)}`);
  const texts = Object.fromEntries(TEXT_PARAMS.map((name) => [name, `${FORM}${name}`]));
  for (const [name, value] of sent(system, texts)) {
    if (!said.has(name) && typeof value === 'string' && value.startsWith(FORM))
      said.set(name, `what the payer enters in the form’s \`${value.slice(FORM.length)}\` field (optional)`);
  }
  for (const [name, value] of sent(system, { save: true }))
    if (!said.has(name)) said.set(name, `${show(value)} when the payer saves the method`);
  for (const [name, value] of sent(system, { save: true, linkOnly: true }))
    if (!said.has(name)) said.set(name, `${show(value)} when the payer only links the card`);
  return said;
}

/** When the relay requires the parameter: the spec's rules and this product's, from the model's data. */
function requiredWhen(system: SystemId, name: string): string {
  const spec = SYSTEMS[system];
  const param = spec.params[name]!;
  if (param.required) return 'always';
  if (param.requiredWhen)
    return Object.entries(param.requiredWhen)
      .map(([other, value]) => `when \`${other}\` is \`${String(value)}\``)
      .join(' and ');
  if (spec.autopay?.[name] && name !== spec.saveFlag) return `exactly when \`${spec.saveFlag}\` is \`true\``;
  if (spec.linkOnly?.[name]) return `no; only with \`${spec.saveFlag}\`: \`true\``;
  return 'no';
}

/** One table per system, in the model's order of systems and parameters. */
export function systemTables(): string {
  return SYSTEM_IDS.map((system) => {
    const params = Object.keys(SYSTEMS[system].params);
    const meanings = PARAM_MEANINGS[system];
    const missing = params.filter((name) => !meanings[name]);
    const extra = Object.keys(meanings).filter((name) => !params.includes(name));
    if (missing.length || extra.length)
      throw new Error(`PARAM_MEANINGS.${system}: no meaning for ${missing.join(', ') || '—'}; no such parameter: ${extra.join(', ') || '—'}`);
    const sets = widgetSets(system);
    const rows = params.map((name) => [
      `\`${name}\``,
      KIND_NAMES[SYSTEMS[system].params[name]!.kind],
      requiredWhen(system, name),
      cell(meanings[name]),
      sets.get(name) ?? 'never',
    ]);
    return `### System ${system}\n\n${table(['parameter', 'type', 'required', 'meaning', 'the widget sends it'], rows)}`;
  }).join('\n');
}
