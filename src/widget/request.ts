/**
 * The payment request built from what the person entered, drawn from the shared `SYSTEMS` data: the system's
 * default parameters, its return-URL parameters, the optional texts it takes, and the flags that save a method
 * (which always connect autopayments) or only link one.
 */
import type { EpsParam, PaymentRequest } from '../eps/request.js';
import { canSaveMethod, SYSTEMS, type SystemId } from '../eps/systems.js';

/** The state of the form, as the person left it. */
export interface FormValues {
  system: SystemId;
  /** Canonical amount text (`"1500.50"`), or what was typed when it could not be read. */
  amount: string;
  lookupKind: number;
  lookupValue: string;
  email: string;
  phone: string;
  name: string;
  comment: string;
  /** "Save payment method" (which forces "Connect autopayments"). */
  save: boolean;
  /** "Only link the card": a test payment that is then cancelled; only together with `save`. */
  linkOnly: boolean;
  returnUrl: string;
  /** Where a system with a failure address of its own (B) sends the client after a failure; default `returnUrl`. */
  failUrl?: string;
}

/** The optional texts a person may fill in, in the order they are shown and sent. */
export const TEXT_PARAMS = ['email', 'phone', 'name', 'comment'] as const;
export type TextParam = (typeof TEXT_PARAMS)[number];

/** Whether the system takes a parameter of this name. */
export const takes = (system: SystemId, name: string): boolean => Object.hasOwn(SYSTEMS[system].params, name);

export function buildPaymentRequest(form: FormValues, rules: { canSave: boolean; linkOnly: boolean }): PaymentRequest {
  const spec = SYSTEMS[form.system];
  const params: Record<string, unknown> = { ...spec.defaults };
  params[spec.returnUrl] = form.returnUrl;
  if (spec.failUrl) params[spec.failUrl] = form.failUrl ?? form.returnUrl;
  for (const name of TEXT_PARAMS) {
    const value = form[name].trim();
    if (value && takes(form.system, name)) params[name] = value;
  }
  // Saving a method always connects autopayments; "only link" is an option of a saved method.
  const save = rules.canSave && canSaveMethod(form.system) && form.save;
  if (save) Object.assign(params, spec.autopay);
  if (save && rules.linkOnly && form.linkOnly) Object.assign(params, spec.linkOnly);

  const eps_params: EpsParam[] = Object.entries(params).map(([name, value]) => ({ name, value }));
  return {
    system: form.system,
    amount: form.amount,
    agreement_param_id: form.lookupKind,
    agreement_param_value: form.lookupValue.trim(),
    eps_params,
  };
}
