/**
 * The payment request that the widget sends and the relay accepts: the billing's EPS payment request with the
 * `eps_uuid` replaced by the system's letter. One zod envelope for input of unknown shape (the relay's), then the
 * checks of check.ts, shared by both sides.
 */
import * as z from 'zod/mini';
import { checkRequest, type FieldProblems, type PaymentCheck, type PaymentRules } from './check.js';
import type { ProblemKey } from './messages.js';
import { MAX_EPS_PARAMS } from './params.js';
import { SYSTEM_IDS } from './systems.js';

export type { EpsParam, FieldProblems, PaymentCheck, PaymentRequest, PaymentRules, ValidPayment } from './check.js';
export { checkRequest } from './check.js';

/** A zod error option whose message is a problem key: every issue of the envelope is read back as one. */
const problem = (key: ProblemKey) => ({ error: key });

const envelope = z.object({
  system: z.enum(SYSTEM_IDS, problem('system')),
  amount: z.union([z.string(), z.number()], problem('amount_format')),
  agreement_param_id: z.number(problem('lookup_kind')),
  agreement_param_value: z.string(problem('required')),
  eps_params: z
    .array(
      z.object({ name: z.string(problem('param_name')), value: z.optional(z.unknown()) }, problem('eps_params')),
      problem('eps_params'),
    )
    .check(z.maxLength(MAX_EPS_PARAMS, problem('too_many_params'))),
  confirm_duplicate: z.optional(z.literal(true, problem('confirm_duplicate'))),
});

/** Checks a payment request of any shape against the spec and the merchant's rules; never throws. */
export function checkPayment(input: unknown, rules: PaymentRules): PaymentCheck {
  const parsed = envelope.safeParse(input);
  if (!parsed.success) {
    const fields: FieldProblems = {};
    // A body that is not an object gets zod's own message at the top; it becomes `body` below.
    for (const issue of parsed.error.issues) fields[fieldOf(issue.path)] ??= issue.message as ProblemKey;
    if (!input || typeof input !== 'object' || Array.isArray(input)) fields.body = 'body';
    return { ok: false, fields };
  }
  return checkRequest(parsed.data, rules);
}

function fieldOf(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  return typeof head === 'string' ? (head === 'eps_params' && index !== undefined ? 'eps_params' : head) : 'body';
}
