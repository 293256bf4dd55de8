/**
 * Starts the billing sandbox on a real socket. Tests start it in-process on port 0 and inspect it through the
 * returned object; `node --import tsx src/sandbox/server.ts` runs it alone on SANDBOX_PORT (8790 by default).
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { API_PREFIX, DEFAULT_EPS_UUIDS, createSandboxApp, createSandboxState, type SandboxAppOptions, type SandboxCall, type SandboxCounts } from './app.js';
import type { SandboxFaults } from './faults.js';
import type { SandboxStore } from './store.js';

export type { SandboxCall, SandboxCounts } from './app.js';
export type { Fault, SandboxFaults } from './faults.js';
export type { SandboxStore } from './store.js';

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
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const state = createSandboxState(options);
  let url = '';
  const app = createSandboxApp({ ...options, publicUrl: () => options.publicUrl?.replace(/\/+$/, '') ?? url }, state);
  const server = await listen(app.fetch, options.port ?? 0);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    store: state.store,
    calls: state.calls,
    counts: state.counts,
    faults: state.faults,
    revokeTokens: () => state.tokens.revokeAll(),
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
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
  Client card:         ${sandbox.url}/
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
