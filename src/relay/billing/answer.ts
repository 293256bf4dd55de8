/**
 * Reading the billing's JSON answers, whose error format the spec does not show: its `{code, response}` envelope, and
 * the texts of an error wherever a billing is likely to put them (`error.message` or `error`, `message`; codes in
 * `error.code`, `code`).
 */
import { isRecord } from '../../eps/is-record.js';

/** The `response` object of the billing's `{code, response}` envelope. */
export function envelopeResponse(body: unknown): Record<string, unknown> | null {
  return isRecord(body) && isRecord(body.response) ? body.response : null;
}

/** The messages and the codes of an error body, each list in the order a billing most likely means them. */
export function errorTexts(body: unknown): { messages: string[]; codes: string[] } {
  if (!isRecord(body)) return { messages: [], codes: [] };
  const error = isRecord(body.error) ? body.error : { message: body.error };
  return { messages: strings(error.message, body.message), codes: strings(error.code, body.code) };
}

/** A short human message from a billing error, if it has one: for the request's log line, never for the client. */
export function billingMessage(body: unknown): string | null {
  return (
    errorTexts(body)
      .messages.find((text) => text.length > 0)
      ?.slice(0, 500) ?? null
  );
}

const strings = (...values: unknown[]) => values.filter((value): value is string => typeof value === 'string');
