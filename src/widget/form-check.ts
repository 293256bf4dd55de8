/**
 * The payment form's check, loaded after the first screen (late/pay.late.ts): on Pay, or when the payer leaves a
 * field, which problems the form has, in the order of the fields (the first one gets the focus) — or the request to
 * send.
 */
import { toMinorUnits } from '../eps/amount.js';
import { checkRequest } from '../eps/check.js';
import type { PaymentRequest } from '../eps/request.js';
import { parseAmountInput } from './amount-input.js';
import type { FormInput, FormView } from './form-model.js';
import { buildPaymentRequest } from './request.js';

/** The receipt contact as the system's parameters: with an `@` or a letter an e-mail, else a phone number. */
export function contactParams(contact: string): { email: string; phone: string } {
  const text = contact.trim();
  return /[@\p{L}]/u.test(text) ? { email: text, phone: '' } : { email: '', phone: text };
}

export type FormCheck = { ok: true; request: PaymentRequest } | { ok: false; problems: Record<string, string> };

/**
 * The form as a request, or its problems (path → problem key) in the order of the fields, then those no field shows.
 * The amount is read in the locale's number format; the request check runs on what was read.
 */
export function checkForm(
  v: FormView,
  input: FormInput,
  o: { locale: string; returnUrl: string; failUrl?: string },
): FormCheck {
  const config = input.config!;
  const amount = parseAmountInput(input.values.amount, o.locale);
  const request = buildPaymentRequest(
    {
      ...input.values,
      ...contactParams(input.values.contact),
      system: v.system!.id,
      // An amount the locale could not read is not checked again: the largest one allowed stands in for it, so the
      // request check speaks only of the rest of the form.
      amount: amount.ok ? amount.amount : config.maxAmount,
      lookupKind: v.kind,
      lookupValue: v.preset || input.values.lookupValue,
      save: input.save,
      linkOnly: input.linkOnly,
      returnUrl: o.returnUrl,
      failUrl: o.failUrl,
    },
    v,
  );
  const checked = checkRequest(request, {
    maxAmount: toMinorUnits(config.maxAmount) ?? BigInt(Number.MAX_SAFE_INTEGER),
    systems: v.systems.map((s) => s.id),
    lookups: config.lookups,
  });
  const found: Record<string, string> = amount.ok ? {} : { amount: amount.problem };
  if (!checked.ok) for (const [path, problem] of Object.entries(checked.fields)) found[path] ??= problem;
  if (!Object.keys(found).length) return { ok: true, request };
  return { ok: false, problems: inFieldOrder(v, found) };
}

/** Problems in the order of the fields that show them, then the rest. */
export function inFieldOrder(v: FormView, problems: Record<string, string>): Record<string, string> {
  const paths = [...v.fields.flatMap((f) => f.paths), ...Object.keys(problems)];
  return Object.fromEntries(paths.filter((p) => problems[p]).map((p) => [p, problems[p]!]));
}
