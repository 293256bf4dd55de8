/**
 * The relay's Hono app in this process, asked through `app.request()`: for what its handlers decide before the
 * billing (validation, origins, CORS, error shapes, body limits), where no socket adds anything. Its billing refuses
 * and counts every call, so a test sees that nothing reached it. Real HTTP stays with test/relay/*.test.ts.
 */
import { Writable } from 'node:stream';
import { createRelayApp } from '../../../src/relay/app.js';
import type { BillingClient } from '../../../src/relay/billing/client.js';
import { loadConfig } from '../../../src/relay/config/load.js';
import { createLogger } from '../../../src/relay/observability/logger.js';
import { openSqliteStore } from '../../../src/relay/stores/idempotency/sqlite-store.js';
import { openSqliteRecentPayments } from '../../../src/relay/stores/recent-payments/sqlite-store.js';
import { SHOP } from '../harness.js';

export { SHOP, paymentA } from '../harness.js';
export const STRANGER = 'https://stranger.example';

export async function relayApp(env: Record<string, string> = {}) {
  const config = loadConfig({
    BILLING_BASE_URL: 'http://127.0.0.1:9/api/rest/v1',
    BILLING_USERNAME: 'relay-user',
    BILLING_PASSWORD: 'relay-password',
    EPS_UUID_A: 'uuid-a',
    EPS_UUID_B: 'uuid-b',
    EPS_UUID_C: 'uuid-c',
    ALLOWED_ORIGINS: SHOP,
    STORE_FILE: ':memory:',
    ...env,
  });
  const billingCalls: string[] = [];
  const refuse = (operation: string) => () => {
    billingCalls.push(operation);
    return Promise.reject(new Error(`the billing was asked: ${operation}`));
  };
  const billing = {
    createPayment: refuse('createPayment'),
    listPaymentMethods: refuse('listPaymentMethods'),
    disablePaymentMethod: refuse('disablePaymentMethod'),
    ready: refuse('ready'),
    close: () => Promise.resolve(),
  } as unknown as BillingClient;
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const idempotencyStore = await openSqliteStore(':memory:');
  const recentPayments = await openSqliteRecentPayments(':memory:');
  const app = createRelayApp({
    config,
    billing,
    logger: createLogger('info', sink),
    idempotencyStore,
    recentPayments,
    socketAddress: () => '192.0.2.1',
  });
  return {
    app,
    billingCalls,
    logLines,
    /** `POST /payments` from the shop's page, as JSON unless `body` is already text. */
    post: async (body: unknown, headers: Record<string, string> = {}) =>
      app.request('/payments', {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async close() {
      await idempotencyStore.close();
      await recentPayments.close();
    },
  };
}

export type RelayApp = Awaited<ReturnType<typeof relayApp>>;

/** An error answer's body, checked to have the one shape. */
export async function errorOf(
  res: Response,
): Promise<{ code: string; message: string; fields?: Record<string, unknown> }> {
  const body = (await res.json()) as { error: { code: string; message: string; fields?: Record<string, unknown> } };
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string')
    throw new Error(`not the error shape: ${JSON.stringify(body)}`);
  return body.error;
}
