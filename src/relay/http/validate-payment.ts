/**
 * The payment route's validation step: JSON only, checked with the shared model (never trust the browser), and
 * every return address on one of the merchant's origins (no open redirect). On success the validated payment is
 * `c.var.payment`; nothing else downstream reads the client's body.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { isJsonMediaType } from '../../eps/media-type.js';
import type { ProblemKey } from '../../eps/messages.js';
import { checkPayment, type PaymentRules } from '../../eps/request.js';
import { returnUrlParams, type SystemId } from '../../eps/systems.js';
import type { RelayContext } from './context.js';
import { RelayError } from './errors.js';

export function validatePayment(rules: PaymentRules, allowedOrigins: Set<string>): MiddlewareHandler<RelayContext> {
  return async (c, next) => {
    const checked = checkPayment(await readJson(c), rules);
    const problems = checked.ok
      ? foreignReturnUrls(checked.value.system, checked.value.params, allowedOrigins)
      : checked.fields;
    if (!checked.ok || Object.keys(problems).length) {
      throw new RelayError('validation_failed', { fields: problems });
    }
    c.set('payment', checked.value);
    await next();
  };
}

async function readJson(c: Context): Promise<unknown> {
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new RelayError('unsupported_media_type');
  }
  const text = (await c.req.text()).replace(AMOUNT_NUMBER, '$1"$2"');
  try {
    // Only a key written with a \u escape can still hold a number amount here; without one, the walk of every value
    // is spared (measured: it costs twice the parse).
    return text.includes('\\u') ? JSON.parse(text, unreadableAmount) : JSON.parse(text);
  } catch {
    throw new RelayError('invalid_json');
  }
}

/**
 * `JSON.parse` turns every number into a binary float before anything can check it: `10.0000000000000001` would
 * become 10 and `1e2` 100. The amount is money, so an amount written as a JSON number is read as the text the client
 * wrote and checked as such (two decimals at most, no exponent). The match is anchored on a key position: a JSON
 * string cannot hold an unescaped quote, so no text inside a string can match. It also turns an `"amount"` key deeper
 * in the body into text, which changes nothing there: no parameter takes an object.
 *
 * Only a number exactly as RFC 8259 writes one is turned into text (`-? (0 | [1-9] digits) (. digits)? (e [+-]? digits)?`,
 * ending where a JSON value ends): anything else (`0015`, `00.50`, `+1`, `.5`, `1.`) is left in place for `JSON.parse`
 * to refuse, so a body that is not JSON stays a 400.
 */
const AMOUNT_NUMBER = /([{,]\s*"amount"\s*:\s*)(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*[,}\]])/g;
/** What an amount whose written text is lost becomes: not a decimal, so the model refuses it (`amount_format`). */
const UNREADABLE_AMOUNT = 'not as written';
/** A number that is still a number was written under an escaped key ("\u0061mount"): its text is lost, refuse it. */
const unreadableAmount = (key: string, value: unknown) =>
  key === 'amount' && typeof value === 'number' ? UNREADABLE_AMOUNT : value;

function foreignReturnUrls(
  system: SystemId,
  params: Record<string, unknown>,
  allowed: Set<string>,
): Record<string, ProblemKey> {
  const problems: Record<string, ProblemKey> = {};
  for (const name of returnUrlParams(system)) {
    const value = params[name];
    if (typeof value === 'string' && !allowed.has(new URL(value).origin)) problems[`eps_params.${name}`] = 'origin';
  }
  return problems;
}
