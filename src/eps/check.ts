/**
 * The checks of a payment request whose shape is already known: the amount, the lookup value and each system's
 * parameters. `checkPayment` (request.ts) runs them after its zod envelope; the widget, which builds the request
 * itself, runs them alone, so the browser never loads the envelope's zod object, union, enum and array schemas.
 */
import { amountProblem, canonicalAmount } from './amount.js';
import { isLookupKind, lookupProblem, type LookupKind } from './lookup.js';
import type { ProblemKey } from './messages.js';
import { paramProblems, readEpsParams } from './params.js';
import { SYSTEMS, type SystemId } from './systems.js';
import { canonicalUrl } from './url.js';

export interface EpsParam {
  name: string;
  /** Any JSON value; a parameter written without one is a missing value (`required`, or the system's rule). */
  value?: unknown;
}

/** What the browser sends to `POST {relay}/payments`. */
export interface PaymentRequest {
  system: SystemId;
  amount: string | number;
  agreement_param_id: number;
  agreement_param_value: string;
  eps_params: EpsParam[];
  /** The payer was told of the same payment made a moment ago and pays again all the same (`duplicate_payment`). */
  confirm_duplicate?: true;
}

/** A request that passed every check: amount in canonical text, parameters as a record. */
export interface ValidPayment {
  system: SystemId;
  amount: string;
  agreement_param_id: LookupKind;
  agreement_param_value: string;
  params: Record<string, unknown>;
  /** `PaymentRequest.confirm_duplicate`: not part of the payment itself, so not of its idempotency fingerprint. */
  confirm_duplicate?: true;
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
export type FieldProblems = Record<string, ProblemKey>;

export type PaymentCheck = { ok: true; value: ValidPayment } | { ok: false; fields: FieldProblems };

/** Checks a well-typed payment request against the spec and the merchant's rules; never throws. */
export function checkRequest(req: PaymentRequest, rules: PaymentRules): PaymentCheck {
  const fields: FieldProblems = {};
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

  const { params, duplicates } = readEpsParams(
    req.eps_params.map(({ name, value }) => ({ name, value: typeof value === 'string' ? value.trim() : value })),
  );
  for (const name of duplicates) fields[`eps_params.${name}`] = 'duplicate_param';
  for (const [name, problem] of paramProblems(req.system, params)) fields[`eps_params.${name}`] ??= problem;

  if (Object.keys(fields).length) return { ok: false, fields };
  // Addresses go on in the form that was checked (the WHATWG serialisation), never as the client wrote them.
  for (const [name, spec] of Object.entries(SYSTEMS[req.system].params)) {
    if (spec.kind === 'url' && typeof params[name] === 'string') params[name] = canonicalUrl(params[name]);
  }
  return {
    ok: true,
    value: {
      system: req.system,
      amount: canonicalAmount(req.amount)!,
      agreement_param_id: kind as LookupKind,
      agreement_param_value: req.agreement_param_value.trim(),
      params: Object.fromEntries(Object.entries(params)),
      ...(req.confirm_duplicate === true && { confirm_duplicate: true }),
    },
  };
}
