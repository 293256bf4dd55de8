/**
 * The payment request that the widget sends and the relay accepts: the billing's EPS payment request with the
 * `eps_uuid` replaced by the system's letter. One zod schema, shared by both sides.
 */
import * as z from 'zod/mini';
import { amountProblem, canonicalAmount } from './amount.js';
import { isLookupKind, lookupProblem, type LookupKind } from './lookup.js';
import { SYSTEM_IDS, systemParamsSchema, type SystemId } from './systems.js';

export interface EpsParam {
  name: string;
  value: unknown;
}

/** What the browser sends to `POST {relay}/payments`. */
export interface PaymentRequest {
  system: SystemId;
  amount: string | number;
  agreement_param_id: number;
  agreement_param_value: string;
  eps_params: EpsParam[];
}

/** A request that passed every check: amount in canonical text, parameters as a record. */
export interface ValidPayment {
  system: SystemId;
  amount: string;
  agreement_param_id: LookupKind;
  agreement_param_value: string;
  params: Record<string, unknown>;
}

export interface PaymentRules {
  /** The largest amount accepted, in minor units. */
  maxAmount: bigint;
  /** The systems on offer; others are refused. */
  systems?: readonly SystemId[];
  /** The lookup kinds on offer; others are refused. */
  lookups?: readonly number[];
}

/** Field path → problem key (`amount` → `amount_decimals`, `eps_params.email` → `email`, …). */
export type FieldProblems = Record<string, string>;

export type PaymentCheck = { ok: true; value: ValidPayment } | { ok: false; fields: FieldProblems };

const MAX_PARAMS = 32;

const envelope = z.object({
  system: z.enum(SYSTEM_IDS, { error: 'system' }),
  amount: z.union([z.string(), z.number()], { error: 'amount_format' }),
  agreement_param_id: z.number({ error: 'lookup_kind' }),
  agreement_param_value: z.string({ error: 'required' }),
  eps_params: z.array(z.object({ name: z.string({ error: 'param_name' }), value: z.unknown() }), { error: 'eps_params' }).check(z.maxLength(MAX_PARAMS, 'too_many_params')),
});

/** Checks a payment request against the spec and the merchant's rules; never throws. */
export function checkPayment(input: unknown, rules: PaymentRules): PaymentCheck {
  const fields: FieldProblems = {};
  const parsed = envelope.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fields[fieldOf(issue.path)] ??= issue.message;
    if (!input || typeof input !== 'object' || Array.isArray(input)) fields.body = 'body';
    return { ok: false, fields };
  }
  const req = parsed.data;

  if (rules.systems && !rules.systems.includes(req.system)) fields.system = 'system';

  const amountIssue = amountProblem(req.amount, rules.maxAmount);
  if (amountIssue) fields.amount = amountIssue;

  const kind = req.agreement_param_id;
  if (!isLookupKind(kind) || (rules.lookups && !rules.lookups.includes(kind))) {
    fields.agreement_param_id = 'lookup_kind';
  } else {
    const problem = lookupProblem(kind, req.agreement_param_value);
    if (problem) fields.agreement_param_value = problem;
  }

  // No prototype: a parameter named `__proto__` is a parameter (and refused), not a way to inherit fields.
  const params: Record<string, unknown> = Object.create(null);
  for (const { name, value } of req.eps_params) {
    if (Object.hasOwn(params, name)) fields[`eps_params.${name}`] = 'duplicate_param';
    params[name] = typeof value === 'string' ? value.trim() : value;
  }
  const paramCheck = systemParamsSchema(req.system).safeParse(params);
  if (!paramCheck.success) {
    for (const issue of paramCheck.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
      for (const key of keys) fields[`eps_params.${key}`] ??= issue.message;
    }
  }

  if (Object.keys(fields).length) return { ok: false, fields };
  return {
    ok: true,
    value: {
      system: req.system,
      amount: canonicalAmount(req.amount)!,
      agreement_param_id: kind as LookupKind,
      agreement_param_value: req.agreement_param_value.trim(),
      params: Object.fromEntries(Object.entries(params)),
    },
  };
}

function fieldOf(path: readonly PropertyKey[]): string {
  const [head, index] = path;
  return typeof head === 'string' ? (head === 'eps_params' && index !== undefined ? 'eps_params' : head) : 'body';
}
