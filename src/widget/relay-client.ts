/**
 * Talking to the relay: `GET {relay}/config` and `POST {relay}/payments`. Every failure becomes a `PayError` of one
 * small closed set of types, keeping its cause.
 */
import type { PaymentRequest } from '../eps/request.js';
import { SYSTEM_IDS, type SystemId } from '../eps/systems.js';

export type PayErrorType = 'validation' | 'network' | 'relay' | 'billing';

export class PayError extends Error {
  constructor(
    readonly type: PayErrorType,
    /** The relay's error code, or the widget's own: `network_error`, `timeout`, `bad_answer`, `unsafe_redirect`. */
    readonly code: string,
    message: string,
    options: { fields?: Record<string, string>; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'PayError';
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
  }

  /** Field path → problem key. */
  readonly fields?: Record<string, string>;
  /** The relay's `Retry-After`, in seconds. */
  readonly retryAfter?: number;
}

export interface RelaySystem {
  id: SystemId;
  canSave: boolean;
  linkOnly: boolean;
}

/** The relay's `GET /config` answer. */
export interface RelayConfig {
  systems: RelaySystem[];
  lookups: number[];
  maxAmount: string;
}

/** How long one request may take before it counts as a network failure. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A network failure of one attempt is retried this many times, with the same idempotency key. */
export const NETWORK_RETRIES = 1;
const RETRY_DELAY_MS = 400;

/** `{relay}/{path}`, the relay being absolute or relative to the page. */
export function relayUrl(relay: string, path: string): string {
  const base = new URL(relay, document.baseURI);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(path, base).href;
}

export async function fetchConfig(relay: string, signal: AbortSignal): Promise<RelayConfig> {
  const url = relayUrl(relay, 'config');
  let answer: Response;
  try {
    answer = await request(url, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    // CORS hides why a relay that does not allow this page answers nothing; a no-cors request reaches it all the same.
    if ((error as PayError).code === 'network_error' && (await fetch(url, { mode: 'no-cors', signal }).then(Boolean, () => false))) {
      throw new PayError('relay', 'origin_not_allowed', `${url} does not allow ${location.origin}: add it to the relay's ALLOWED_ORIGINS.`, { cause: error });
    }
    throw error;
  }
  const body = await readJson(answer);
  if (!answer.ok) throw relayError(answer, body);
  const config = parseConfig(body);
  if (!config) throw new PayError('relay', 'bad_answer', 'The relay answered /config with an unexpected shape.', { cause: body });
  return config;
}

function parseConfig(body: unknown): RelayConfig | null {
  if (!isRecord(body) || !Array.isArray(body.systems) || !Array.isArray(body.lookups)) return null;
  if (typeof body.maxAmount !== 'string') return null;
  const systems: RelaySystem[] = [];
  for (const s of body.systems) {
    if (isRecord(s) && (SYSTEM_IDS as readonly unknown[]).includes(s.id)) {
      systems.push({ id: s.id as SystemId, canSave: s.canSave === true, linkOnly: s.linkOnly === true });
    }
  }
  const lookups = body.lookups.filter((n): n is number => Number.isInteger(n));
  return { systems, lookups, maxAmount: body.maxAmount };
}

/**
 * Sends one attempt of a payment and answers the payment page's address. The same `idempotencyKey` is used for
 * the retry of a network failure, so the relay never creates the payment twice.
 */
export async function postPayment(
  relay: string,
  body: PaymentRequest,
  idempotencyKey: string,
  signal: AbortSignal,
): Promise<string> {
  const init = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey, Accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
  };
  let answer: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      answer = await request(relayUrl(relay, 'payments'), init);
      break;
    } catch (error) {
      if (attempt >= NETWORK_RETRIES || !(error instanceof PayError) || error.code !== 'network_error') throw error;
      await sleep(RETRY_DELAY_MS, signal);
    }
  }
  const result = await readJson(answer);
  if (!answer.ok) throw relayError(answer, result);
  const url = isRecord(result) ? result.redirect_url : undefined;
  if (typeof url !== 'string' || !url) {
    throw new PayError('relay', 'bad_answer', 'The relay did not answer a payment page address.', { cause: result });
  }
  return url;
}

/** `fetch` with a time limit; a failure to get any answer is a `network` error, an abort is rethrown as it is. */
export async function request(url: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  const outer = init.signal;
  outer.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new PayError('network', 'timeout', 'The relay did not answer in time.')), REQUEST_TIMEOUT_MS);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    if (outer.aborted) throw outer.reason;
    if (controller.signal.aborted) throw controller.signal.reason;
    throw new PayError('network', 'network_error', 'The relay could not be reached.', { cause: error });
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}

export async function readJson(answer: Response): Promise<unknown> {
  try {
    return await answer.json();
  } catch (error) {
    if (answer.ok) throw new PayError('relay', 'bad_answer', 'The relay answer is not JSON.', { cause: error });
    return undefined;
  }
}

const BILLING_CODES = /^billing_/;

/** The relay's error answer: its code, its fields' problem keys (`{problem, message}` on the wire), `Retry-After`. */
export function relayError(answer: Response, body: unknown): PayError {
  const { status } = answer;
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error.message === 'string' ? error.message : `The relay answered ${status}.`;
  const fields = isRecord(error.fields)
    ? Object.fromEntries(
        Object.entries(error.fields).flatMap(([path, f]) => (isRecord(f) && typeof f.problem === 'string' ? [[path, f.problem]] : [])),
      )
    : undefined;
  const wait = Number(answer.headers.get('retry-after'));
  const type: PayErrorType = fields ? 'validation' : BILLING_CODES.test(code) ? 'billing' : 'relay';
  return new PayError(type, code, message, { fields, retryAfter: wait > 0 ? wait : undefined, cause: { status, body } });
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

/**
 * Only a payment page on `https:` is opened, never `javascript:`, `data:` and the like, and never an address carrying
 * credentials. `http:` is followed only to this machine and only from a page on this machine over `http:` (the
 * sandbox and the demo): a merchant's page on `https:`, or on any other host, never sends the client to an
 * unencrypted page. `page` is the address of the page the element is in (read when called, never at import).
 */
export function isSafeRedirect(url: string, page: string = location.href): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol === 'https:') return true;
  return isLocalHttp(parsed) && isLocalHttp(new URL(page));
}

const isLocalHttp = (url: URL) => url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * A fresh idempotency key, a v4 UUID: `crypto.randomUUID` where the page is a secure context, else the same from
 * `crypto.getRandomValues` (the classic template: each 0, 1 or 8 becomes a random hex digit, keeping the version and
 * variant bits).
 */
export function newIdempotencyKey(): string {
  return (
    crypto.randomUUID?.() ??
    '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
      (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16),
    )
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
