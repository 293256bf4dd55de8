/**
 * The one e-mail rule of the model: an agreement looked up by e-mail (lookup.ts), an `email` parameter (params.ts) and
 * the sandbox's new client all take the same addresses.
 */

/** A local part, `@`, and a domain of two labels or more; no spaces. */
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** The longest address (RFC 5321's path limit, less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
