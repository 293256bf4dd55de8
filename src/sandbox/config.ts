/**
 * The sandbox's options, once: what each means, its default, and how `server.ts` reads them from the environment at
 * start-up (a bad start names every bad variable). Documented in docs/sandbox.md.
 */
import { DEFAULT_AUTOPAY_LEAD_DAYS, MAX_AUTOPAY_LEAD_DAYS } from '../eps/autopay.js';
import type { SystemId } from '../eps/systems.js';
import { parseInstant } from './billing/clock.js';
import type { ClockOptions } from './billing/clock.js';

/** The options of a sandbox (`startSandbox`); the defaults are `SANDBOX_DEFAULTS`. */
export interface SandboxOptions {
  /** Port; in-process default 0 (a free port), from the environment 8790. */
  port?: number;
  /** Listening address. */
  host?: string;
  /** Basic credentials of `GET /auth`, of the control API and of the pages' forms. */
  username?: string;
  password?: string;
  /** Lifetime of a token, in seconds of sandbox time. */
  tokenTtlSeconds?: number;
  /**
   * Tokens per credential: `many` (each `GET /auth` adds one) or `one` (each `GET /auth` revokes the ones before, as a
   * session-based billing does). The spec does not say which its billing does.
   */
  liveTokens?: 'many' | 'one';
  /** N of autopayment trigger 1: days before a new billing period. */
  autopaymentLeadDays?: number;
  /** The sandbox clock: its start (default the real time) and whether it stands still between moves (default: runs). */
  clock?: ClockOptions;
  /** The `eps_uuid` of each payment system. */
  epsUuids?: Record<SystemId, string>;
  /**
   * The origin clients reach the sandbox at, when a proxy or another name stands in front of it: the origin of
   * `confirmation_url` (default where the sandbox listens), and the one origin the pages' forms are accepted from
   * (default the origin each request was sent to).
   */
  publicUrl?: string;
  /** A token that opens the control API (`Authorization: Bearer <it>`) besides the Basic credentials; default none. */
  controlToken?: string;
}

/** What the environment sets. */
export type SandboxConfig = Required<
  Pick<
    SandboxOptions,
    'port' | 'host' | 'username' | 'password' | 'tokenTtlSeconds' | 'liveTokens' | 'autopaymentLeadDays' | 'clock'
  >
> &
  Pick<SandboxOptions, 'publicUrl' | 'controlToken'>;

/** The default of every option, for the environment here and for the sandbox started in-process (`startSandbox`). */
export const SANDBOX_DEFAULTS = {
  port: 8790,
  host: '127.0.0.1',
  username: 'demo',
  password: 'demo-secret',
  tokenTtlSeconds: 600,
  liveTokens: 'many',
  autopaymentLeadDays: DEFAULT_AUTOPAY_LEAD_DAYS,
  epsUuids: { A: 'sandbox-eps-a', B: 'sandbox-eps-b', C: 'sandbox-eps-c' } as Readonly<Record<SystemId, string>>,
} as const;

/** The options of `startSandbox` from `SANDBOX_*` variables, or an Error whose message lists every problem. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const problems: string[] = [];
  const value = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const text = value(name);
    if (text === undefined) return fallback;
    if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max)
      problems.push(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
    return Number(text);
  };

  const port = whole('SANDBOX_PORT', SANDBOX_DEFAULTS.port, 0, 65535);
  const host = value('SANDBOX_HOST') ?? SANDBOX_DEFAULTS.host;
  const tokenTtlSeconds = whole('SANDBOX_TOKEN_TTL', SANDBOX_DEFAULTS.tokenTtlSeconds, 1, 31_536_000);
  const liveTokens = value('SANDBOX_LIVE_TOKENS') ?? SANDBOX_DEFAULTS.liveTokens;
  if (liveTokens !== 'many' && liveTokens !== 'one')
    problems.push(`SANDBOX_LIVE_TOKENS must be "many" or "one", not "${liveTokens}"`);
  const autopaymentLeadDays = whole(
    'SANDBOX_AUTOPAYMENT_LEAD_DAYS',
    SANDBOX_DEFAULTS.autopaymentLeadDays,
    1,
    MAX_AUTOPAY_LEAD_DAYS,
  );

  const publicUrl = value('SANDBOX_PUBLIC_URL')?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicUrl))
    problems.push(`SANDBOX_PUBLIC_URL must be an http(s) origin such as http://localhost:8790, not "${publicUrl}"`);

  const start = value('SANDBOX_START');
  if (start !== undefined && !Number.isFinite(parseInstant(start)))
    problems.push(
      `SANDBOX_START must be a date-time such as 2026-04-10T09:00:00Z or 2026-04-10 09:00:00 (UTC), not "${start}"`,
    );
  const mode = value('SANDBOX_CLOCK') ?? 'running';
  if (mode !== 'running' && mode !== 'frozen')
    problems.push(`SANDBOX_CLOCK must be "running" or "frozen", not "${mode}"`);

  const username = value('SANDBOX_USERNAME') ?? SANDBOX_DEFAULTS.username;
  const password = env.SANDBOX_PASSWORD || SANDBOX_DEFAULTS.password;
  if (username.includes(':')) problems.push('SANDBOX_USERNAME must not contain ":" (HTTP Basic)');
  const controlToken = value('SANDBOX_CONTROL_TOKEN');
  if (controlToken !== undefined && controlToken.length < 16)
    problems.push('SANDBOX_CONTROL_TOKEN must be at least 16 characters long');

  if (problems.length) throw new Error(`the billing sandbox cannot start:\n  ${problems.join('\n  ')}`);
  return {
    port,
    host,
    username,
    password,
    tokenTtlSeconds,
    liveTokens: liveTokens as 'many' | 'one',
    autopaymentLeadDays,
    clock: { ...(start !== undefined && { start }), frozen: mode === 'frozen' },
    ...(publicUrl !== undefined && { publicUrl }),
    ...(controlToken !== undefined && { controlToken }),
  };
}
