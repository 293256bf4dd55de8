/**
 * `POST /eps_payments`: a payment through one of the payment systems, answered 201 `{payment_id, status: 'pending',
 * amount, confirmation_url}`; the client decides on the hosted page (`/pay/{id}`). The amount is a JSON number > 0
 * with at most two decimals and 15 significant digits; `eps_params` follow the billing's rules (`BILLING_POLICY` of
 * the shared model), looser than this product's.
 */
import { Hono, type Context } from 'hono';
import { amountProblem, formatMinorUnits, toMinorUnits } from '../../eps/amount.js';
import { LOOKUP_KINDS, isLookupKind } from '../../eps/lookup.js';
import { problemText, type ProblemKey } from '../../eps/messages.js';
import { BILLING_POLICY, paramProblems, readBooleans, readEpsParams } from '../../eps/params.js';
import type { SystemId } from '../../eps/systems.js';
import { findAgreement } from '../billing/agreement-lookup.js';
import { paymentTerms } from '../billing/payment-decision.js';
import { epsPaymentSchema } from '../schemas.js';
import { badRequest, jsonBody, notFound, type ApiContext, type ApiEnv } from './request.js';

/** The largest amount, in minor units: 15 significant digits, so a JSON number carries it exactly. */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999n;

export interface EpsPaymentOptions {
  /** The payment system of each `eps_uuid` this billing knows. */
  systemOf: ReadonlyMap<string, SystemId>;
  /** The origin of the hosted pages for `confirmation_url` (no trailing slash). */
  linkOrigin(c: Context): string;
}

export function epsPaymentRoutes(
  { state, bearer, count, fault }: ApiContext,
  { systemOf, linkOrigin }: EpsPaymentOptions,
): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.post('/', count('epsPayments'), fault('epsPayments'), bearer, (c) => {
    const input = jsonBody(c, epsPaymentSchema);
    const system = systemOf.get(input.eps_uuid);
    if (!system) throw badRequest('eps_uuid: not one of the payment systems of this billing');

    const amountIssue = amountProblem(input.amount, MAX_AMOUNT_MINOR);
    if (amountIssue) throw badRequest(problemMessage('amount', amountIssue));
    const amount = toMinorUnits(input.amount)!;

    const kind = input.agreement_param_id;
    if (!isLookupKind(kind)) throw badRequest(`agreement_param_id: ${kind} is not one of ${LOOKUP_KINDS.join(', ')}`);

    const read = readEpsParams(input.eps_params);
    const duplicate = read.duplicates[0];
    if (duplicate !== undefined) throw badRequest(problemMessage(`eps_params.${duplicate}`, 'duplicate_param'));
    // The sandbox plays the billing's rules, looser than this product's (saving without autopayment, "true" as text).
    const params = readBooleans(system, read.params, BILLING_POLICY);
    const problems = [...paramProblems(system, params, BILLING_POLICY)];
    if (problems.length)
      throw badRequest(problems.map(([name, problem]) => problemMessage(`eps_params.${name}`, problem)).join(' '));

    const agreement = findAgreement(state.store, kind, input.agreement_param_value);
    if (!agreement) throw notFound('agreement not found');

    const payment = state.store.addPayment({
      system,
      eps_uuid: input.eps_uuid,
      agreement_id: agreement.agreement_id,
      amount,
      agreement_param_id: kind,
      agreement_param_value: input.agreement_param_value,
      params,
      ...paymentTerms(system, params),
    });
    const response = {
      payment_id: payment.payment_id,
      status: payment.status,
      amount: formatMinorUnits(payment.amount),
      confirmation_url: `${linkOrigin(c)}/pay/${payment.payment_id}`,
    };
    return c.json({ code: 201, response }, 201);
  });
  return routes;
}

/** A problem of the shared model as the sandbox words it: `amount: <the model's text> (<its key>)`. */
function problemMessage(field: string, problem: ProblemKey): string {
  return `${field}: ${problemText(problem)} (${problem})`;
}
