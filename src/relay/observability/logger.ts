/**
 * Structured JSON logs (pino). Credentials, secrets, tokens, cookies, e-mails and phones are redacted under their
 * names (any letter case, `-` and `_` ignored: `Authorization`, `access_token`, `Set-Cookie`, …) in every logged object,
 * errors' own properties included, so a careless log call cannot leak them. What lies deeper than `MAX_DEPTH` is not
 * logged at all. (pino's error serializer keeps only the message and stack of an error's `cause`.)
 *
 * A `formatters.log` pass rather than pino's `redact` paths: those name each level with wildcards, and the paths for
 * four levels cost about 45 µs per line (measured), ten times the line itself; this walk costs next to nothing on the
 * relay's flat lines and copies only what it changes.
 *
 * The relay's own secrets — the billing password and its Basic value, the bearer tokens it holds or held, the session
 * and token secrets — are also known by value (`LogSecrets`): each is cut out of every line as it is written, whatever
 * key or depth it hides under, so a billing that echoes a token in its error text cannot put it in a log.
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

/** How many of the latest bearer tokens are scrubbed besides the fixed secrets (older ones are long revoked). */
const TOKENS_KEPT = 8;
/** Shorter values are not scrubbed: they would cut ordinary words out of every line. */
const MIN_SECRET_LENGTH = 4;

/** The secret values a logger cuts out of its lines. */
export class LogSecrets {
  readonly #fixed = new Set<string>();
  readonly #tokens: string[] = [];
  #patterns: string[] = [];

  /** A secret for as long as the relay runs (a password, a secret key). */
  add(value: string | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH && !this.#fixed.has(value)) {
      this.#fixed.add(value);
      this.#update();
    }
  }

  /** A bearer token: the latest `TOKENS_KEPT` are scrubbed. */
  addToken(token: string): void {
    if (token.length < MIN_SECRET_LENGTH || this.#tokens.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > TOKENS_KEPT) this.#tokens.shift();
    this.#update();
  }

  /** `line` with every secret replaced, as written (and as JSON escapes it). */
  scrub(line: string): string {
    for (const pattern of this.#patterns) if (line.includes(pattern)) line = line.replaceAll(pattern, CENSOR);
    return line;
  }

  #update(): void {
    const values = [...this.#fixed, ...this.#tokens];
    // Longest first, so a secret that contains another is cut whole.
    this.#patterns = [...new Set(values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]))].sort(
      (a, b) => b.length - a.length,
    );
  }
}

export function createLogger(
  level: string,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX_BYTES }),
  secrets: LogSecrets = new LogSecrets(),
): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      formatters: { log: (object) => redactSecrets(object) },
      hooks: { streamWrite: (line) => secrets.scrub(line) },
    },
    destination,
  );
  SECRETS.set(logger, secrets);
  return logger;
}

const SECRETS = new WeakMap<Logger, LogSecrets>();

/** The secrets `logger` scrubs. A logger not made by `createLogger` scrubs none: the relay refuses it. */
export function logSecretsOf(logger: Logger): LogSecrets {
  const secrets = SECRETS.get(logger);
  if (!secrets)
    throw new TypeError(
      'The relay logs through createLogger (src/relay/observability/logger.ts), which scrubs secrets.',
    );
  return secrets;
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
    // An error's stack may be an accessor that reads the original's internals (Node 24): kept as a value.
    if (copy && value instanceof Error) {
      Object.defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true });
    }
    if (copy) result = copy;
  }
  seen.set(value, result);
  return result;
}
