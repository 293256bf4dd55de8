/**
 * Whether a `Content-Type` says JSON (`application/json`, parameters such as `charset` allowed): the one rule of the
 * relay and of the sandbox's billing for a request body.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/json\s*(?:;|$)/i.test(contentType ?? '');
}
