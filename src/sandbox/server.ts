/**
 * Starts the billing sandbox on a real socket. Tests start it in-process on port 0 and inspect it through the
 * returned object; `node --import tsx src/sandbox/server.ts` runs it alone on SANDBOX_PORT (8790 by default).
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { API_PREFIX, DEFAULT_EPS_UUIDS, createSandboxApp, createSandboxState, type SandboxAppOptions, type SandboxCall, type SandboxCounts } from './app.js';
import type { SandboxFaults } from './faults.js';
import type { ClockJump } from './scheduler.js';
import type { SandboxStore } from './store.js';

export type { SandboxCall, SandboxCounts } from './app.js';
export type { ClockOptions } from './clock.js';
export type { Fault, SandboxFaults } from './faults.js';
export type { ClockJump } from './scheduler.js';
export type { BillingEvent, SandboxStore } from './store.js';

export interface SandboxOptions extends Omit<SandboxAppOptions, 'publicUrl'> {
  /** Port on 127.0.0.1; default 0 (a free port). */
  port?: number;
  /** Origin of the hosted-page links when the sandbox is reached through another host; default `url`. */
  publicUrl?: string;
}

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
  /**
   * The environment variables a relay needs to talk to this sandbox (`BILLING_BASE_URL`, its credentials and the
   * three `EPS_UUID_*`), for `loadConfig({...sandbox.relayEnv(), ALLOWED_ORIGINS, …})`.
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
  const app = createSandboxApp({ ...options, publicUrl: () => options.publicUrl?.replace(/\/+$/, '') ?? url }, state);
  const server = await listen(app.fetch, options.port ?? 0);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    relayEnv: () => {
      const uuids = { ...DEFAULT_EPS_UUIDS, ...options.epsUuids };
      return {
        BILLING_BASE_URL: `${url}${API_PREFIX}`,
        BILLING_USERNAME: options.username ?? 'demo',
        BILLING_PASSWORD: options.password ?? 'demo-secret',
        EPS_UUID_A: uuids.A,
        EPS_UUID_B: uuids.B,
        EPS_UUID_C: uuids.C,
      };
    },
    clock: {
      now: () => clock.now(),
      frozen: clock.frozen,
      advance: (by) => scheduler.advance(by),
      advanceTo: (when) => scheduler.advanceTo(when),
    },
    advance: (by) => scheduler.advance(by),
    billing: { recommendedPayment: (agreementId, at = clock.millis()) => state.charging.recommendedPayment(agreementId, at) },
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

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}

async function main(): Promise<void> {
  const portText = process.env.SANDBOX_PORT ?? '8790';
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) {
    console.error(`SANDBOX_PORT must be a port number (0-65535), not "${portText}"`);
    process.exit(1);
  }
  const publicUrl = process.env.SANDBOX_PUBLIC_URL?.replace(/\/+$/, '') || undefined;
  const sandbox = await startSandbox({ port, ...(publicUrl && { publicUrl }) });
  console.log(`
  Billing sandbox listening on ${sandbox.url}

  API base_url:        ${sandbox.baseUrl}
  Client card:         ${sandbox.url}/   (one per agreement: ${sandbox.url}/agreements/1001)
  Clock:               ${sandbox.clock.now().toISOString()}, runs with real time; move it on the pages or with
                       curl -X POST ${sandbox.url}/sandbox/clock -H 'content-type: application/json' -d '{"advance":"P1D"}'
  Hosted pages:        ${publicUrl ?? sandbox.url}/pay/<payment_id>
  Basic credentials:   demo / demo-secret   (GET ${API_PREFIX}/auth)
  eps_uuid:            A=${DEFAULT_EPS_UUIDS.A}  B=${DEFAULT_EPS_UUIDS.B}  C=${DEFAULT_EPS_UUIDS.C}

  Ctrl+C stops it.
`);
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
