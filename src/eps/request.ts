/**
 * The payment request that the widget sends and the relay accepts: the billing's EPS payment request with the
 * `eps_uuid` replaced by the system's letter. One zod envelope for input of unknown shape (the relay's), then the
 * checks of check.ts, shared by both sides.
 */
import * as z from 'zod/mini';
import { checkRequest, type FieldProblems, type PaymentCheck, type PaymentRules } from './check.js';
import { MAX_EPS_PARAMS } from './params.js';
import { SYSTEM_IDS } from './systems.js';

export type { EpsParam, FieldProblems, PaymentCheck, PaymentRequest, PaymentRules, ValidPayment } from './check.js';
export { checkRequest } from './check.js';

const envelope = z.object({
  system: z.enum(SYSTEM_IDS, { error: 'system' }),
  amount: z.union([z.string(), z.number()], { error: 'amount_format' }),
  agreement_param_id: z.number({ error: 'lookup_kind' }),
  agreement_param_value: z.string({ error: 'required' }),
  eps_params: z.array(z.object({ name: z.string({ error: 'param_name' }), value: z.optional(z.unknown()) }, { error: 'eps_params' }), { error: 'eps_params' }).check(z.maxLength(MAX_EPS_PARAMS, 'too_many_params')),
});

/** Checks a payment request of any shape against the spec and the merchant's rules; never throws. */
export function checkPayment(input: unknown, rules: PaymentRules): PaymentCheck {
  const parsed = envelope.safeParse(input);
  if (!parsed.success) {
    const fields: FieldProblems = {};
    for (const issue of parsed.error.issues) fields[fieldOf(issue.path)] ??= issue.message;
    if (!input || typeof input !== 'object' || Array.isArray(input)) fields.body = 'body';
    return { ok: false, fields };
  }
  return checkRequest(parsed.data, rules);
}

function fieldOf(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  return typeof head === 'string' ? (head === 'eps_params' && index !== undefined ? 'eps_params' : head) : 'body';
}
