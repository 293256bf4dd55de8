/**
 * The sandbox's start-up options, read once from the environment by `server.ts`; a bad start names every bad
 * variable. Documented in the README's "Sandbox reference".
 */
import type { SystemId } from '../eps/systems.js';
import { parseInstant } from './billing/clock.js';
import type { ClockOptions } from './billing/clock.js';

/** What the environment sets: the options of `startSandbox`. */
export interface SandboxConfig {
  port: number;
  host: string;
  username: string;
  password: string;
  tokenTtlSeconds: number;
  autopaymentLeadDays: number;
  clock: ClockOptions;
  publicUrl?: string;
  controlToken?: string;
}

/** The default of every option, for the environment here and for the sandbox started in-process (`startSandbox`). */
export const SANDBOX_DEFAULTS = {
  port: 8790,
  host: '127.0.0.1',
  username: 'demo',
  password: 'demo-secret',
  tokenTtlSeconds: 600,
  autopaymentLeadDays: 1,
  /** The `eps_uuid` of each payment system. */
  epsUuids: { A: 'sandbox-eps-a', B: 'sandbox-eps-b', C: 'sandbox-eps-c' } as Readonly<Record<SystemId, string>>,
} as const;

/** The options of `startSandbox` from `SANDBOX_*` variables, or an Error whose message lists every problem. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const problems: string[] = [];
  const value = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const text = value(name);
    if (text === undefined) return fallback;
    if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) problems.push(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
    return Number(text);
  };

  const port = whole('SANDBOX_PORT', SANDBOX_DEFAULTS.port, 0, 65535);
  const host = value('SANDBOX_HOST') ?? SANDBOX_DEFAULTS.host;
  const tokenTtlSeconds = whole('SANDBOX_TOKEN_TTL', SANDBOX_DEFAULTS.tokenTtlSeconds, 1, 31_536_000);
  const autopaymentLeadDays = whole('SANDBOX_AUTOPAYMENT_LEAD_DAYS', SANDBOX_DEFAULTS.autopaymentLeadDays, 1, 365);

  const publicUrl = value('SANDBOX_PUBLIC_URL')?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicUrl)) problems.push(`SANDBOX_PUBLIC_URL must be an http(s) origin such as http://localhost:8790, not "${publicUrl}"`);

  const start = value('SANDBOX_START');
  if (start !== undefined && !Number.isFinite(parseInstant(start))) problems.push(`SANDBOX_START must be a date-time such as 2026-04-10T09:00:00Z or 2026-04-10 09:00:00 (UTC), not "${start}"`);
  const mode = value('SANDBOX_CLOCK') ?? 'running';
  if (mode !== 'running' && mode !== 'frozen') problems.push(`SANDBOX_CLOCK must be "running" or "frozen", not "${mode}"`);

  const username = value('SANDBOX_USERNAME') ?? SANDBOX_DEFAULTS.username;
  const password = env.SANDBOX_PASSWORD || SANDBOX_DEFAULTS.password;
  if (username.includes(':')) problems.push('SANDBOX_USERNAME must not contain ":" (HTTP Basic)');
  const controlToken = value('SANDBOX_CONTROL_TOKEN');
  if (controlToken !== undefined && controlToken.length < 16) problems.push('SANDBOX_CONTROL_TOKEN must be at least 16 characters long');

  if (problems.length) throw new Error(`the billing sandbox cannot start:\n  ${problems.join('\n  ')}`);
  return {
    port,
    host,
    username,
    password,
    tokenTtlSeconds,
    autopaymentLeadDays,
    clock: { ...(start !== undefined && { start }), frozen: mode === 'frozen' },
    ...(publicUrl !== undefined && { publicUrl }),
    ...(controlToken !== undefined && { controlToken }),
  };
}
