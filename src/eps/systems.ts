/**
 * The three external payment systems of the billing API, described once as data: the `eps_params` each takes,
 * their kinds, which are required, where the client returns, and how a saved method connects autopayments.
 * The relay validates with it and the widget draws its form from it.
 */

import * as z from 'zod/mini';
import { isCleanText } from './clean-text.js';

export const SYSTEM_IDS = ['A', 'B', 'C'] as const;
export type SystemId = (typeof SYSTEM_IDS)[number];

/** How a parameter's value is checked. */
export type ParamKind = 'boolean' | 'url' | 'email' | 'phone' | 'text' | 'token';

export interface ParamSpec {
  kind: ParamKind;
  required?: boolean;
}

export interface SystemSpec {
  params: Record<string, ParamSpec>;
  /** Where the client comes back after paying (and after a failure, when the system has its own parameter). */
  returnUrl: string;
  failUrl?: string;
  /** The parameter that saves the payment method; absent for a system that cannot save one. */
  saveFlag?: string;
  /** The parameters that save the method and connect autopayments (all true); absent for a system that cannot save one. */
  autopay?: Record<string, true>;
  /** Parameters the billing accepts (when true) only together with `saveFlag` true. */
  withSave?: readonly string[];
  /** The parameters that only link a method: a test payment that is then cancelled. */
  linkOnly?: Record<string, true>;
  /** Values the widget sends unless told otherwise. */
  defaults?: Record<string, string>;
}

export const SYSTEMS: Record<SystemId, SystemSpec> = {
  A: {
    params: {
      confirmation_type: { kind: 'token', required: true },
      confirmation_return_url: { kind: 'url' },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      comment: { kind: 'text' },
      save_payment_method: { kind: 'boolean' },
      enable_autopayments: { kind: 'boolean' },
      cancel_payment: { kind: 'boolean' },
      payment_method_data: { kind: 'token' },
      preferred_method: { kind: 'boolean' },
    },
    returnUrl: 'confirmation_return_url',
    saveFlag: 'save_payment_method',
    autopay: { save_payment_method: true, enable_autopayments: true, preferred_method: true },
    withSave: ['enable_autopayments'],
    linkOnly: { cancel_payment: true },
    defaults: { confirmation_type: 'redirect' },
  },
  B: {
    params: {
      confirmation_return_url: { kind: 'url' },
      return_url_fail: { kind: 'url' },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      name: { kind: 'text' },
      comment: { kind: 'text' },
      is_autopayment: { kind: 'boolean' },
    },
    returnUrl: 'confirmation_return_url',
    failUrl: 'return_url_fail',
    saveFlag: 'is_autopayment',
    autopay: { is_autopayment: true },
  },
  C: {
    params: {
      return_url: { kind: 'url', required: true },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      comment: { kind: 'text' },
    },
    returnUrl: 'return_url',
  },
};

/**
 * Which rules a side plays. The relay and the widget play this product's policy; the sandbox plays the billing,
 * which is looser: it must accept whatever the spec allows, so a merchant's tests against it do not pass on requests
 * the real billing would refuse, nor fail on ones it would take.
 */
export interface ParamPolicy {
  /**
   * Saving a method always connects autopayments (this product's choice): the save flag and the other autopayment
   * flags go together (all true or none), and linking a card (`cancel_payment`) needs saving. Off, only the spec's own
   * rule holds: the `withSave` parameters need the save flag.
   */
  saveConnectsAutopay: boolean;
  /** Boolean parameters may also be the texts "true" and "false" (the spec does not fix their wire form). */
  textBooleans: boolean;
}

export const PRODUCT_POLICY: ParamPolicy = { saveConnectsAutopay: true, textBooleans: false };
export const BILLING_POLICY: ParamPolicy = { saveConnectsAutopay: false, textBooleans: true };

/** The parameters with the texts "true" and "false" of boolean ones read as booleans when the policy allows them. */
export function readBooleans(system: SystemId, params: Record<string, unknown>, policy: ParamPolicy): Record<string, unknown> {
  if (!policy.textBooleans) return params;
  const specs = SYSTEMS[system].params;
  const read: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(params)) {
    const boolean = Object.hasOwn(specs, name) && specs[name]!.kind === 'boolean' && (value === 'true' || value === 'false');
    read[name] = boolean ? value === 'true' : value;
  }
  return read;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** A missing value is `required`; a value of the wrong type gets the kind's own problem. */
const expected = (problem: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : problem),
});

/** The clean-text rule (clean-text.ts) as a zod check: first, so a dirty value is reported as `text` whatever its kind. */
const clean = z.refine((value: unknown) => typeof value === 'string' && isCleanText(value), 'text');

/** The zod check of each parameter kind; the message of every issue is its problem key. Every string is clean text. */
export const PARAM_SCHEMAS: Record<ParamKind, z.ZodMiniType> = {
  boolean: z.boolean(expected('boolean')),
  url: z.string(expected('url')).check(clean, z.maxLength(2048, 'url'), z.refine(isHttpUrl, 'url')),
  email: z.string(expected('email')).check(clean, z.maxLength(254, 'too_long'), z.regex(EMAIL, 'email')),
  phone: z.string(expected('phone')).check(clean, z.regex(/^\+?[\d ()-]{5,24}$/, 'phone'), z.regex(/^(?:\D*\d){5,15}\D*$/, 'phone')),
  text: z.string(expected('text')).check(clean, z.minLength(1, 'required'), z.maxLength(500, 'too_long')),
  token: z.string(expected('token')).check(clean, z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'token')),
};

const paramSchemas = new Map<string, z.ZodMiniType<Record<string, unknown>>>();

/** The strict zod object of one system's parameters (unknown names are refused), with the rules of `policy`. */
export function systemParamsSchema(system: SystemId, policy: ParamPolicy = PRODUCT_POLICY): z.ZodMiniType<Record<string, unknown>> {
  const key = `${system}:${policy.saveConnectsAutopay}`;
  let schema = paramSchemas.get(key);
  if (!schema) paramSchemas.set(key, (schema = buildParamsSchema(system, policy)));
  return schema;
}

function buildParamsSchema(system: SystemId, policy: ParamPolicy) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, spec] of Object.entries(SYSTEMS[system].params)) {
    shape[name] = spec.required ? PARAM_SCHEMAS[spec.kind] : z.optional(PARAM_SCHEMAS[spec.kind]);
  }
  return z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown_param' : 'required') }).check((ctx) => {
    for (const [name, problem] of Object.entries(systemRuleProblems(system, ctx.value, policy))) {
      ctx.issues.push({ code: 'custom', message: problem, path: [name], input: ctx.value[name] });
    }
  });
}

/**
 * The problems of one system's parameters, name → problem key in the order found: the same answer as
 * `systemParamsSchema(system)` (each value checked by its `PARAM_SCHEMAS` entry, unknown names refused, then the
 * spec's cross-parameter rules), without building a zod object. The widget validates with this alone, so the browser
 * bundle carries only the zod string and boolean schemas (test/eps/params.test.ts proves both agree on any input).
 */
export function paramProblems(system: SystemId, params: Record<string, unknown>, policy: ParamPolicy = PRODUCT_POLICY): Map<string, string> {
  const specs = SYSTEMS[system].params;
  const problems = new Map<string, string>();
  // As in zod: a value of the wrong type (or a required one missing) stops the cross-parameter rules; a bad format does not.
  let aborted = false;
  for (const [name, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined && !spec.required) continue;
    const result = PARAM_SCHEMAS[spec.kind].safeParse(value);
    if (result.success) continue;
    problems.set(name, result.error.issues[0]!.message);
    aborted ||= result.error.issues.some((issue) => issue.code === 'invalid_type');
  }
  for (const name in params) if (!Object.hasOwn(specs, name)) problems.set(name, 'unknown_param');
  if (!aborted) {
    for (const [name, problem] of Object.entries(systemRuleProblems(system, params, policy))) {
      if (!problems.has(name)) problems.set(name, problem);
    }
  }
  return problems;
}

/**
 * An http(s) address that reads as it parses: written with `//` after the scheme, no backslash (a parser reads it as
 * `/`), no user info (`user:pw@`, even empty), no character the parser would drop or encode silently in its host, and
 * clean text. Such an address is forwarded as `canonicalUrl` gives it, never as the client wrote it.
 */
export function isHttpUrl(value: string): boolean {
  if (!isCleanText(value) || value.includes('\\')) return false;
  const written = /^https?:\/\/([^/?#]*)/i.exec(value);
  if (!written || written[1]!.includes('@')) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  // The host and port as written are the ones parsed (no IDN, number or percent-encoded forms that read as another).
  const authority = written[1]!.toLowerCase();
  return authority === url.host || authority === `${url.host}:${url.protocol === 'https:' ? 443 : 80}`;
}

/** The WHATWG serialisation of an address `isHttpUrl` accepts: what the relay checked is what it forwards. */
export function canonicalUrl(value: string): string {
  return new URL(value).href;
}

/**
 * The cross-parameter rules, as problems keyed by parameter name.
 * The spec's, for A: `confirmation_return_url` is required when `confirmation_type` = `redirect`;
 * `enable_autopayments` only together with `save_payment_method`.
 * This product's policy on top (`saveConnectsAutopay`): saving a method always connects autopayments (the widget
 * forces it on), so `save_payment_method`, `enable_autopayments` and `preferred_method` are all true or none, and
 * `cancel_payment` needs `save_payment_method`.
 */
export function systemRuleProblems(system: SystemId, params: Record<string, unknown>, policy: ParamPolicy = PRODUCT_POLICY): Record<string, string> {
  const problems: Record<string, string> = {};
  const spec = SYSTEMS[system];
  if (system === 'A' && params.confirmation_type === 'redirect' && params.confirmation_return_url === undefined) {
    problems.confirmation_return_url = 'required';
  }
  if (!policy.saveConnectsAutopay) {
    const saving = spec.saveFlag !== undefined && params[spec.saveFlag] === true;
    for (const name of spec.withSave ?? []) if (!saving && params[name] === true) problems[name] = 'link_rule';
  } else if (spec.autopay && Object.keys(spec.autopay).length > 1) {
    const [saveFlag, ...companions] = Object.keys(spec.autopay) as [string, ...string[]];
    const saving = params[saveFlag] === true;
    for (const name of companions) {
      if (saving && params[name] !== true) problems[name] = 'autopay_rule';
      if (!saving && params[name] === true) problems[name] = 'autopay_rule';
    }
    for (const name of Object.keys(spec.linkOnly ?? {})) {
      if (!saving && params[name] === true) problems[name] = 'link_rule';
    }
  }
  return problems;
}

/** The parameters that carry a URL the client is sent to. */
export function returnUrlParams(system: SystemId): string[] {
  return Object.entries(SYSTEMS[system].params)
    .filter(([, spec]) => spec.kind === 'url')
    .map(([name]) => name);
}
