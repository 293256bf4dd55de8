/**
 * Talking to the relay: `GET {relay}/config`, and what every request shares (`POST {relay}/payments` is in
 * late/pay.late.ts, loaded after the first screen). Every failure becomes a `PayError` of one small closed set of
 * types, keeping its cause where there is one.
 */
import { isAutopayLeadDays } from '../eps/autopay.js';
import { isBillingCode, type ErrorCode } from '../eps/errors.js';
import { isRecord } from '../eps/is-record.js';
import type { ErrorAnswer, OfferedSystem, PaymentOptions } from '../eps/relay-api.js';
import { SYSTEM_IDS } from '../eps/systems.js';
import { PayError } from './pay-error.js';

/** How long one request may take before it counts as a network failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** `{relay}/{path}`, the relay being absolute or relative to the page. */
export function relayUrl(relay: string, path: string): string {
  const base = new URL(relay, document.baseURI);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(path, base).href;
}

export async function fetchConfig(relay: string, signal: AbortSignal): Promise<PaymentOptions> {
  const url = relayUrl(relay, 'config');
  let answer: Answer;
  try {
    // No header of its own: the request is then exactly what `<link rel="preload" as="fetch" crossorigin>` sends.
    answer = await request(url, { signal });
  } catch (error) {
    // CORS hides why a relay that does not allow this page answers nothing; a no-cors request reaches it all the same.
    if (
      (error as PayError).code === 'network_error' &&
      (await fetch(url, { mode: 'no-cors', signal }).then(Boolean, () => false))
    ) {
      throw new PayError(
        'relay',
        'origin_not_allowed',
        `${url} does not allow ${location.origin}: add it to the relay's ALLOWED_ORIGINS.`,
        { cause: error },
      );
    }
    throw error;
  }
  return readAnswer(answer, parseConfig);
}

/**
 * The `/config` answer read into `PaymentOptions`: systems this widget does not know are left out; without a whole
 * `autopayLeadDays` no system offers saving (the payer is told N before saving a method, never a guess).
 */
function parseConfig(body: unknown): PaymentOptions | undefined {
  if (!isRecord(body) || !Array.isArray(body.systems) || !Array.isArray(body.lookups)) return undefined;
  if (typeof body.maxAmount !== 'string') return undefined;
  // Without a whole N (an older relay) the payer cannot be told when autopayments charge: no saving is offered.
  const days = isAutopayLeadDays(body.autopayLeadDays) ? body.autopayLeadDays : 0;
  const systems: OfferedSystem[] = [];
  for (const s of body.systems as Partial<Record<keyof OfferedSystem, unknown>>[]) {
    if (isRecord(s) && (SYSTEM_IDS as readonly unknown[]).includes(s.id)) {
      const canSave = days > 0 && s.canSave === true;
      systems.push({ id: s.id as OfferedSystem['id'], canSave, linkOnly: canSave && s.linkOnly === true });
    }
  }
  const lookups = body.lookups.filter((n): n is number => Number.isInteger(n));
  return { systems, lookups, maxAmount: body.maxAmount, autopayLeadDays: days };
}

/** What `request` answers: the status, a header, the body as JSON (a `Response` is one too). */
export interface Answer {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}

/**
 * One request with a time limit; a failure to get any answer is a `network` error, an abort is rethrown as it is. An
 * `XMLHttpRequest`, not `fetch`: the preloaded `/config` read this way made the form ready about 9 ms sooner at 4 × CPU
 * (no `Request`, `Response` or body stream before the first render). Its credentials are `fetch`'s default (cookies
 * to the page's own origin alone), so the preload's answer serves it.
 */
export function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<Answer> {
  const { signal } = init;
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const xhr = new XMLHttpRequest();
    // Before the timer and the listener: a header the browser refuses (a line break in a session) leaves neither.
    xhr.open(init.method ?? 'GET', url);
    for (const [name, value] of Object.entries(init.headers ?? {})) xhr.setRequestHeader(name, value);
    let failure: unknown;
    const onAbort = () => {
      failure = signal.reason;
      xhr.abort();
    };
    const timer = setTimeout(() => {
      failure = new PayError('network', 'timeout', 'The relay did not answer in time.');
      xhr.abort();
    }, REQUEST_TIMEOUT_MS);
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.onloadend = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else if (!xhr.status) reject(new PayError('network', 'network_error', 'The relay could not be reached.'));
      else
        resolve({
          ok: xhr.status >= 200 && xhr.status < 300,
          status: xhr.status,
          headers: { get: (name) => xhr.getResponseHeader(name) },
          json: async () => JSON.parse(xhr.responseText) as unknown,
        });
    };
    xhr.send(init.body);
  });
}

/**
 * A relay answer: an error answer is thrown as its `PayError` (`failure`, by default `relayError`); a success is its
 * JSON body read by `read`, and a body that is not JSON or that `read` does not accept (`undefined`) is a `bad_answer`.
 */
export async function readAnswer<T>(
  answer: Answer,
  read: (body: unknown) => T | undefined,
  failure: (answer: Answer, body: unknown) => PayError = relayError,
): Promise<T> {
  let body: unknown;
  let json = true;
  try {
    body = await answer.json();
  } catch (error) {
    [body, json] = [error, false];
  }
  if (!answer.ok) throw failure(answer, json ? body : undefined);
  const value = json ? read(body) : undefined;
  if (value === undefined)
    throw new PayError('relay', 'bad_answer', 'The relay answered with an unexpected shape.', { cause: body });
  return value;
}

/** The `error` object of a relay's error answer (`ErrorAnswer`), read field by field; `{}` for any other body. */
export function errorOf(body: unknown): Partial<Record<keyof ErrorAnswer['error'], unknown>> {
  return isRecord(body) && isRecord(body.error) ? body.error : {};
}

/**
 * The relay's error answer: its code, its message and `Retry-After` (a payment's refusal says more: its fields and a
 * duplicate's time, read by the submit chain). An answer that is not the relay's (a proxy's page) still gives one.
 */
export function relayError(answer: Answer, body: unknown): PayError {
  const { status } = answer;
  const error = errorOf(body);
  const code = typeof error.code === 'string' ? (error.code as ErrorCode) : (`http_${status}` as const);
  const message = typeof error.message === 'string' ? error.message : `The relay answered ${status}.`;
  const wait = Number(answer.headers.get('retry-after'));
  return new PayError(isBillingCode(code) ? 'billing' : 'relay', code, message, {
    retryAfter: wait > 0 ? wait : undefined,
    cause: { status, body },
  });
}

/** Waits `ms` unless the signal aborts first; leaves no timer behind either way. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      if (signal.aborted) reject(signal.reason);
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
