/**
 * Every environment variable of the relay, once: its group, default, whether it is required or secret, what it means,
 * what a good value is, how it is read and which `RelayConfig` property it fills. `loadConfig` (load.ts) runs this
 * table, and `RelayConfig`'s type is derived from it (`TableConfig`); the docs' configuration table and `.env.example`
 * are generated from it (scripts/docs/config-tables.ts).
 */
import { pino } from 'pino';
import { canonicalAmount, toMinorUnits } from '../../eps/amount.js';
import { DEFAULT_AUTOPAY_LEAD_DAYS, isAutopayLeadDays, MAX_AUTOPAY_LEAD_DAYS } from '../../eps/autopay.js';
import { IMPERSONAL_LOOKUP_KINDS } from '../../eps/lookup-key.js';
import { LOOKUP_KINDS, isLookupKind, type LookupKind } from '../../eps/lookup.js';
import { MIN_SECRET_BYTES } from '../session/client-session.js';
import { DEFAULT_AGREEMENT_NOT_FOUND_TEXT } from '../billing/agreement-not-found.js';
import type { RateLimit } from '../limits/rate-limit.js';

export const CONFIG_GROUPS = {
  billing: 'The billing',
  profile: 'Billing profile: where the spec is silent',
  payments: 'Payments',
  server: 'Server',
  stores: 'State: keys, limits, the token',
  limits: 'Rate limits',
  sessions: 'Client sessions and saved methods',
  traces: 'Traces (OpenTelemetry)',
} as const;

export type ConfigGroup = keyof typeof CONFIG_GROUPS;

/** What a parser answers for a value it does not accept. */
export const INVALID = Symbol('invalid');

export interface Variable<T> {
  group: ConfigGroup;
  /** The text used when the variable is not set. Set but empty, a variable with a default is refused, unless `empty`. */
  default?: string;
  /** What the variable set but empty means (`none`): it may be. */
  empty?: string;
  /** A value to show where there is no default (`.env.example`). */
  example?: string;
  required?: boolean;
  /** Its value never appears in a log line, an answer or a served file. */
  secret?: boolean;
  /** What a good value is: the end of "NAME must …" when it is not. */
  must: string;
  /** What it does, for the docs (Markdown). */
  description: string;
  /** The `RelayConfig` property the value goes to; none: one that several variables make together (load.ts). */
  config?: string;
  /** The property's value when the variable gives none (unset without a default, or empty). */
  unset?: T;
  /** The value, or `INVALID`. Called only for a non-empty (trimmed) text. */
  parse(text: string): T | typeof INVALID;
}

/** A row, its literal types kept (`config`, `required`, `default`…): `TableConfig` is read from them. */
const variable = <const V extends Variable<unknown>>(v: V): V => v;

const text = (t: string) => t;
const list = (t: string) => t.split(/[\s,]+/).filter(Boolean);
const integer = (t: string) => (/^\d{1,9}$/.test(t) ? Number(t) : INVALID);
const positive = (t: string) => {
  const n = integer(t);
  return n === INVALID || n === 0 ? INVALID : n;
};
const port = (t: string) => {
  const n = integer(t);
  return n === INVALID || n > 65535 ? INVALID : n;
};
const flag = (t: string) => (/^(true|false)$/i.test(t) ? t.toLowerCase() === 'true' : INVALID);
const secretKey = (t: string) => (new TextEncoder().encode(t).length >= MIN_SECRET_BYTES ? t : INVALID);
const names = (pattern: RegExp) => (t: string) => {
  const items = list(t);
  return items.every((item) => pattern.test(item)) ? items : INVALID;
};
const rateLimit = (t: string): RateLimit | typeof INVALID => {
  const match = /^(\d{1,9})\/(\d{1,9})$/.exec(t);
  return match && Number(match[1]) > 0 && Number(match[2]) > 0
    ? { points: Number(match[1]), seconds: Number(match[2]) }
    : INVALID;
};
const httpUrl = (t: string) => (URL.canParse(t) && /^https?:$/.test(new URL(t).protocol) ? t : INVALID);
const FIELD_NAME = /^[A-Za-z_][\w-]*$/;
const PARAM_NAME = /^[a-z_][a-z0-9_]*$/i;
const ms = 'a number of milliseconds, greater than 0';
const perSeconds = (example: string) => `be requests/seconds, such as ${example}`;
/** pino's levels, and `silent` (no log at all). */
const LOG_LEVELS = [...Object.keys(pino.levels.values), 'silent'];

export const VARIABLES = {
  BILLING_BASE_URL: variable({
    group: 'billing',
    config: 'billingBaseUrl',
    required: true,
    example: 'https://billing.example/api/rest/v1',
    must: 'be an http(s) URL without credentials, ending with /api/rest/v1',
    description:
      'billing REST API base, ending with `/api/rest/v1` (no credentials in it); `https:` — plain `http:` only to this machine (`localhost`, `127.0.0.1`, `[::1]`, as for payment pages: the sandbox) or with `BILLING_ALLOW_HTTP`',
    parse: (t) => {
      const url = t.replace(/\/+$/, '');
      return isBillingBaseUrl(url) ? url : INVALID;
    },
  }),
  BILLING_USERNAME: variable({
    group: 'billing',
    config: 'billingUsername',
    required: true,
    must: 'be the billing user name',
    description: 'HTTP Basic user name for `GET /auth`',
    parse: text,
  }),
  BILLING_PASSWORD: variable({
    group: 'billing',
    config: 'billingPassword',
    required: true,
    secret: true,
    must: 'be the billing password',
    description: 'HTTP Basic password for `GET /auth`',
    parse: text,
  }),
  EPS_UUID_A: variable({
    group: 'billing',
    must: 'be an eps_uuid',
    description:
      'the billing’s `eps_uuid` of payment system A; a system without one is not offered (`EPS_UUID_A`, `EPS_UUID_B`, `EPS_UUID_C`: at least one)',
    parse: text,
  }),
  EPS_UUID_B: variable({
    group: 'billing',
    must: 'be an eps_uuid',
    description: 'the `eps_uuid` of payment system B',
    parse: text,
  }),
  EPS_UUID_C: variable({
    group: 'billing',
    must: 'be an eps_uuid',
    description: 'the `eps_uuid` of payment system C',
    parse: text,
  }),
  BILLING_ALLOW_HTTP: variable({
    group: 'billing',
    default: 'false',
    must: 'be true or false',
    description:
      '`true` lets `BILLING_BASE_URL` be plain `http:` to another host. **Risk**: the relay’s Basic credentials and bearer tokens then cross the network unencrypted; only for a billing on a private network you trust',
    parse: flag,
  }),
  BILLING_TIMEOUT_MS: variable({
    group: 'billing',
    config: 'billingTimeoutMs',
    default: '10000',
    must: `be ${ms}`,
    description: 'time limit of each billing call (connect, headers, body, total)',
    parse: positive,
  }),
  BILLING_MAX_RESPONSE_BYTES: variable({
    group: 'billing',
    config: 'billingMaxResponseBytes',
    default: '1048576',
    must: 'be a number of bytes, greater than 0',
    description:
      'the most bytes of any billing answer read (`/auth`, `/eps_payments`, `/payment_methods`); a larger or endless one is a 502 and its connection is dropped',
    parse: positive,
  }),
  BILLING_TOKEN_TTL_UNIT: variable({
    group: 'profile',
    config: 'tokenTtlUnit',
    default: 's',
    must: 'be s or ms',
    description: 'unit of `expires_in` from `GET /auth` (`s` or `ms`)',
    parse: (t) => (t === 's' || t === 'ms' ? t : INVALID),
  }),
  REDIRECT_URL_KEYS: variable({
    group: 'profile',
    config: 'redirectUrlKeys',
    default: 'confirmation_url,payment_url,redirect_url,url',
    must: "list the names of the billing answer's fields, at the top level of its response, such as confirmation_url,payment_url",
    description: 'keys of the billing’s answer searched, in order, for the payment page address',
    parse: (t) => {
      const keys = names(FIELD_NAME)(t);
      return keys === INVALID || !keys.length ? INVALID : keys;
    },
  }),
  PAYMENT_ANSWER_FIELDS: variable({
    group: 'profile',
    config: 'paymentAnswerFields',
    unset: [],
    default: '',
    empty: 'none',
    must: "list field names of the billing's payment answer, such as status,amount",
    description:
      'fields of the billing’s payment object passed on to the browser besides `payment_id` (strings, numbers, booleans only), such as `status`; everything else stays in the relay',
    parse: names(FIELD_NAME),
  }),
  AGREEMENT_NOT_FOUND_STATUS: variable({
    group: 'profile',
    default: '404',
    empty: 'no status means it',
    must: 'list 4xx statuses (not 401, 403 or 429), such as 404',
    description:
      'statuses of `POST /eps_payments` that mean the agreement lookup found nothing (4xx, not 401, 403 or 429; empty: none) — answered 422 `agreement_not_found`',
    parse: (t) => {
      const statuses = list(t).map(Number);
      // 401, 403 and 429 say the billing refused the relay or is busy, never anything about the agreement.
      return statuses.every((s) => Number.isInteger(s) && s >= 400 && s < 500 && ![401, 403, 429].includes(s))
        ? statuses
        : INVALID;
    },
  }),
  AGREEMENT_NOT_FOUND_TEXT: variable({
    group: 'profile',
    default: DEFAULT_AGREEMENT_NOT_FOUND_TEXT,
    empty: 'the status alone tells',
    must: 'be a regular expression, such as agreement.*not found',
    description:
      'a regular expression (case-insensitive) that means the same in any other 4xx, matched against the billing’s error texts (`error.message`, `error.code`, `message`, `code`, or `error` as a string); empty: status only',
    parse: (t) => {
      try {
        return new RegExp(t, 'i');
      } catch {
        return INVALID;
      }
    },
  }),
  PAYMENT_METHODS_AGREEMENT_PARAM: variable({
    group: 'profile',
    config: 'paymentMethodsAgreementParam',
    default: 'agreement_id',
    must: 'be a parameter name',
    description:
      'the query parameter that scopes the billing’s `GET /payment_methods` to one agreement (the spec does not say how)',
    parse: (t) => (PARAM_NAME.test(t) ? t : INVALID),
  }),
  PAYMENT_METHODS_AGREEMENT_FIELD: variable({
    group: 'profile',
    config: 'paymentMethodsAgreementField',
    default: 'agreement_id',
    must: 'be a field name',
    description:
      'the field of a payment method record that names its agreement: a method is listed, and may be disabled, only when this field names the session’s agreement',
    parse: (t) => (PARAM_NAME.test(t) ? t : INVALID),
  }),
  PAYMENT_METHODS_TRUST_BILLING_SCOPE: variable({
    group: 'profile',
    config: 'paymentMethodsTrustScope',
    default: 'false',
    must: 'be true or false',
    description:
      '`true` declares that your billing lists only the agreement asked for by `PAYMENT_METHODS_AGREEMENT_PARAM`: a record without the agreement field is then taken as the session’s. **Risk**: with a billing that ignores the parameter, every session sees — and can switch off — every client’s saved methods and autopayments. Turn it on only when you have checked your billing filters',
    parse: flag,
  }),
  AUTOPAYMENT_LEAD_DAYS: variable({
    group: 'profile',
    config: 'autopayLeadDays',
    default: String(DEFAULT_AUTOPAY_LEAD_DAYS),
    must: `be a whole number of days from 1 to ${MAX_AUTOPAY_LEAD_DAYS}`,
    description:
      'N of the billing’s autopayments: a saved method is charged N days before each new period of a subscription. The billing’s operator sets it (through their technical support; the API does not tell it): write the same number here, since the widget tells it to payers who save a method',
    parse: (t) => {
      const days = integer(t);
      return isAutopayLeadDays(days) ? days : INVALID;
    },
  }),
  ALLOWED_ORIGINS: variable({
    group: 'payments',
    config: 'allowedOrigins',
    required: true,
    example: 'https://shop.example',
    must: 'list origins such as https://shop.example',
    description:
      'comma-separated merchant page origins (`https://shop.example`): CORS, the `Origin` check of `POST /payments`, and every return URL must be on one of them',
    parse: (t) => {
      const origins = list(t);
      return origins.length && origins.every(isOrigin) ? origins.map((o) => new URL(o).origin) : INVALID;
    },
  }),
  MAX_AMOUNT: variable({
    group: 'payments',
    default: '100000.00',
    must: 'be a positive amount with at most two decimals and 15 digits, such as 100000.00',
    description: 'largest payment accepted',
    parse: (t) => {
      const minor = toMinorUnits(t);
      // At most 15 significant digits: the billing receives a JSON number, exact in any reader only up to that.
      return minor === null || minor <= 0n || minor >= 10n ** 15n ? INVALID : { minor, text: canonicalAmount(t)! };
    },
  }),
  ALLOWED_LOOKUPS: variable({
    group: 'payments',
    config: 'lookups',
    default: IMPERSONAL_LOOKUP_KINDS.join(' '),
    must: `list agreement lookup kinds among ${LOOKUP_KINDS.join(', ')}`,
    description: `agreement lookup kinds offered; by default only the numbers and codes printed on a bill — a login (1), full name (4), e-mail (7) or taxpayer number (15) is offered only when listed here, and then a public page tells whoever asks whether a customer by that value exists (see "Lookups" in docs/security.md); all: \`${LOOKUP_KINDS.join(' ')}\``,
    parse: (t) => {
      const kinds = list(t).map(Number);
      return kinds.length && kinds.every(isLookupKind) ? (kinds as LookupKind[]) : INVALID;
    },
  }),
  DUPLICATE_WINDOW_SECONDS: variable({
    group: 'payments',
    config: 'duplicateWindowSeconds',
    default: '900',
    must: 'be a number of seconds (0: off)',
    description:
      'a payment to the same agreement (lookup kind and value), by the same system, of the same amount as one created within this many seconds is answered 409 `duplicate_payment` unless its body says `"confirm_duplicate": true`; `0`: off',
    parse: integer,
  }),
  HOST: variable({
    group: 'server',
    config: 'host',
    default: '127.0.0.1',
    must: 'be an address to listen on, such as 127.0.0.1 or 0.0.0.0',
    description: 'listening address (`0.0.0.0` behind a proxy or in a container)',
    parse: text,
  }),
  PORT: variable({
    group: 'server',
    config: 'port',
    default: '8787',
    must: 'be a port number (0–65535)',
    description: 'listening port',
    parse: port,
  }),
  BASE_PATH: variable({
    group: 'server',
    config: 'basePath',
    unset: '',
    empty: 'the root',
    must: 'be a path such as /relay (letters, digits and . _ ~ - between slashes)',
    description:
      'the path the relay serves everything under — its API, the widget bundles, `bundles.json`, `/config`, `/healthz`, `/readyz` — when a proxy passes it on as it is (`https://pay.shop.example/relay`: `/relay`); `/healthz` and `/readyz` also answer at the root, for load balancers that probe the relay directly; unset: the root',
    parse: (t) => {
      const path = t.replace(/\/+$/, '');
      // No `.` or `..` segment: a proxy or browser would resolve it away.
      return path === '' || /^(?:\/(?!\.\.?(?:\/|$))[\w.~-]+)+$/.test(path) ? path : INVALID;
    },
  }),
  METRICS_PORT: variable({
    group: 'server',
    must: 'be a port number (0–65535)',
    description:
      'the port of a second listener that serves Prometheus metrics at `/metrics`, and nothing else (`0`: any free port, logged); unset: no metrics. The public port never serves `/metrics`',
    parse: port,
  }),
  METRICS_HOST: variable({
    group: 'server',
    default: '127.0.0.1',
    must: 'be an address to listen on, such as 127.0.0.1',
    description:
      'with `METRICS_PORT`: the address its listener is on — this machine only by default; another (`0.0.0.0`) exposes the metrics to whoever reaches it',
    parse: text,
  }),
  TRUST_PROXY: variable({
    group: 'server',
    config: 'trustProxy',
    must: 'be a header name such as x-forwarded-for',
    description:
      'the header a proxy in front of the relay sets to the client’s address (`x-forwarded-for`: its last entry is used; `x-real-ip`); unset: the socket’s address. Also makes `X-Forwarded-Proto: https` turn on HSTS',
    parse: (t) => (/^[a-z0-9-]+$/i.test(t) ? t.toLowerCase() : INVALID),
  }),
  SERVER_HEADERS_TIMEOUT_MS: variable({
    group: 'server',
    default: '10000',
    must: `be ${ms}`,
    description: 'a client must send its request headers within this (slowloris)',
    parse: positive,
  }),
  SERVER_REQUEST_TIMEOUT_MS: variable({
    group: 'server',
    default: '30000',
    must: `be ${ms}`,
    description: '… and its whole request within this (at least `SERVER_HEADERS_TIMEOUT_MS`)',
    parse: positive,
  }),
  SERVER_KEEP_ALIVE_TIMEOUT_MS: variable({
    group: 'server',
    default: '5000',
    must: `be ${ms}`,
    description: 'an idle keep-alive connection is closed after this (behind a load balancer: above its idle timeout)',
    parse: positive,
  }),
  SERVER_MAX_CONNECTIONS: variable({
    group: 'server',
    default: '10000',
    must: 'be a number of connections, greater than 0',
    description: 'open connections at most; a new one past it is closed at once',
    parse: positive,
  }),
  LOG_LEVEL: variable({
    group: 'server',
    config: 'logLevel',
    default: 'info',
    must: `be one of ${LOG_LEVELS.join(', ')}`,
    description: 'pino log level (JSON lines on stdout)',
    parse: (t) => (LOG_LEVELS.includes(t) ? t : INVALID),
  }),
  STORE_FILE: variable({
    group: 'stores',
    config: 'storeFile',
    default: 'billing-pay-relay.db',
    must: 'be the path of the relay’s SQLite file, such as billing-pay-relay.db',
    description:
      'without `REDIS_URL`: the SQLite file that keeps idempotency keys across restarts (Node 22.13 or later; put it on a persistent volume)',
    parse: text,
  }),
  REDIS_URL: variable({
    group: 'stores',
    config: 'redisUrl',
    secret: true,
    must: 'be a redis:// or rediss:// URL (a user name or password in it percent-encoded: %25 for %)',
    description:
      '`redis://host:6379`: idempotency keys, rate-limit counters and the billing token live in Redis, shared by every instance; unset: keys in `STORE_FILE`, limits in memory (one instance)',
    parse: (t) => (isRedisUrl(t) ? t : INVALID),
  }),
  REDIS_SENTINELS: variable({
    group: 'stores',
    must: 'list the sentinels as host:port, comma or space separated, such as 10.0.0.5:26379,10.0.0.6:26379 or [::1]:26379',
    description:
      'instead of `REDIS_URL` (not with it): Redis through Sentinel — the sentinels’ `host:port`, comma or space separated; the relay asks them for the primary and follows the one they elect after a failover',
    parse: (t) => {
      const nodes = list(t).map(hostPort);
      return nodes.every((node) => node !== null) ? (nodes as { host: string; port: number }[]) : INVALID;
    },
  }),
  REDIS_SENTINEL_NAME: variable({
    group: 'stores',
    default: 'mymaster',
    must: 'be the name the sentinels monitor the primary under, such as mymaster',
    description:
      'with `REDIS_SENTINELS`: the name the sentinels monitor the primary under (`sentinel monitor <name> …`)',
    parse: (t) => (/^[\x21-\x7e]+$/.test(t) ? t : INVALID),
  }),
  REDIS_USERNAME: variable({
    group: 'stores',
    config: 'redisUsername',
    must: 'be a Redis user name',
    description: 'the Redis data nodes’ ACL user (with `REDIS_URL` too, unless the URL names one)',
    parse: text,
  }),
  REDIS_PASSWORD: variable({
    group: 'stores',
    config: 'redisPassword',
    secret: true,
    must: 'be a Redis password',
    description: 'the Redis data nodes’ password (`requirepass`; with `REDIS_URL` too, unless the URL carries one)',
    parse: text,
  }),
  REDIS_SENTINEL_USERNAME: variable({
    group: 'stores',
    must: 'be a user name of the sentinels',
    description: 'with `REDIS_SENTINELS`: the sentinels’ own ACL user, if they ask for one',
    parse: text,
  }),
  REDIS_SENTINEL_PASSWORD: variable({
    group: 'stores',
    secret: true,
    must: 'be the sentinels’ password',
    description:
      'with `REDIS_SENTINELS`: the sentinels’ own password (`requirepass` in sentinel.conf), if they ask for one',
    parse: text,
  }),
  REDIS_SENTINEL_TLS: variable({
    group: 'stores',
    default: 'false',
    must: 'be true or false',
    description:
      'with `REDIS_SENTINELS`: `true` connects to the sentinels and to the data nodes over TLS (certificates checked against Node’s trusted authorities; a private one through `NODE_EXTRA_CA_CERTS`)',
    parse: flag,
  }),
  REDIS_KEY_PREFIX: variable({
    group: 'stores',
    config: 'redisKeyPrefix',
    default: 'billing-pay:',
    must: 'be printable ASCII without spaces, at most 64 characters, such as billing-pay:',
    description:
      'with Redis: the start of the name of every key the relay writes (idempotency keys, rate-limit counters, the billing token, the readiness probe): another application, or another relay fleet, on the same Redis takes another prefix',
    parse: (t) => (/^[\x21-\x7e]{1,64}$/.test(t) ? t : INVALID),
  }),
  REDIS_WAIT_REPLICAS: variable({
    group: 'stores',
    must: 'be a number of replicas (0: none)',
    description:
      'with Redis: a fresh idempotency claim and each answer are followed by `WAIT` for this many replicas (300 ms at most); a claim they do not acknowledge is let go and its payment refused (503 `store_unavailable`, nothing sent), an answer they do not acknowledge is stored again. A replay of an answered key never waits. Unset: `1` with `REDIS_SENTINELS`, `0` with `REDIS_URL`; `0`: replication stays asynchronous, and a failover may lose keys (see "Redis with Sentinel" in docs/operating.md)',
    parse: integer,
  }),
  TOKEN_SECRET: variable({
    group: 'stores',
    config: 'tokenSecret',
    secret: true,
    must: `be at least ${MIN_SECRET_BYTES} bytes (for example: openssl rand -base64 48)`,
    description:
      'with Redis: the secret the fleet’s billing token is sealed under (AES-256-GCM); unset: a key derived from the billing credentials',
    parse: secretKey,
  }),
  TOKEN_SECRET_PREVIOUS: variable({
    group: 'stores',
    config: 'tokenSecretPrevious',
    secret: true,
    must: `be at least ${MIN_SECRET_BYTES} bytes, and differ from TOKEN_SECRET`,
    description:
      'while `TOKEN_SECRET` is rotated: its former value. The fleet’s token is opened under either and sealed under both, so instances still on the former secret keep sharing it (see "Rotating secrets" in docs/operating.md)',
    parse: secretKey,
  }),
  HASH_SECRET: variable({
    group: 'stores',
    config: 'hashSecret',
    secret: true,
    must: `be at least ${MIN_SECRET_BYTES} bytes (for example: openssl rand -base64 48)`,
    description:
      'the key of the keyed digests (HMAC-SHA-256) that stand for personal values in the stores — rate-limit keys (lookup values, client addresses, session agreements) and idempotency fingerprints; every instance of a fleet needs the same one. Unset: a key derived from the billing credentials',
    parse: secretKey,
  }),
  IDEMPOTENCY_TTL_SECONDS: variable({
    group: 'stores',
    config: 'idempotencyTtlSeconds',
    default: '86400',
    must: 'be a positive number of seconds',
    description: 'how long an `Idempotency-Key` and its answer are kept',
    parse: positive,
  }),
  RATE_LIMIT_IP: variable({
    group: 'limits',
    config: 'rateLimitIp',
    default: '30/60',
    must: perSeconds('30/60'),
    description: 'payment attempts per client address (IPv6: per `RATE_LIMIT_IPV6_PREFIX`) per seconds',
    parse: rateLimit,
  }),
  RATE_LIMIT_NOT_FOUND: variable({
    group: 'limits',
    config: 'rateLimitNotFound',
    default: '5/600',
    must: perSeconds('5/600'),
    description:
      'payments whose lookup finds no agreement (422 `agreement_not_found`) per client address per seconds; past it every payment from the address is a 429 until the window ends — a payer who mistypes once or twice is not slowed, a page probing for customers is',
    parse: rateLimit,
  }),
  RATE_LIMIT_IPV6_PREFIX: variable({
    group: 'limits',
    config: 'rateLimitIpv6Prefix',
    default: '64',
    must: 'be a prefix length from 32 to 128',
    description:
      'IPv6 clients are counted by the first this many bits of their address (a subscriber is usually given a whole /64); an IPv4-mapped address counts as its IPv4 address',
    parse: (t) => {
      const n = integer(t);
      return n === INVALID || n < 32 || n > 128 ? INVALID : n;
    },
  }),
  RATE_LIMIT_AGREEMENT: variable({
    group: 'limits',
    config: 'rateLimitAgreement',
    default: '10/60',
    must: perSeconds('10/60'),
    description:
      'payment attempts per agreement lookup value per seconds (spaces at the ends and between words, and letter case except in a login, do not make another value)',
    parse: rateLimit,
  }),
  RATE_LIMIT_SESSION: variable({
    group: 'limits',
    config: 'rateLimitSession',
    default: '60/60',
    must: perSeconds('60/60'),
    description: 'calls of `/session` and `/payment-methods` per client session (its agreement) per seconds',
    parse: rateLimit,
  }),
  RATE_LIMIT_SESSION_IP: variable({
    group: 'limits',
    config: 'rateLimitSessionIp',
    default: '120/60',
    must: perSeconds('120/60'),
    description:
      'calls of `/session` and `/payment-methods` per client address per seconds, counted before the session is checked',
    parse: rateLimit,
  }),
  RATE_LIMIT_MAX_KEYS: variable({
    group: 'limits',
    config: 'rateLimitMaxKeys',
    default: '100000',
    must: 'be a number of keys, greater than 0',
    description:
      'in memory (no Redis, or while Redis does not answer): the most keys (address groups, lookup values, sessions) each rate limiter tracks within its window; past it a new key makes it forget the oldest (the nearest the end of its window)',
    parse: positive,
  }),
  SESSION_SECRET: variable({
    group: 'sessions',
    config: 'sessionSecret',
    secret: true,
    must: `be at least ${MIN_SECRET_BYTES} bytes (for example: openssl rand -base64 48)`,
    description:
      'shared with the merchant’s backend that signs client sessions (needed for saved methods); unset: `/session` and `/payment-methods` answer 404 `sessions_disabled`',
    parse: secretKey,
  }),
  SESSION_SECRET_PREVIOUS: variable({
    group: 'sessions',
    config: 'sessionSecretPrevious',
    secret: true,
    must: `be at least ${MIN_SECRET_BYTES} bytes, and differ from SESSION_SECRET`,
    description:
      'while `SESSION_SECRET` is rotated: its former value. A session signed with it is still accepted (checked after `SESSION_SECRET`); remove it once the sessions signed with it have expired (see "Rotating secrets" in docs/operating.md)',
    parse: secretKey,
  }),
  SESSION_MAX_AGE_SECONDS: variable({
    group: 'sessions',
    config: 'sessionMaxAgeSeconds',
    default: '86400',
    must: 'be a number of seconds, greater than 0',
    description: 'a client session issued (`iat`) longer ago than this is refused, whatever its expiry',
    parse: positive,
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable({
    group: 'traces',
    must: 'be an http(s) URL',
    description:
      'an OpenTelemetry collector’s OTLP/HTTP address (`http://collector:4318`): the relay sends a span for each request and each billing call to its `/v1/traces` (OTLP JSON). Unset, with `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` unset too: no traces, and no tracing code is loaded. The exporter’s other standard variables (`OTEL_EXPORTER_OTLP_HEADERS`, `…_TIMEOUT`) apply',
    parse: httpUrl,
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable({
    group: 'traces',
    must: 'be an http(s) URL',
    description: 'the whole address traces are sent to, taken as it is (over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
    parse: httpUrl,
  }),
};

export type VariableName = keyof typeof VARIABLES;

type Row<K extends VariableName> = (typeof VARIABLES)[K];
type Value<K extends VariableName> = Exclude<ReturnType<Row<K>['parse']>, typeof INVALID>;

/** The value each variable reads into (absent when unset and without a default, or empty). */
export type VariableValues = { [K in VariableName]?: Value<K> };

/** Whether a row always gives its property a value: required, with `unset`, or with a default that cannot be emptied. */
type Always<V> = V extends { required: true } | { unset: unknown }
  ? true
  : V extends { empty: string }
    ? false
    : V extends { default: string }
      ? true
      : false;
type PropertyOf<K extends VariableName> = Row<K> extends { config: infer P extends string } ? P : never;

/** The part of `RelayConfig` that is one variable per property: each row's `config`, of its parser's type. */
export type TableConfig = { [K in VariableName as Always<Row<K>> extends true ? PropertyOf<K> : never]: Value<K> } & {
  [K in VariableName as Always<Row<K>> extends true ? never : PropertyOf<K>]?: Value<K>;
};

/** `host:port` or `[ipv6]:port`. */
function hostPort(t: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/i.exec(t);
  const port = Number(match?.[3]);
  return match && port >= 1 && port <= 65535 ? { host: (match[1] ?? match[2])!, port } : null;
}

/** A Redis URL node-redis can read: its user name and password decode (a stray `%` would throw inside node-redis). */
function isRedisUrl(t: string): boolean {
  if (!/^rediss?:\/\//.test(t) || !URL.canParse(t)) return false;
  const url = new URL(t);
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return true;
  } catch {
    return false;
  }
}

function isBillingBaseUrl(t: string): boolean {
  if (!URL.canParse(t)) return false;
  const url = new URL(t);
  // Credentials belong in BILLING_USERNAME/BILLING_PASSWORD, never in a URL that may be logged.
  return /^https?:$/.test(url.protocol) && !url.username && !url.password && t.endsWith('/api/rest/v1');
}

function isOrigin(t: string): boolean {
  if (!URL.canParse(t)) return false;
  const url = new URL(t);
  return /^https?:$/.test(url.protocol) && url.origin === t.replace(/\/$/, '');
}
