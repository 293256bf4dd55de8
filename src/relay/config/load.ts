/**
 * The relay's configuration, read once from the environment and checked as a whole: a bad start names every bad or
 * missing variable at once. The variables are one table (variables.ts), which also gives `RelayConfig` its type.
 */
import { readFileSync } from 'node:fs';
import { SYSTEM_IDS, type SystemId } from '../../eps/systems.js';
import { isLoopbackHost } from '../../eps/url.js';
import type { AgreementNotFoundRule } from '../billing/agreement-not-found.js';
import {
  INVALID,
  VARIABLES,
  type TableConfig,
  type Variable,
  type VariableName,
  type VariableValues,
} from './variables.js';

/** The relay's configuration: one property per variable as the table says (`TableConfig`), and those made of several. */
export type RelayConfig = TableConfig & CombinedConfig;

/** What several variables make together, or what no variable names alone. */
interface CombinedConfig {
  /** The value of every variable the table marks secret (and a password inside `REDIS_URL`): for the logs to scrub. */
  secrets: string[];
  /** The `eps_uuid` of each offered system; a system without one is not offered. */
  epsUuids: Partial<Record<SystemId, string>>;
  /** The metrics listener (`METRICS_PORT`); absent: no metrics are served. */
  metrics?: { host: string; port: number };
  /** The largest payment, in minor units, and as text. */
  maxAmount: bigint;
  maxAmountText: string;
  /** Redis through Sentinel (`REDIS_SENTINELS`, exclusive with `redisUrl`): the sentinels name the primary. */
  redisSentinel?: RedisSentinelConfig;
  /**
   * With Redis: how many replicas must acknowledge an idempotency claim (and its answer) before the payment leaves
   * (`WAIT`); 0: none asked for (replication is asynchronous).
   */
  redisWaitReplicas: number;
  /** Where spans are sent (OTLP/HTTP); unset: no traces. */
  tracesEndpoint?: string;
  /** The Node server's limits on slow or idle clients, and on open connections. */
  server: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number };
  /** How the billing's "no agreement found" answer to a payment is recognised (the spec shows no error format). */
  agreementNotFound: AgreementNotFoundRule;
}

export interface RedisSentinelConfig {
  /** The sentinels asked which node is the primary (any one that answers will do). */
  nodes: { host: string; port: number }[];
  /** The name the sentinels monitor the primary under (`sentinel monitor <name> …`). */
  name: string;
  /** The sentinels' own ACL user and password (`requirepass` in sentinel.conf), if they ask for one. */
  username?: string;
  password?: string;
  /** The sentinels and the data nodes over TLS. */
  tls: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The relay cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads and checks the configuration (the table of variables.ts); throws a `ConfigError` naming every problem. */
export function loadConfig(env: Env = process.env): RelayConfig {
  const problems: string[] = [];
  const values: VariableValues = {};
  const secrets: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES) as [VariableName, Variable<unknown>][]) {
    const given = variable.secret ? secretText(env, name, problems) : { text: env[name] };
    if (given === null) continue;
    const text = (given.text ?? variable.default ?? '').trim();
    const label = given.file ? `${name} (from ${name}_FILE)` : name;
    if (!text) {
      if (given.file) problems.push(`${label} is empty`);
      else if (variable.required) problems.push(`${name} is missing`);
      else if (variable.default !== undefined && variable.empty === undefined)
        problems.push(`${label} must ${variable.must}`);
      continue;
    }
    if (variable.secret) secrets.push(text, ...urlPassword(text));
    const value = variable.parse(text);
    if (value === INVALID) problems.push(`${label} must ${variable.must}`);
    else (values as Record<string, unknown>)[name] = value;
  }
  const v = values;

  // What no variable alone can tell.
  const base = v.BILLING_BASE_URL && new URL(v.BILLING_BASE_URL);
  if (base && base.protocol === 'http:' && !isLoopbackHost(base.hostname) && v.BILLING_ALLOW_HTTP !== true) {
    // The relay's Basic credentials and bearer tokens travel on it.
    problems.push(
      'BILLING_BASE_URL must be https: (plain http only to a loopback address, or with BILLING_ALLOW_HTTP=true)',
    );
  }
  const epsUuids: Partial<Record<SystemId, string>> = {};
  for (const id of SYSTEM_IDS) {
    const uuid = v[`EPS_UUID_${id}`];
    if (uuid) epsUuids[id] = uuid;
  }
  if (!Object.keys(epsUuids).length) problems.push('EPS_UUID_A, EPS_UUID_B, EPS_UUID_C: set at least one');
  if ((v.SERVER_HEADERS_TIMEOUT_MS ?? 0) > (v.SERVER_REQUEST_TIMEOUT_MS ?? Infinity))
    problems.push('SERVER_HEADERS_TIMEOUT_MS must not be above SERVER_REQUEST_TIMEOUT_MS');
  if (v.REDIS_URL && v.REDIS_SENTINELS) problems.push('REDIS_URL and REDIS_SENTINELS: set one of them, not both');
  // Set without a Redis to apply to, they would be ignored: say so rather than run without what they ask for.
  const redis = v.REDIS_URL || v.REDIS_SENTINELS;
  for (const name of ['REDIS_USERNAME', 'REDIS_PASSWORD'] as const)
    if (!redis && v[name]) problems.push(`${name} is set without REDIS_URL or REDIS_SENTINELS`);
  if (!redis && v.REDIS_WAIT_REPLICAS) problems.push('REDIS_WAIT_REPLICAS is set without REDIS_URL or REDIS_SENTINELS');
  for (const [name, current] of [
    ['TOKEN_SECRET_PREVIOUS', 'TOKEN_SECRET'],
    ['SESSION_SECRET_PREVIOUS', 'SESSION_SECRET'],
  ] as const) {
    if (v[name] && !v[current]) problems.push(`${name} is set without ${current}`);
    else if (v[name] && v[name] === v[current]) problems.push(`${name} must ${VARIABLES[name].must}`);
  }
  for (const name of ['REDIS_SENTINEL_USERNAME', 'REDIS_SENTINEL_PASSWORD'] as const)
    if (!v.REDIS_SENTINELS && v[name]) problems.push(`${name} is set without REDIS_SENTINELS`);
  if (!v.REDIS_SENTINELS && v.REDIS_SENTINEL_TLS)
    problems.push('REDIS_SENTINEL_TLS is set without REDIS_SENTINELS (with REDIS_URL: a rediss:// URL)');

  if (problems.length) throw new ConfigError(problems);
  const table: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(VARIABLES) as [VariableName, Variable<unknown>][]) {
    const value = v[name] ?? variable.unset;
    if (variable.config && value !== undefined) table[variable.config] = value;
  }
  const traces = tracesEndpoint(v);
  const combined: CombinedConfig = {
    secrets,
    epsUuids,
    ...(v.METRICS_PORT !== undefined && { metrics: { host: v.METRICS_HOST!, port: v.METRICS_PORT } }),
    maxAmount: v.MAX_AMOUNT!.minor,
    maxAmountText: v.MAX_AMOUNT!.text,
    ...(v.REDIS_SENTINELS && {
      redisSentinel: {
        nodes: v.REDIS_SENTINELS,
        name: v.REDIS_SENTINEL_NAME!,
        ...(v.REDIS_SENTINEL_USERNAME && { username: v.REDIS_SENTINEL_USERNAME }),
        ...(v.REDIS_SENTINEL_PASSWORD && { password: v.REDIS_SENTINEL_PASSWORD }),
        tls: v.REDIS_SENTINEL_TLS === true,
      },
    }),
    // Under Sentinel a failover is expected: a claim only the dead primary held would let a retry pay again.
    redisWaitReplicas: v.REDIS_WAIT_REPLICAS ?? (v.REDIS_SENTINELS ? 1 : 0),
    server: {
      headersTimeoutMs: v.SERVER_HEADERS_TIMEOUT_MS!,
      requestTimeoutMs: v.SERVER_REQUEST_TIMEOUT_MS!,
      keepAliveTimeoutMs: v.SERVER_KEEP_ALIVE_TIMEOUT_MS!,
      maxConnections: v.SERVER_MAX_CONNECTIONS!,
    },
    ...(traces && { tracesEndpoint: traces }),
    agreementNotFound: { statuses: v.AGREEMENT_NOT_FOUND_STATUS ?? [], pattern: v.AGREEMENT_NOT_FOUND_TEXT ?? null },
  };
  // The table's rows each fill their property, as TableConfig says of them.
  return { ...(table as TableConfig), ...combined };
}

/**
 * A secret's text: `NAME`, or the content of the file `NAME_FILE` names (the containers' convention: Docker and
 * Kubernetes secrets are files), its final newline dropped. `null` when that is a problem, recorded without the value.
 */
function secretText(env: Env, name: string, problems: string[]): { text?: string; file?: boolean } | null {
  const path = env[`${name}_FILE`]?.trim();
  if (!path) return { text: env[name] };
  if (env[name]?.trim()) {
    problems.push(`${name} and ${name}_FILE: set one of them, not both`);
    return null;
  }
  try {
    return { text: readFileSync(path, 'utf8').replace(/\r?\n$/, ''), file: true };
  } catch (error) {
    problems.push(`${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    return null;
  }
}

/** The password a URL carries (`redis://user:pw@host`), as written and decoded. */
function urlPassword(text: string): string[] {
  const password = URL.canParse(text) ? new URL(text).password : '';
  if (!password) return [];
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    // Not a URL node-redis can read: refused by its parser, named in the ConfigError.
    return [password];
  }
}

/** As OpenTelemetry's exporters read them: the signal's own address as it is, else the base one's `v1/traces`. */
function tracesEndpoint(v: VariableValues): string | undefined {
  if (v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (v.OTEL_EXPORTER_OTLP_ENDPOINT) return `${v.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}
