/**
 * The three external payment systems of the billing API, described once as data: the `eps_params` each takes,
 * their kinds, which are required (always, or when another parameter has a value), where the client returns, and
 * which flags save a method, connect autopayments or only link a card. One engine (params.ts) checks parameters
 * against it for the widget, the relay and the sandbox; the widget draws its form from it.
 */

export const SYSTEM_IDS = ['A', 'B', 'C'] as const;
export type SystemId = (typeof SYSTEM_IDS)[number];

/** How a parameter's value is checked. */
export type ParamKind = 'boolean' | 'url' | 'email' | 'phone' | 'text' | 'token';

export interface ParamSpec {
  kind: ParamKind;
  required?: boolean;
  /** Required when each named parameter has the given value (checked with the cross-parameter rules). */
  requiredWhen?: Record<string, unknown>;
}

export interface SystemSpec {
  params: Record<string, ParamSpec>;
  /** Where the client comes back after paying (and after a failure, when the system has its own parameter). */
  returnUrl: string;
  failUrl?: string;
  /** The parameter that saves the payment method (true); absent for a system that cannot save one. */
  saveFlag?: string;
  /**
   * The parameters that save the method and connect autopayments (all true): `saveFlag` and its companions, which
   * this product's policy sets together with it. Present exactly when `saveFlag` is.
   */
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
      confirmation_return_url: { kind: 'url', requiredWhen: { confirmation_type: 'redirect' } },
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
 * What each parameter means, after the billing API's spec: docs/relay.md's table of the systems' parameters is made
 * from SYSTEMS and this (npm run build), which fails when a parameter has no meaning here or a meaning names none.
 * Apart from SYSTEMS so that the widget's bundle, which draws its form from SYSTEMS, does not carry these texts.
 */
export const PARAM_MEANINGS: Record<SystemId, Record<string, string>> = {
  A: {
    confirmation_type: 'the confirmation scenario, a code of system A (`redirect`: the payer goes to its payment page)',
    confirmation_return_url: 'where the payer returns after paying',
    email: 'e-mail for the receipt',
    phone: 'phone number for the receipt',
    comment: 'a comment',
    save_payment_method: 'save the payment method',
    enable_autopayments: 'the saved method gets autopayments (automatic charging) in the billing',
    cancel_payment: 'a test payment, cancelled once made: links the method without charging the payer',
    payment_method_data:
      'the payment method’s kind (`bank_card`…), in system A’s own values; without it the payer chooses on A’s page',
    preferred_method: 'with the two above, connects autopayments (the spec gives it no other meaning)',
  },
  B: {
    confirmation_return_url: 'where the payer returns after a successful payment',
    return_url_fail: 'where the payer returns after a failed payment',
    email: 'e-mail for the receipt',
    phone: 'phone number for the receipt',
    name: 'an organization’s name or a person’s full name',
    comment: 'a comment',
    is_autopayment: 'connect an autopayment with this payment (the method is saved for it)',
  },
  C: {
    return_url: 'where the payer returns after paying',
    email: 'e-mail for invoicing the card holder',
    phone: 'the buyer’s phone number',
    comment: 'a comment',
  },
};

/** Whether the system can save a payment method (and so connect autopayments). */
export function canSaveMethod(system: SystemId): boolean {
  return SYSTEMS[system].saveFlag !== undefined;
}

/** Whether these parameters of the system save the payment method: its `saveFlag` is true. */
export function savesMethod(system: SystemId, params: Record<string, unknown>): boolean {
  const flag = SYSTEMS[system].saveFlag;
  return flag !== undefined && params[flag] === true;
}

/** The parameters that carry a URL the client is sent to. */
export function returnUrlParams(system: SystemId): string[] {
  return Object.entries(SYSTEMS[system].params)
    .filter(([, spec]) => spec.kind === 'url')
    .map(([name]) => name);
}
