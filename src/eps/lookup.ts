/**
 * The kinds of value by which the billing finds the agreement a payment goes to (`agreement_param_id`), each with
 * the check a careful integrator applies before asking the billing.
 */
import { isCleanText, textLength } from './clean-text.js';
import { EMAIL_ADDRESS, MAX_EMAIL_LENGTH } from './email.js';

export const LOOKUP_KINDS = [1, 4, 5, 6, 7, 8, 10, 11, 14, 15] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** What each kind looks the agreement up by; the key names its label in every language. */
export const LOOKUP_KEYS = {
  1: 'login',
  4: 'full_name',
  5: 'agreement_number',
  6: 'accounting_code',
  7: 'email',
  8: 'account_number',
  10: 'client_id',
  11: 'agreement_id',
  14: 'invoice_id',
  15: 'taxpayer_number',
} as const satisfies Record<LookupKind, string>;

export type LookupProblem =
  'lookup_kind' | 'required' | 'too_long' | 'text' | 'email' | 'digits' | 'full_name' | 'code' | 'inn';

const CODE = /^[\p{L}\p{N}][\p{L}\p{N} ._/#-]*$/u;
const FULL_NAME = /^\p{L}[\p{L}\p{M} .'’-]*$/u;

const MAX_LENGTH: Record<LookupKind, number> = {
  1: 64,
  4: 200,
  5: 64,
  6: 64,
  7: MAX_EMAIL_LENGTH,
  8: 34,
  10: 18,
  11: 18,
  14: 18,
  15: 12,
};

export function isLookupKind(value: unknown): value is LookupKind {
  return (LOOKUP_KINDS as readonly unknown[]).includes(value);
}

/** Why `value` cannot find an agreement by `kind`, or `null` when it is well formed. */
export function lookupProblem(kind: LookupKind, value: string): LookupProblem | null {
  const v = value.trim();
  if (!v) return 'required';
  if (!isCleanText(v)) return 'text';
  if (textLength(v) > MAX_LENGTH[kind]) return 'too_long';
  switch (kind) {
    case 7:
      return EMAIL_ADDRESS.test(v) ? null : 'email';
    case 10:
    case 11:
    case 14:
      return /^[1-9]\d*$/.test(v) ? null : 'digits';
    case 15:
      return isTaxpayerNumber(v) ? null : 'inn';
    case 4:
      return FULL_NAME.test(v) ? null : 'full_name';
    case 1:
      return /^\S+$/.test(v) ? null : 'code';
    default:
      return CODE.test(v) ? null : 'code';
  }
}

const INN10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

function checkDigit(digits: number[], weights: number[]): number {
  return (weights.reduce((sum, w, i) => sum + w * digits[i]!, 0) % 11) % 10;
}

/** A taxpayer number (INN): 10 digits for an organisation, 12 for a person, with its check digits. */
export function isTaxpayerNumber(value: string): boolean {
  if (!/^(\d{10}|\d{12})$/.test(value)) return false;
  const d = [...value].map(Number);
  if (d.length === 10) return checkDigit(d, INN10) === d[9];
  return checkDigit(d, INN11) === d[10] && checkDigit(d, INN12) === d[11];
}

/** How a form asks for a kind's value: the input `type`, the keyboard (`inputmode`) and the browser's autofill. */
export interface LookupInput {
  type?: 'email';
  inputmode?: 'numeric';
  autocomplete?: string;
}

const DIGITS: LookupInput = { inputmode: 'numeric' };

export const LOOKUP_INPUTS: Record<LookupKind, LookupInput> = {
  1: { autocomplete: 'username' },
  4: { autocomplete: 'name' },
  5: {},
  6: {},
  7: { type: 'email', autocomplete: 'email' },
  8: {},
  10: DIGITS,
  11: DIGITS,
  14: DIGITS,
  15: DIGITS,
};

/** The kind a client session's agreement is found by: its ID. */
export const SESSION_LOOKUP_KIND: LookupKind = 11;
