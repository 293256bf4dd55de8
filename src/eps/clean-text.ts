/**
 * The one rule for text the relay forwards to the billing, shared by every text field of the model (the widget, the
 * relay and the sandbox agree through it): no character that is not shown as itself. Refused anywhere in a value:
 * control characters (C0 — NUL, TAB, LF, CR… —, DEL and C1 — NEL…), invisible format characters (Unicode category
 * Cf: zero-width spaces and joiners, bidirectional overrides, the soft hyphen, the byte order mark…), the line and
 * paragraph separators U+2028 and U+2029, lone surrogates (which no UTF-8 text can carry), the default-ignorable
 * code points that show as nothing (Hangul fillers U+3164, U+115F, U+FFA0, variation selectors, the combining grapheme
 * joiner…), and private-use, unassigned and noncharacter code points (which show as whatever a font makes of them).
 * A billing or payment system that copies such a value into a header, a log line or a page gets only what a person
 * would read. "Unassigned" is as of the engine's Unicode version: a character newer than it is refused.
 */
/** `C`: Cc, Cf, Cs, Co and Cn (noncharacters among them); `DI`: Default_Ignorable_Code_Point. */
const UNCLEAN = /[\p{C}\p{Zl}\p{Zp}\p{DI}]/u;
/** Printable ASCII only: clean at once (most values; the Unicode class above costs some twenty times as much). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The length of a text in characters (code points: a surrogate pair is one), as every length limit of the model counts. */
export const textLength = (text: string): number => [...text].length;

/** True when `value` holds none of the characters above. */
export function isCleanText(value: string): boolean {
  return PRINTABLE_ASCII.test(value) || !UNCLEAN.test(value);
}
