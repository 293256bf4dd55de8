/**
 * Starts the billing sandbox on a real socket. Tests start it in-process on port 0 and inspect it through the
 * returned object; `node --import tsx src/sandbox/server.ts` runs it alone on SANDBOX_PORT (8790 by default).
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createSandboxApp } from './app.js';
import { API_PREFIX } from './api/request.js';
import type { ClockJump } from './billing/scheduler.js';
import type { SandboxStore } from './billing/store.js';
import { SANDBOX_DEFAULTS, loadSandboxConfig, type SandboxOptions } from './config.js';
import type { SandboxFaults } from './faults.js';
import { reset } from './operations.js';
import { createSandboxState, type SandboxCall, type SandboxCounts } from './state.js';

export type { SandboxCall, SandboxCounts } from './state.js';
export type { SandboxOptions } from './config.js';
export type { ClockOptions } from './billing/clock.js';
export type { Fault, SandboxFaults } from './faults.js';
export type { ClockJump } from './billing/scheduler.js';
export type { BillingEvent } from './billing/records.js';
export type { SandboxStore } from './billing/store.js';

export interface Sandbox {
  /** `http://127.0.0.1:PORT`, where it listens. */
  url: string;
  /** `url + '/api/rest/v1'`: the billing `base_url`. */
  baseUrl: string;
  /** The in-memory billing data (seeded), to arrange and to inspect. */
  store: SandboxStore;
  /** Every API request received, in order. */
  calls: SandboxCall[];
  counts: SandboxCounts;
  /** Set, change or delete faults at any time. */
  faults: SandboxFaults;
  /** Forgets every token issued: the next request with one is answered 401. */
  revokeTokens(): void;
  /** Back to the seed, as `POST /sandbox/reset`. */
  reset(): void;
  /**
   * The environment variables a relay needs to talk to this sandbox (`BILLING_BASE_URL`, its credentials, the three
   * `EPS_UUID_*`, and its N as `AUTOPAYMENT_LEAD_DAYS`), for `loadConfig({...sandbox.relayEnv(), ALLOWED_ORIGINS, …})`.
   */
  relayEnv(): Record<string, string>;
  close(): Promise<void>;
  /** The sandbox clock: read it, or move it forward (every charge and trigger on the way fires in order, once). */
  clock: SandboxClockControl;
  /** Same as `clock.advance`. */
  advance(by: number | string): ClockJump;
  /** What the billing says about an agreement now (or at `at`, epoch ms). */
  billing: SandboxBilling;
}

export interface SandboxBilling {
  /** What brings the agreement to cover the next period, in minor units; 0n when nothing is owed. */
  recommendedPayment(agreementId: number, at?: number): bigint;
}

export interface SandboxClockControl {
  /** The sandbox time. */
  now(): Date;
  /** True when the clock stands still between moves. */
  readonly frozen: boolean;
  /**
   * Moves forward by milliseconds or an ISO 8601 duration (`'P1D'`, `'PT1H'`, `'P1M'`), or to a date-time
   * (`'2026-11-30T00:00:00Z'`). Throws a RangeError for a move backwards.
   */
  advance(by: number | string): ClockJump;
  /** Moves forward to an instant. */
  advanceTo(when: Date | number | string): ClockJump;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const state = createSandboxState(options);
  let url = '';
  const app = createSandboxApp({ ...options, listenUrl: () => url }, state);
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  const server = await listen(app.fetch, options.port ?? 0, host);
  url = `http://${/^(?:0\.0\.0\.0|::)$/.test(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const { clock, scheduler } = state;
  scheduler.start();

  let closed: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    store: state.store,
    calls: state.calls,
    counts: state.counts,
    faults: state.faults,
    revokeTokens: () => state.tokens.revokeAll(),
    reset: () => void reset(state),
    relayEnv: () => {
      const uuids = { ...SANDBOX_DEFAULTS.epsUuids, ...options.epsUuids };
      return {
        BILLING_BASE_URL: `${url}${API_PREFIX}`,
        BILLING_USERNAME: options.username ?? SANDBOX_DEFAULTS.username,
        BILLING_PASSWORD: options.password ?? SANDBOX_DEFAULTS.password,
        EPS_UUID_A: uuids.A,
        EPS_UUID_B: uuids.B,
        EPS_UUID_C: uuids.C,
        // The relay tells payers this sandbox's N, as it would the billing's.
        AUTOPAYMENT_LEAD_DAYS: String(scheduler.leadDays),
      };
    },
    clock: {
      now: () => clock.now(),
      get frozen() {
        return clock.frozen;
      },
      advance: (by) => scheduler.advance(by),
      advanceTo: (when) => scheduler.advanceTo(when),
    },
    advance: (by) => scheduler.advance(by),
    billing: {
      recommendedPayment: (agreementId, at = clock.millis()) => state.charging.recommendedPayment(agreementId, at),
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        scheduler.stop();
        state.closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      return closed;
    },
  };
}

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}

async function main(): Promise<void> {
  let options: ReturnType<typeof loadSandboxConfig>;
  try {
    options = loadSandboxConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const sandbox = await startSandbox(options);
  const uuids = SANDBOX_DEFAULTS.epsUuids;
  // The password is shown only when it is the public demo default; a configured one, and the control token, never.
  const password =
    options.password === SANDBOX_DEFAULTS.password ? SANDBOX_DEFAULTS.password : '(from SANDBOX_PASSWORD)';
  // With a public URL, the pages' forms are accepted from that origin only: people open the pages there.
  const pages = options.publicUrl ?? sandbox.url;
  console.log(`
  Billing sandbox listening on ${sandbox.url}

  API base_url:        ${sandbox.baseUrl}
  Basic credentials:   ${options.username} / ${password}   (GET ${API_PREFIX}/auth, and the control API)
  eps_uuid:            A=${uuids.A}  B=${uuids.B}  C=${uuids.C}
  Client cards:        ${pages}/   (one per agreement: ${pages}/agreements/1001)
  Hosted pages:        ${pages}/pay/<payment_id>
  Clock:               ${sandbox.clock.now().toISOString()}, ${sandbox.clock.frozen ? 'frozen (stands still until moved)' : 'runs with real time'}
  Control API:         ${sandbox.url}/sandbox/…, for example
                       curl -u ${options.username}:… -X POST ${sandbox.url}/sandbox/clock -H 'content-type: application/json' -d '{"advance":"P1D"}'

  Ctrl+C stops it.
`);
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
