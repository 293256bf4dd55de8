/**
 * The kinds of value by which the billing finds the agreement a payment goes to (`agreement_param_id`), each with
 * the check a careful integrator applies before asking the billing.
 */
import { isCleanText, textLength } from './clean-text.js';
import { EMAIL_ADDRESS, MAX_EMAIL_LENGTH } from './email.js';

export const LOOKUP_KINDS = [1, 4, 5, 6, 7, 8, 10, 11, 14, 15] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export type LookupProblem =
  'lookup_kind' | 'required' | 'too_long' | 'text' | 'email' | 'digits' | 'full_name' | 'code' | 'inn';

/** The shape a kind's value must have; a value of another shape gets the problem of that name (a login's: `code`). */
type LookupFormat = 'email' | 'digits' | 'inn' | 'full_name' | 'code' | 'login';

/** How a form asks for a kind's value: the input `type`, the keyboard (`inputmode`) and the browser's autofill. */
export interface LookupInput {
  type?: 'email';
  inputmode?: 'numeric';
  autocomplete?: string;
}

/**
 * One kind: `key` names its label in every language, `maxLength` counts characters (code points), `format` is the
 * shape its value must have, `input` how a form asks for it.
 */
export interface LookupSpec {
  key: string;
  maxLength: number;
  format: LookupFormat;
  input: LookupInput;
}

const DIGITS = { maxLength: 18, format: 'digits', input: { inputmode: 'numeric' } } as const;

/** What each kind looks the agreement up by, and how its value is checked and asked for. */
export const LOOKUPS = {
  1: { key: 'login', maxLength: 64, format: 'login', input: { autocomplete: 'username' } },
  4: { key: 'full_name', maxLength: 200, format: 'full_name', input: { autocomplete: 'name' } },
  5: { key: 'agreement_number', maxLength: 64, format: 'code', input: {} },
  6: { key: 'accounting_code', maxLength: 64, format: 'code', input: {} },
  7: { key: 'email', maxLength: MAX_EMAIL_LENGTH, format: 'email', input: { type: 'email', autocomplete: 'email' } },
  8: { key: 'account_number', maxLength: 34, format: 'code', input: {} },
  10: { key: 'client_id', ...DIGITS },
  11: { key: 'agreement_id', ...DIGITS },
  14: { key: 'invoice_id', ...DIGITS },
  15: { key: 'taxpayer_number', maxLength: 12, format: 'inn', input: { inputmode: 'numeric' } },
} as const satisfies Record<LookupKind, LookupSpec>;

/** The label key of each kind. */
export type LookupKey = (typeof LOOKUPS)[LookupKind]['key'];

const CODE = /^[\p{L}\p{N}][\p{L}\p{N} ._/#-]*$/u;
const FULL_NAME = /^\p{L}[\p{L}\p{M} .'’-]*$/u;

const FORMATS: Record<LookupFormat, (value: string) => boolean> = {
  email: (v) => EMAIL_ADDRESS.test(v),
  digits: (v) => /^[1-9]\d*$/.test(v),
  inn: (v) => isTaxpayerNumber(v),
  full_name: (v) => FULL_NAME.test(v),
  code: (v) => CODE.test(v),
  login: (v) => /^\S+$/.test(v),
};

export function isLookupKind(value: unknown): value is LookupKind {
  return (LOOKUP_KINDS as readonly unknown[]).includes(value);
}

/** Why `value` cannot find an agreement by `kind`, or `null` when it is well formed. */
export function lookupProblem(kind: LookupKind, value: string): LookupProblem | null {
  const v = value.trim();
  const { maxLength, format } = LOOKUPS[kind];
  if (!v) return 'required';
  if (!isCleanText(v)) return 'text';
  if (textLength(v) > maxLength) return 'too_long';
  return FORMATS[format](v) ? null : format === 'login' ? 'code' : format;
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

/** The kind a client session's agreement is found by: its ID. */
export const SESSION_LOOKUP_KIND: LookupKind = 11;
