/**
 * The one rule engine of the three systems' `eps_params`: each value checked by its kind, then the cross-parameter
 * rules that SYSTEMS (systems.ts) describes as data, under the policy of the side that asks. The widget, the relay
 * and the sandbox all call `paramProblems`.
 *
 * Plain predicates, no zod: the widget runs this in the browser, where zod/mini's runtime cost about 3.5 kB gzip of
 * the 20 kB budget (`dist/billing-pay.js`: 23.0 kB with zod/mini, 19.6 kB with these; see docs/embedding.md, *Weight*).
 * zod stays where input has an unknown shape: the relay's request envelope (request.ts) and the sandbox's bodies.
 */
import { isCleanText, textLength as length } from './clean-text.js';
import { EMAIL_ADDRESS, MAX_EMAIL_LENGTH } from './email.js';
import type { ProblemKey } from './messages.js';
import { SYSTEMS, savesMethod, type ParamKind, type SystemId } from './systems.js';
import { isHttpUrl } from './url.js';

/** The most `eps_params` a payment takes (the relay's envelope and the sandbox's both refuse more). */
export const MAX_EPS_PARAMS = 32;

/**
 * Which rules a side plays. The relay and the widget play this product's policy; the sandbox plays the billing,
 * which is looser: it must accept whatever the spec allows, so a merchant's tests against it do not pass on requests
 * the real billing would refuse, nor fail on ones it would take.
 */
export interface ParamPolicy {
  /**
   * Saving a method always connects autopayments (this product's choice): the save flag and its autopayment
   * companions go together (all true or none), and the link-only flags need saving. Off, only the spec's own rule
   * holds: the `withSave` parameters need the save flag.
   */
  saveConnectsAutopay: boolean;
  /** Boolean parameters may also be the texts "true" and "false" (the spec does not fix their wire form). */
  textBooleans: boolean;
}

export const PRODUCT_POLICY: ParamPolicy = { saveConnectsAutopay: true, textBooleans: false };
export const BILLING_POLICY: ParamPolicy = { saveConnectsAutopay: false, textBooleans: true };

/** The format rule of each text kind, for a clean string: its problem key, or null. */
const TEXT_KINDS: Record<Exclude<ParamKind, 'boolean'>, (value: string) => ProblemKey | null> = {
  url: (v) => (length(v) <= 2048 && isHttpUrl(v) ? null : 'url'),
  email: (v) => (length(v) > MAX_EMAIL_LENGTH ? 'too_long' : EMAIL_ADDRESS.test(v) ? null : 'email'),
  phone: (v) => (/^\+?[\d ()-]{5,24}$/.test(v) && /^(?:\D*\d){5,15}\D*$/.test(v) ? null : 'phone'),
  text: (v) => (v === '' ? 'required' : length(v) > 500 ? 'too_long' : null),
  token: (v) => (/^[a-z][a-z0-9_]{0,63}$/.test(v) ? null : 'token'),
};

/**
 * The problem of one present value of a kind, or null. A value of the wrong type gets the kind's own key
 * (`boolean`, `url`…) and is `typeError`; every text must be clean text first (`text` whatever its kind).
 */
function valueProblem(kind: ParamKind, value: unknown): { problem: ProblemKey; typeError: boolean } | null {
  if (kind === 'boolean' || typeof value !== 'string') {
    return typeof value === (kind === 'boolean' ? 'boolean' : 'string') ? null : { problem: kind, typeError: true };
  }
  const problem = isCleanText(value) ? TEXT_KINDS[kind](value) : 'text';
  return problem && { problem, typeError: false };
}

/**
 * The problems of one system's parameters, name → problem key, in the order found: each parameter of the spec in
 * its order (a missing required one is `required`), then the names the system does not take (`unknown_param`),
 * then the cross-parameter rules. A value of the wrong type or a missing required one stops the cross-parameter
 * rules (they would only repeat it); a bad format does not.
 */
export function paramProblems(
  system: SystemId,
  params: Record<string, unknown>,
  policy: ParamPolicy = PRODUCT_POLICY,
): Map<string, ProblemKey> {
  const specs = SYSTEMS[system].params;
  const problems = new Map<string, ProblemKey>();
  let stopped = false;
  for (const [name, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    const found =
      value === undefined
        ? spec.required
          ? { problem: 'required' as const, typeError: true }
          : null
        : valueProblem(spec.kind, value);
    if (!found) continue;
    problems.set(name, found.problem);
    stopped ||= found.typeError;
  }
  for (const name in params) if (!Object.hasOwn(specs, name)) problems.set(name, 'unknown_param');
  if (!stopped) {
    for (const [name, problem] of ruleProblems(system, params, policy))
      if (!problems.has(name)) problems.set(name, problem);
  }
  return problems;
}

/**
 * The cross-parameter rules of the spec, as data in SYSTEMS: `requiredWhen` (A's return URL when
 * `confirmation_type` = `redirect`) and `withSave` (A's `enable_autopayments` only with `save_payment_method`).
 * This product's policy on top (`saveConnectsAutopay`): the save flag and its `autopay` companions are all true or
 * none, and the `linkOnly` flags need the save flag.
 */
function ruleProblems(system: SystemId, params: Record<string, unknown>, policy: ParamPolicy): [string, ProblemKey][] {
  const spec = SYSTEMS[system];
  const problems: [string, ProblemKey][] = [];
  for (const [name, { requiredWhen }] of Object.entries(spec.params)) {
    const applies = requiredWhen && Object.entries(requiredWhen).every(([other, value]) => params[other] === value);
    if (applies && params[name] === undefined) problems.push([name, 'required']);
  }
  const saving = savesMethod(system, params);
  if (!policy.saveConnectsAutopay) {
    for (const name of spec.withSave ?? []) if (!saving && params[name] === true) problems.push([name, 'link_rule']);
    return problems;
  }
  for (const name of Object.keys(spec.autopay ?? {})) {
    if (name !== spec.saveFlag && saving !== (params[name] === true)) problems.push([name, 'autopay_rule']);
  }
  for (const name of Object.keys(spec.linkOnly ?? {}))
    if (!saving && params[name] === true) problems.push([name, 'link_rule']);
  return problems;
}

/** The parameters with the texts "true" and "false" of boolean ones read as booleans when the policy allows them. */
export function readBooleans(
  system: SystemId,
  params: Record<string, unknown>,
  policy: ParamPolicy,
): Record<string, unknown> {
  if (!policy.textBooleans) return params;
  const specs = SYSTEMS[system].params;
  const read: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(params)) {
    const boolean =
      Object.hasOwn(specs, name) && specs[name]!.kind === 'boolean' && (value === 'true' || value === 'false');
    read[name] = boolean ? value === 'true' : value;
  }
  return read;
}

/**
 * `eps_params` as a record (the last value of a name wins) and the names given more than once, in the order their
 * repeat is found. The record has no prototype: a parameter named `__proto__` is a parameter (and refused), not a
 * way to inherit fields.
 */
export function readEpsParams(list: readonly { name: string; value?: unknown }[]): {
  params: Record<string, unknown>;
  duplicates: string[];
} {
  const params: Record<string, unknown> = Object.create(null);
  const duplicates: string[] = [];
  for (const { name, value } of list) {
    if (Object.hasOwn(params, name)) duplicates.push(name);
    params[name] = value;
  }
  return { params, duplicates };
}
