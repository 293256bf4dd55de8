/**
 * Structured JSON logs (pino). Credentials, secrets, tokens, cookies, e-mails and phones are redacted under their
 * names (any letter case, `-` and `_` ignored: `Authorization`, `access_token`, `Set-Cookie`, …) in every logged object,
 * errors' own properties included, so a careless log call cannot leak them. What lies deeper than `MAX_DEPTH` is not
 * logged at all. (pino's error serializer keeps only the message and stack of an error's `cause`.)
 *
 * A `formatters.log` pass rather than pino's `redact` paths: those name each level with wildcards, and the paths for
 * four levels cost about 45 µs per line (measured), ten times the line itself; this walk costs next to nothing on the
 * relay's flat lines and copies only what it changes.
 */
import { pino, type Logger } from 'pino';

const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'password',
  'billingpassword',
  'secret',
  'sessionsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'cookie',
  'setcookie',
  'email',
  'phone',
]);
const CENSOR = '[redacted]';
const TOO_DEEP = '[too deep]';
const CIRCULAR = '[circular]';
const MAX_DEPTH = 8;

/**
 * The most log text held in memory while stdout does not keep up (a slow pipe, a stalled collector): past it, new lines
 * are dropped (sonic-boom's `maxLength`), so a slow reader cannot grow the relay's memory without bound.
 */
export const LOG_BUFFER_MAX_BYTES = 8 * 1024 * 1024;

export function createLogger(
  level: string,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX_BYTES }),
): Logger {
  return pino({ level, base: undefined, formatters: { log: (object) => redactSecrets(object) } }, destination);
}

/** `value` with every secret-named property censored; the same object when there is none. */
export function redactSecrets<T>(value: T): T {
  return redact(value, 0, new WeakMap()) as T;
}

const isSecretKey = (key: string) => SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));

/** Plain objects, arrays and errors are walked; other objects (dates, URLs, buffers…) log as they are. */
function isWalked(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || proto === Object.prototype || Array.isArray(value) || value instanceof Error;
}

/**
 * `seen` maps each object walked to its result, so a shared object is walked once; an object met again inside itself
 * is logged as `[circular]` (its original, unredacted, must not be reached that way).
 */
function redact(value: unknown, depth: number, seen: WeakMap<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null || !isWalked(value)) return value;
  if (seen.has(value)) return seen.get(value);
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  seen.set(value, CIRCULAR);
  let result: unknown = value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => redact(item, depth + 1, seen));
    if (items.some((item, i) => item !== value[i])) result = items;
  } else {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const redacted = isSecretKey(key) ? CENSOR : redact(item, depth + 1, seen);
      if (redacted === item) continue;
      // A copy with the same prototype and own properties, so an error stays an error (message, stack, cause).
      copy ??= Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value)) as Record<
        string,
        unknown
      >;
      copy[key] = redacted;
    }
    if (copy) result = copy;
  }
  seen.set(value, result);
  return result;
}
