/**
 * What the relay needs to know of each agreement lookup kind (lookup.ts) beyond its check, apart so the widget's
 * bundle does not carry it: which kinds are about a person, and the one writing of a value it counts attempts by.
 */
import { LOOKUP_KINDS, type LookupKind } from './lookup.js';

/**
 * Values about a person, known or guessed without a bill of theirs (a login, a full name, an e-mail address, a
 * taxpayer number): a public page that takes one tells whoever asks whether such a customer exists.
 */
export const PERSONAL_LOOKUP_KINDS: readonly LookupKind[] = [1, 4, 7, 15];

/** The kinds found by what is printed on a bill, not by who the customer is: the relay's default. */
export const IMPERSONAL_LOOKUP_KINDS: readonly LookupKind[] = LOOKUP_KINDS.filter(
  (kind) => !PERSONAL_LOOKUP_KINDS.includes(kind),
);

/** Kinds whose values may differ in letter case alone and find two agreements: a login. */
const CASE_SENSITIVE: readonly LookupKind[] = [1];

/**
 * The one writing of `value` that every writing of the same lookup shares (for counting attempts per value): Unicode
 * compatibility form, no space at the ends, one space between words, lower case unless the kind is case-sensitive.
 */
export function lookupValueKey(kind: LookupKind, value: string): string {
  const folded = value.normalize('NFKC').trim().replace(/\s+/gu, ' ');
  return CASE_SENSITIVE.includes(kind) ? folded : folded.toLowerCase();
}
