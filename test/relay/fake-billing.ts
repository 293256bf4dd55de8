/**
 * A hand-written billing for the tests that need one the sandbox will not be: it answers `GET /auth` with a token and
 * every other call with the test's own `handle` — an endless answer, one carrying data it should not, a page on
 * plain http, payment methods that do not name their agreement. The relay in front of it runs over real sockets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import { SHOP } from './harness.js';

export interface FakeCall {
  method: string;
  path: string;
  body: string;
}

export type FakeHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export async function startFakeBilling(handle: FakeHandler) {
  const calls: FakeCall[] = [];
  const state = { handle };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/api\/rest\/v1/, '');
      calls.push({ method: req.method ?? '', path, body });
      if (path === '/auth') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 200, response: { token: 'fake-token', expires_in: 600 } }));
        return;
      }
      state.handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rest/v1`;
  return {
    baseUrl,
    calls,
    state,
    /** A relay in front of this billing. */
    relay(env: Record<string, string> = {}): Promise<Relay> {
      return startRelay(
        loadConfig({
          BILLING_BASE_URL: baseUrl,
          BILLING_USERNAME: 'fake-user',
          BILLING_PASSWORD: 'fake-password',
          EPS_UUID_A: 'fake-eps-a',
          EPS_UUID_C: 'fake-eps-c',
          ALLOWED_ORIGINS: SHOP,
          PORT: '0',
          BILLING_TIMEOUT_MS: '5000',
          RATE_LIMIT_IP: '100000/60',
          RATE_LIMIT_AGREEMENT: '100000/60',
          DUPLICATE_WINDOW_SECONDS: '0',
          ...env,
        }),
        createLogger('silent'),
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
