/**
 * How the relay tells the billing's "no agreement found" answer to `POST /eps_payments` from its other refusals. The
 * spec shows no error format, so both signs are configurable (`AGREEMENT_NOT_FOUND_STATUS`, `…_TEXT`): an HTTP status
 * (a billing written from the spec answers a lookup that finds nothing with 404, and so does the sandbox), or a
 * pattern on the error's own words, for a billing that says it with a 400 or 422.
 */
import { errorTexts } from './answer.js';

export interface AgreementNotFoundRule {
  /** Statuses that always mean it (`404`). */
  statuses: number[];
  /** Matched, case-insensitively, against the texts of the error (`error.message`, `message`, `error`, codes). */
  pattern: RegExp | null;
}

export const DEFAULT_AGREEMENT_NOT_FOUND_TEXT = 'agreement.{0,40}not.found|no.(such.)?agreement';

export function isAgreementNotFound(status: number, body: unknown, rule: AgreementNotFoundRule): boolean {
  if (status < 400 || status >= 500) return false;
  if (rule.statuses.includes(status)) return true;
  if (rule.pattern === null) return false;
  const { messages, codes } = errorTexts(body);
  return [...messages, ...codes].some((text) => text.length <= 500 && rule.pattern!.test(text));
}
