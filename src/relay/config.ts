/**
 * The relay's configuration, read once from the environment and checked as a whole: a bad start names every bad or
 * missing variable at once.
 */
import { pino } from 'pino';
import { canonicalAmount, toMinorUnits } from '../eps/amount.js';
import { LOOKUP_KINDS, isLookupKind, type LookupKind } from '../eps/lookup.js';
import { SYSTEM_IDS, type SystemId } from '../eps/systems.js';
import { isLoopbackHost } from '../eps/url.js';
import type { RateLimit } from './rate-limit.js';
import { DEFAULT_AGREEMENT_NOT_FOUND_TEXT, type AgreementNotFoundRule } from './billing/agreement-not-found.js';
import { MIN_SECRET_BYTES } from './session.js';

export interface RelayConfig {
  /** Ends with `/api/rest/v1`, no trailing slash. */
  billingBaseUrl: string;
  billingUsername: string;
  billingPassword: string;
  /** The `eps_uuid` of each offered system; a system without one is not offered. */
  epsUuids: Partial<Record<SystemId, string>>;
  /** Merchant page origins (`https://shop.example`), for CORS, the Origin check and return URLs. */
  allowedOrigins: string[];
  host: string;
  port: number;
  /** The largest payment, in minor units, and as text. */
  maxAmount: bigint;
  maxAmountText: string;
  /** The agreement lookup kinds offered to clients. */
  lookups: LookupKind[];
  /** Where the payment page's address may be found in the billing's answer, tried in this order. */
  redirectUrlKeys: string[];
  /** Time limit of each billing call, in milliseconds. */
  billingTimeoutMs: number;
  /** How `expires_in` of `GET /auth` is counted (the spec does not say; 600 in its sample reads as seconds). */
  tokenTtlUnit: 's' | 'ms';
  /** The log level (pino): `info` by default, `silent` in tests. */
  logLevel: string;
  /** With a Redis URL, idempotency keys, rate limits and the billing token are shared by every relay instance. */
  redisUrl?: string;
  /** The secret the fleet's billing token is sealed under in Redis; unset: one derived from the billing credentials. */
  tokenSecret?: string;
  /** The request header that carries the client's address, set by a proxy in front of the relay; none: the socket. */
  trustProxy?: string;
  rateLimitIp: RateLimit;
  rateLimitAgreement: RateLimit;
  idempotencyTtlSeconds: number;
  /** The key that checks client sessions (HS256, at least 32 bytes); unset: the payment-method endpoints are off. */
  sessionSecret?: string;
  /** The query parameter that scopes `GET /payment_methods` to an agreement (not documented by the billing). */
  paymentMethodsAgreementParam: string;
  /** The field of a payment method record that names its agreement: the proof that it belongs to the session's. */
  paymentMethodsAgreementField: string;
  /**
   * The merchant declares that its billing lists only the asked agreement's methods (`PAYMENT_METHODS_AGREEMENT_PARAM`):
   * a record without the agreement field is then taken as the session's. Off by default (fail closed).
   */
  paymentMethodsTrustScope: boolean;
  /** The largest billing answer read, in bytes; a larger one is a 502 and its connection is dropped. */
  billingMaxResponseBytes: number;
  /** Fields of the billing's payment answer passed on to the browser besides `payment_id` (none by default). */
  paymentAnswerFields: string[];
  /** The SQLite file that keeps idempotency keys without Redis (`:memory:`: this process only, for tests). */
  storeFile: string;
  /** The most keys each in-memory rate limiter tracks; past it a request with a new key is a 503. */
  rateLimitMaxKeys: number;
  /** `/session` and `/payment-methods`: per client session (its agreement) and per address. */
  rateLimitSession: RateLimit;
  rateLimitSessionIp: RateLimit;
  /** A client session older than this (by its `iat`) is refused. */
  sessionMaxAgeSeconds: number;
  /** The Node server's limits on slow or idle clients, and on open connections. */
  server: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number };
  /** How the billing's "no agreement found" answer to a payment is recognised (the spec shows no error format). */
  agreementNotFound: AgreementNotFoundRule;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The relay cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const DEFAULTS = {
  PORT: '8787',
  HOST: '127.0.0.1',
  MAX_AMOUNT: '100000.00',
  REDIRECT_URL_KEYS: 'confirmation_url,payment_url,redirect_url,url',
  BILLING_TIMEOUT_MS: '10000',
  BILLING_TOKEN_TTL_UNIT: 's',
  LOG_LEVEL: 'info',
  RATE_LIMIT_IP: '30/60',
  RATE_LIMIT_AGREEMENT: '10/60',
  IDEMPOTENCY_TTL_SECONDS: '86400',
  PAYMENT_METHODS_AGREEMENT_PARAM: 'agreement_id',
  PAYMENT_METHODS_AGREEMENT_FIELD: 'agreement_id',
  PAYMENT_METHODS_TRUST_BILLING_SCOPE: 'false',
  BILLING_ALLOW_HTTP: 'false',
  BILLING_MAX_RESPONSE_BYTES: '1048576',
  PAYMENT_ANSWER_FIELDS: '',
  STORE_FILE: 'billing-pay-relay.db',
  RATE_LIMIT_MAX_KEYS: '100000',
  RATE_LIMIT_SESSION: '60/60',
  RATE_LIMIT_SESSION_IP: '120/60',
  SESSION_MAX_AGE_SECONDS: '86400',
  SERVER_HEADERS_TIMEOUT_MS: '10000',
  SERVER_REQUEST_TIMEOUT_MS: '30000',
  SERVER_KEEP_ALIVE_TIMEOUT_MS: '5000',
  SERVER_MAX_CONNECTIONS: '10000',
  AGREEMENT_NOT_FOUND_STATUS: '404',
  AGREEMENT_NOT_FOUND_TEXT: DEFAULT_AGREEMENT_NOT_FOUND_TEXT,
};

/** pino's levels, and `silent` (no log at all). */
const LOG_LEVELS = [...Object.keys(pino.levels.values), 'silent'];

/** Reads and checks the configuration; throws a `ConfigError` naming every problem. */
export function loadConfig(env: Env = process.env): RelayConfig {
  const problems: string[] = [];
  const read = (name: string): string => (env[name] ?? DEFAULTS[name as keyof typeof DEFAULTS] ?? '').trim();
  const required = (name: string): string => {
    const value = read(name);
    if (!value) problems.push(`${name} is missing`);
    return value;
  };

  const billingBaseUrl = required('BILLING_BASE_URL').replace(/\/+$/, '');
  const billingAllowHttp = flag('BILLING_ALLOW_HTTP');
  if (billingBaseUrl && !isBillingBaseUrl(billingBaseUrl)) {
    problems.push('BILLING_BASE_URL must be an http(s) URL without credentials, ending with /api/rest/v1');
  } else if (
    billingBaseUrl &&
    new URL(billingBaseUrl).protocol === 'http:' &&
    !isLoopbackHost(new URL(billingBaseUrl).hostname) &&
    billingAllowHttp !== true
  ) {
    // The relay's Basic credentials and bearer tokens travel on it.
    problems.push(
      'BILLING_BASE_URL must be https: (plain http only to a loopback address, or with BILLING_ALLOW_HTTP=true)',
    );
  }
  const billingUsername = required('BILLING_USERNAME');
  const billingPassword = required('BILLING_PASSWORD');

  const epsUuids: Partial<Record<SystemId, string>> = {};
  for (const id of SYSTEM_IDS) {
    const uuid = read(`EPS_UUID_${id}`);
    if (uuid) epsUuids[id] = uuid;
  }
  if (!Object.keys(epsUuids).length) problems.push('EPS_UUID_A, EPS_UUID_B, EPS_UUID_C: set at least one');

  const allowedOrigins = list(required('ALLOWED_ORIGINS'));
  for (const origin of allowedOrigins) {
    if (!isOrigin(origin)) problems.push(`ALLOWED_ORIGINS: "${origin}" is not an origin such as https://shop.example`);
  }

  const port = integer(read('PORT'));
  if (port === null || port > 65535) problems.push('PORT must be a port number (0–65535)');

  const maxAmount = toMinorUnits(read('MAX_AMOUNT'));
  // At most 15 significant digits: the billing receives a JSON number, exact in any reader only up to that.
  if (maxAmount === null || maxAmount <= 0n || maxAmount >= 10n ** 15n) {
    problems.push('MAX_AMOUNT must be a positive amount with at most two decimals and 15 digits, such as 100000.00');
  }

  const lookupText = read('ALLOWED_LOOKUPS');
  const lookups = lookupText ? list(lookupText).map(Number) : [...LOOKUP_KINDS];
  if (!lookups.length || !lookups.every(isLookupKind)) {
    problems.push(`ALLOWED_LOOKUPS must list agreement lookup kinds among ${LOOKUP_KINDS.join(', ')}`);
  }

  const billingTimeoutMs = integer(read('BILLING_TIMEOUT_MS'));
  if (!billingTimeoutMs) problems.push('BILLING_TIMEOUT_MS must be a positive number of milliseconds');

  const tokenTtlUnit = read('BILLING_TOKEN_TTL_UNIT');
  if (tokenTtlUnit !== 's' && tokenTtlUnit !== 'ms') problems.push('BILLING_TOKEN_TTL_UNIT must be s or ms');

  const host = read('HOST');
  if (!host) problems.push('HOST must be an address to listen on, such as 127.0.0.1 or 0.0.0.0');

  const redirectUrlKeys = list(read('REDIRECT_URL_KEYS'));
  if (!redirectUrlKeys.length || !redirectUrlKeys.every((key) => /^[A-Za-z_][\w-]*$/.test(key))) {
    problems.push(
      "REDIRECT_URL_KEYS must list the names of the billing answer's fields, at the top level of its response, such as confirmation_url,payment_url",
    );
  }

  const logLevel = read('LOG_LEVEL');
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const redisUrl = read('REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');

  const tokenSecret = read('TOKEN_SECRET');
  if (tokenSecret && new TextEncoder().encode(tokenSecret).length < MIN_SECRET_BYTES) {
    problems.push(`TOKEN_SECRET must be at least ${MIN_SECRET_BYTES} bytes (for example: openssl rand -base64 48)`);
  }

  const trustProxy = read('TRUST_PROXY').toLowerCase();
  if (trustProxy && !/^[a-z0-9-]+$/.test(trustProxy))
    problems.push('TRUST_PROXY must be a header name such as x-forwarded-for');

  const rateLimitIp = rateLimit(read('RATE_LIMIT_IP'));
  if (!rateLimitIp) problems.push('RATE_LIMIT_IP must be requests/seconds, such as 30/60');
  const rateLimitAgreement = rateLimit(read('RATE_LIMIT_AGREEMENT'));
  if (!rateLimitAgreement) problems.push('RATE_LIMIT_AGREEMENT must be requests/seconds, such as 10/60');

  const idempotencyTtlSeconds = integer(read('IDEMPOTENCY_TTL_SECONDS'));
  if (!idempotencyTtlSeconds) problems.push('IDEMPOTENCY_TTL_SECONDS must be a positive number of seconds');

  const sessionSecret = read('SESSION_SECRET');
  if (sessionSecret && new TextEncoder().encode(sessionSecret).length < MIN_SECRET_BYTES) {
    problems.push(`SESSION_SECRET must be at least ${MIN_SECRET_BYTES} bytes (for example: openssl rand -base64 48)`);
  }
  const paymentMethodsAgreementParam = read('PAYMENT_METHODS_AGREEMENT_PARAM');
  if (!/^[a-z_][a-z0-9_]*$/i.test(paymentMethodsAgreementParam))
    problems.push('PAYMENT_METHODS_AGREEMENT_PARAM must be a parameter name');

  const paymentMethodsAgreementField = read('PAYMENT_METHODS_AGREEMENT_FIELD');
  if (!/^[a-z_][a-z0-9_]*$/i.test(paymentMethodsAgreementField))
    problems.push('PAYMENT_METHODS_AGREEMENT_FIELD must be a field name');
  const paymentMethodsTrustScope = flag('PAYMENT_METHODS_TRUST_BILLING_SCOPE');

  const billingMaxResponseBytes = positive('BILLING_MAX_RESPONSE_BYTES', 'a number of bytes');
  const paymentAnswerFields = list(read('PAYMENT_ANSWER_FIELDS'));
  if (!paymentAnswerFields.every((key) => /^[A-Za-z_][\w-]*$/.test(key))) {
    problems.push("PAYMENT_ANSWER_FIELDS must list field names of the billing's payment answer, such as status,amount");
  }
  const storeFile = read('STORE_FILE');
  if (!storeFile) problems.push('STORE_FILE must be the path of the relay’s SQLite file, such as billing-pay-relay.db');
  const rateLimitMaxKeys = positive('RATE_LIMIT_MAX_KEYS', 'a number of keys');
  const rateLimitSession = rateLimit(read('RATE_LIMIT_SESSION'));
  if (!rateLimitSession) problems.push('RATE_LIMIT_SESSION must be requests/seconds, such as 60/60');
  const rateLimitSessionIp = rateLimit(read('RATE_LIMIT_SESSION_IP'));
  if (!rateLimitSessionIp) problems.push('RATE_LIMIT_SESSION_IP must be requests/seconds, such as 120/60');
  const sessionMaxAgeSeconds = positive('SESSION_MAX_AGE_SECONDS', 'a number of seconds');
  const server = {
    headersTimeoutMs: positive('SERVER_HEADERS_TIMEOUT_MS', 'a number of milliseconds'),
    requestTimeoutMs: positive('SERVER_REQUEST_TIMEOUT_MS', 'a number of milliseconds'),
    keepAliveTimeoutMs: positive('SERVER_KEEP_ALIVE_TIMEOUT_MS', 'a number of milliseconds'),
    maxConnections: positive('SERVER_MAX_CONNECTIONS', 'a number of connections'),
  };
  if (server.headersTimeoutMs > server.requestTimeoutMs)
    problems.push('SERVER_HEADERS_TIMEOUT_MS must not be above SERVER_REQUEST_TIMEOUT_MS');
  const notFoundStatuses = list(read('AGREEMENT_NOT_FOUND_STATUS')).map(Number);
  // 401, 403 and 429 say the billing refused the relay or is busy, never anything about the agreement.
  if (!notFoundStatuses.every((s) => Number.isInteger(s) && s >= 400 && s < 500 && ![401, 403, 429].includes(s))) {
    problems.push('AGREEMENT_NOT_FOUND_STATUS must list 4xx statuses (not 401, 403 or 429), such as 404');
  }
  const notFoundText = read('AGREEMENT_NOT_FOUND_TEXT');
  const notFoundPattern = notFoundText ? regExp(notFoundText) : null;
  if (notFoundPattern === undefined)
    problems.push('AGREEMENT_NOT_FOUND_TEXT must be a regular expression, such as agreement.*not found');

  if (problems.length) throw new ConfigError(problems);
  return {
    billingBaseUrl,
    billingUsername,
    billingPassword,
    epsUuids,
    allowedOrigins: allowedOrigins.map((o) => new URL(o).origin),
    host,
    port: port!,
    maxAmount: maxAmount!,
    maxAmountText: canonicalAmount(read('MAX_AMOUNT'))!,
    lookups: lookups as LookupKind[],
    redirectUrlKeys,
    billingTimeoutMs: billingTimeoutMs!,
    tokenTtlUnit: tokenTtlUnit as 's' | 'ms',
    logLevel,
    ...(redisUrl && { redisUrl }),
    ...(tokenSecret && { tokenSecret }),
    ...(trustProxy && { trustProxy }),
    rateLimitIp: rateLimitIp!,
    rateLimitAgreement: rateLimitAgreement!,
    idempotencyTtlSeconds: idempotencyTtlSeconds!,
    ...(sessionSecret && { sessionSecret }),
    paymentMethodsAgreementParam,
    paymentMethodsAgreementField,
    paymentMethodsTrustScope: paymentMethodsTrustScope === true,
    billingMaxResponseBytes,
    paymentAnswerFields,
    storeFile,
    rateLimitMaxKeys,
    rateLimitSession: rateLimitSession!,
    rateLimitSessionIp: rateLimitSessionIp!,
    sessionMaxAgeSeconds,
    server,
    agreementNotFound: { statuses: notFoundStatuses, pattern: notFoundPattern ?? null },
  };

  /** `true` or `false` (any letter case); anything else is a problem. */
  function flag(name: string): boolean | null {
    const value = read(name).toLowerCase();
    if (value === 'true' || value === 'false') return value === 'true';
    problems.push(`${name} must be true or false`);
    return null;
  }

  function positive(name: string, what: string): number {
    const value = integer(read(name));
    if (!value) problems.push(`${name} must be ${what}, greater than 0`);
    return value ?? 0;
  }
}

/** A case-insensitive pattern, or `undefined` when the text is not one. */
function regExp(text: string): RegExp | undefined {
  try {
    return new RegExp(text, 'i');
  } catch {
    return undefined;
  }
}

function list(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

function rateLimit(text: string): RateLimit | null {
  const match = /^(\d{1,9})\/(\d{1,9})$/.exec(text);
  return match && Number(match[1]) > 0 && Number(match[2]) > 0
    ? { points: Number(match[1]), seconds: Number(match[2]) }
    : null;
}

function integer(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

function isBillingBaseUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  // Credentials belong in BILLING_USERNAME/BILLING_PASSWORD, never in a URL that may be logged.
  return /^https?:$/.test(url.protocol) && !url.username && !url.password && text.endsWith('/api/rest/v1');
}

function isOrigin(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return /^https?:$/.test(url.protocol) && url.origin === text.replace(/\/$/, '');
}
