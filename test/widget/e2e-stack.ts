/**
 * The real relay and billing sandbox for the widget's end-to-end tests, started by the test runner (see
 * web-test-runner.config.js) and reached by the test pages through `/__e2e/*` on the runner's own server.
 */
import { loadConfig } from '../../src/relay/config.js';
import { createLogger } from '../../src/relay/logger.js';
import { startRelay } from '../../src/relay/server.js';
import { createClientSession } from '../../src/relay/session.js';
import { startSandbox } from '../../src/sandbox/server.js';

const SESSION_SECRET = 'e2e-session-secret-that-is-long-enough-0123456789';

export async function startE2eStack(pageOrigins: string[]) {
  const sandbox = await startSandbox({ port: 0, username: 'e2e', password: 'e2e-password' });
  const relay = await startRelay(
    loadConfig({
      ...sandbox.relayEnv(),
      ALLOWED_ORIGINS: pageOrigins.join(','),
      PORT: '0',
      STORE_FILE: ':memory:',
      SESSION_SECRET,
      RATE_LIMIT_IP: '10000/60',
      RATE_LIMIT_AGREEMENT: '10000/60',
    }),
    createLogger('silent'),
  );
  // A relay of another merchant: the test pages' origin is not among its ALLOWED_ORIGINS.
  const foreignRelay = await startRelay(
    loadConfig({
      ...sandbox.relayEnv(),
      ALLOWED_ORIGINS: 'https://other-shop.example',
      PORT: '0',
      STORE_FILE: ':memory:',
    }),
    createLogger('silent'),
  );

  /** Answers for `/__e2e/<name>`: what a test needs to see of the billing side. */
  const routes: Record<string, (query: URLSearchParams) => Promise<unknown>> = {
    stack: async () => ({ relay: relay.url, sandbox: sandbox.url, foreignRelay: foreignRelay.url }),
    /** The billing answers the next payment with this status (`?status=404`: a billing that says "not found" so). */
    fault: async (q) => {
      sandbox.faults.epsPayments = { status: Number(q.get('status')), times: 1 };
      return {};
    },
    session: async (q) => ({
      session: await createClientSession({ agreementId: Number(q.get('agreement')) }, SESSION_SECRET),
    }),
    /** The `POST /eps_payments` bodies that reached the billing. */
    payments: async () =>
      sandbox.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/eps_payments')).map((c) => c.body),
    methods: async (q) =>
      [...sandbox.store.paymentMethods.values()].filter((m) => m.agreement_id === Number(q.get('agreement'))),
    balance: async (q) => ({ balance: String(sandbox.store.agreements.get(Number(q.get('agreement')))?.balance) }),
    /** Moves the sandbox's clock to one minute past one day before the next monthly period (the 1st, UTC). */
    eve: async () => {
      const now = sandbox.clock.now();
      const eveOf = (month: number) => Date.UTC(now.getUTCFullYear(), month, 1) - 24 * 3600_000 + 60_000;
      const month = eveOf(now.getUTCMonth() + 1) > now.getTime() ? now.getUTCMonth() + 1 : now.getUTCMonth() + 2;
      return sandbox.clock.advanceTo(eveOf(month)).events;
    },
    /** The sandbox's client card of an agreement, as HTML. */
    card: async (q) => ({
      html: await (await fetch(`${sandbox.url}/agreements/${Number(q.get('agreement'))}`)).text(),
    }),
    /** The client's choice on the payment system's page: the form the hosted page posts. */
    decide: async (q) => {
      const res = await fetch(q.get('url')!, {
        method: 'POST',
        body: new URLSearchParams({ decision: q.get('decision')! }),
        redirect: 'manual',
      });
      return { status: res.status, location: res.headers.get('location') };
    },
  };

  return {
    async handle(path: string, query: URLSearchParams): Promise<string | undefined> {
      const route = routes[path.replace(/^\/__e2e\//, '')];
      return route && JSON.stringify(await route(query));
    },
    async close() {
      await foreignRelay.close();
      await relay.close();
      await sandbox.close();
    },
  };
}
