/** Starts the billing sandbox and a relay wired to it, both on free ports over real sockets. */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay } from '../../src/relay/server.js';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const SHOP = 'http://shop.test:8080';
export const CREDENTIALS = { username: 'relay-test-user-3b9c', password: 'relay-test-password-7f3a' };

export async function startStack(options: { sandbox?: SandboxOptions; env?: Record<string, string> } = {}) {
  const sandbox = await startSandbox({ port: 0, ...CREDENTIALS, ...options.sandbox });
  const config = loadConfig({
    ...sandbox.relayEnv(),
    // The relay's own credentials, which a test may make differ from the sandbox's.
    BILLING_USERNAME: CREDENTIALS.username,
    BILLING_PASSWORD: CREDENTIALS.password,
    ALLOWED_ORIGINS: SHOP,
    PORT: '0',
    METRICS_PORT: '0',
    BILLING_TIMEOUT_MS: '2000',
    // Generous limits and no duplicate window: the suites send many payments from one address for one agreement;
    // the rate-limit and duplicate tests set their own.
    RATE_LIMIT_IP: '100000/60',
    RATE_LIMIT_AGREEMENT: '100000/60',
    RATE_LIMIT_NOT_FOUND: '100000/60',
    DUPLICATE_WINDOW_SECONDS: '0',
    // Keys in this process only; the suites that restart a relay give it a file.
    STORE_FILE: ':memory:',
    ...options.env,
  });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const relay = await startRelay(config, createLogger('info', sink));

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${relay.url}/payments`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  return {
    sandbox,
    relay,
    logLines,
    post,
    async close() {
      await relay.close();
      await sandbox.close();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

export const params = (record: Record<string, unknown>) =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

export const paymentA = (extra: Record<string, unknown> = {}) => ({
  system: 'A',
  amount: '1500.50',
  agreement_param_id: 5,
  agreement_param_value: 'AG-1001',
  eps_params: params({ confirmation_type: 'redirect', confirmation_return_url: `${SHOP}/paid`, ...extra }),
});

/** Every agreement lookup kind (the relay offers only the impersonal ones unless told). */
export const ALL_LOOKUPS = '1 4 5 6 7 8 10 11 14 15';

/** The bodies of `POST /eps_payments` that reached the billing. */
export const epsCalls = (stack: Stack) =>
  stack.sandbox.calls
    .filter((c) => c.method === 'POST' && c.path.endsWith('/eps_payments'))
    .map((c) => c.body as Record<string, unknown>);

/** Resolves once `predicate` holds; throws after `ms`. */
export async function waitFor(predicate: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A `POST /payments` from the shop's page (with `key` as its Idempotency-Key): its status, code and replay. */
export async function postPayment(
  relay: string,
  body: unknown,
  key?: string,
): Promise<{ status: number; code?: string; replayed: boolean }> {
  const res = await fetch(`${relay}/payments`, {
    method: 'POST',
    headers: { origin: SHOP, 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { error?: { code: string } };
  return {
    status: res.status,
    ...(answer.error && { code: answer.error.code }),
    replayed: res.headers.get('idempotent-replayed') === 'true',
  };
}

/** Payment `n` of a test: its number travels in its return URL, so the billing's calls tell the payments apart. */
export const numberedPayment = (n: number) => paymentA({ confirmation_return_url: `${SHOP}/paid?n=${n}` });

/** How many `POST /eps_payments` of each numbered payment (`numberedPayment`) reached the billing. */
export function billedTimes(calls: { method: string; path: string; body: unknown }[], count: number): number[] {
  const times = Array<number>(count).fill(0);
  for (const call of calls) {
    if (call.method !== 'POST' || !call.path.endsWith('/eps_payments')) continue;
    const params = (call.body as { eps_params: { name: string; value: string }[] }).eps_params;
    const url = params.find((p) => p.name === 'confirmation_return_url')!.value;
    times[Number(new URL(url).searchParams.get('n'))]! += 1;
  }
  return times;
}
