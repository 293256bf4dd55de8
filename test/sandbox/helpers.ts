/** Talks to a sandbox started on a free port, over real HTTP. */
import assert from 'node:assert/strict';
import { formatMinorUnits } from '../../src/eps/amount.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const SHOP = 'https://shop.example';

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface Client {
  sandbox: Sandbox;
  token(): Promise<string>;
  /** A request to the API with a fresh token (unless `token` is given); the body is sent as JSON (a string as is). */
  api(method: string, path: string, body?: unknown, token?: string): Promise<Answer>;
  /** A request to the control API (`/sandbox{path}`) with the sandbox's Basic credentials. */
  control(method: string, path: string, body?: unknown): Promise<Answer>;
  /** The `Authorization` header value of the sandbox's Basic credentials. */
  basic: string;
  /** `POST /eps_payments` and the response object of a 201. */
  pay(body: Record<string, unknown>): Promise<PaymentAnswer>;
  close(): Promise<void>;
}

export interface PaymentAnswer {
  payment_id: number;
  status: string;
  amount: string;
  confirmation_url: string;
}

export async function start(options: SandboxOptions = {}): Promise<Client> {
  const sandbox = await startSandbox({ port: 0, ...options });
  let cached: string | undefined;
  const basic = `Basic ${Buffer.from(`${options.username ?? 'demo'}:${options.password ?? 'demo-secret'}`).toString('base64')}`;
  const client: Client = {
    sandbox,
    async token() {
      const res = await fetch(`${sandbox.baseUrl}/auth`, { headers: { authorization: basic } });
      const body = (await res.json()) as { response: { token: string } };
      assert.equal(res.status, 200);
      return body.response.token;
    },
    async api(method, path, body, token) {
      const send = async (bearer: string) => {
        const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${sandbox.baseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
      };
      if (token !== undefined) return send(token);
      cached ??= await client.token();
      const answer = await send(cached);
      if (answer.status !== 401) return answer;
      // Tokens live by the sandbox clock: after a move past their lifetime, get a new one, as a billing client does.
      cached = await client.token();
      return send(cached);
    },
    async control(method, path, body) {
      const headers: Record<string, string> = { authorization: basic };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${sandbox.url}/sandbox${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    },
    basic,
    async pay(body) {
      const answer = await client.api('POST', '/eps_payments', body);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 201);
      return answer.body.response as PaymentAnswer;
    },
    close: () => sandbox.close(),
  };
  return client;
}

export const params = (record: Record<string, unknown>) =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

/** A valid payment of `system` to agreement AG-1001; `extra` adds or overrides eps_params. */
export function payment(
  system: 'A' | 'B' | 'C',
  extra: Record<string, unknown> = {},
  fields: Record<string, unknown> = {},
) {
  const base = {
    A: { confirmation_type: 'redirect', confirmation_return_url: `${SHOP}/back` },
    B: { confirmation_return_url: `${SHOP}/ok` },
    C: { return_url: `${SHOP}/c-back` },
  }[system];
  return {
    eps_uuid: `sandbox-eps-${system.toLowerCase()}`,
    amount: 1500.5,
    agreement_param_id: 5,
    agreement_param_value: 'AG-1001',
    eps_params: params({ ...base, ...extra }),
    ...fields,
  };
}

export const AUTOPAY_A = { save_payment_method: true, enable_autopayments: true, preferred_method: true };

/** The client's decision on the hosted page, without following the redirect. */
export async function decide(url: string, decision: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision }),
    redirect: 'manual',
  });
}

export function errorMessage(answer: Answer): string {
  const error = answer.body.error as { message?: unknown } | undefined;
  assert.equal(answer.body.code, answer.status, 'the envelope code equals the HTTP status');
  assert.equal(typeof error?.message, 'string');
  return error!.message as string;
}

/** The sandbox time most billing tests start at: a Friday in April 2026 (30 days), clock standing still. */
export const T0 = '2026-04-10T09:00:00Z';

/** A sandbox whose clock stands still at `at` until a test moves it. */
export function startFrozen(at = T0, options: SandboxOptions = {}): Promise<Client> {
  return start({ ...options, clock: { start: at, frozen: true } });
}

/** A new client with an offer agreement; its id. */
export async function newAgreement(client: Client, organization = 'Test Client LLC'): Promise<number> {
  const email = `c${Math.random().toString(36).slice(2, 10)}@example.com`;
  const user = await client.api('POST', '/users', { type: 1, organization, email });
  assert.equal(user.status, 201, JSON.stringify(user.body));
  const { user_id } = user.body.response as { user_id: number };
  const agreement = await client.api('POST', '/agreements', { user_id, is_offer: true, create_date: '2026-01-01' });
  assert.equal(agreement.status, 200, JSON.stringify(agreement.body));
  return (agreement.body.response as { agreement_id: number }).agreement_id;
}

/** Pays `amount` into an agreement through system C and its hosted page. */
export async function topUp(client: Client, agreementId: number, amount: number): Promise<void> {
  const created = await client.pay(
    payment('C', {}, { amount, agreement_param_id: 11, agreement_param_value: String(agreementId) }),
  );
  assert.equal((await decide(created.confirmation_url, 'pay')).status, 303);
}

/** Saves a method with autopayment for an agreement by a link-only payment of A (the balance does not change); its id. */
export async function saveMethod(client: Client, agreementId: number): Promise<number> {
  const created = await client.pay(
    payment(
      'A',
      { ...AUTOPAY_A, cancel_payment: true },
      { amount: 1, agreement_param_id: 11, agreement_param_value: String(agreementId) },
    ),
  );
  assert.equal((await decide(created.confirmation_url, 'pay')).status, 303);
  return client.sandbox.store.payments.get(created.payment_id)!.payment_method_id!;
}

/** Tariff 1: Internet 990.00 and a static IP 150.00 a month. */
export const INTERNET = { tariff_service_id: 11, multiplicator: 1 };
export const STATIC_IP = { tariff_service_id: 12, multiplicator: 1 };

/** `POST /subscriptions` on tariff 1, monthly; its id. */
export async function subscribe(
  client: Client,
  agreementId: number,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const answer = await client.api('POST', '/subscriptions', {
    agreement_id: agreementId,
    tariff_id: 1,
    period_id: 1,
    description: 'Office internet',
    services: [INTERNET, STATIC_IP],
    ...fields,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body.response as { subscription_id: number }).subscription_id;
}

export interface ClockAnswer {
  now: string;
  from: string;
  events: BillingEventJson[];
}

export interface BillingEventJson {
  at: string;
  kind: string;
  agreement_id: number;
  subscription_id?: number;
  trigger?: string;
  payment_method_id?: number;
  amount?: string;
  text: string;
}

/** `POST /sandbox/clock` with a JSON body; the answer's body (asserting 200). */
export async function moveClock(client: Client, body: Record<string, unknown>): Promise<ClockAnswer> {
  const answer = await client.control('POST', '/clock', body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as unknown as ClockAnswer;
}

/** The agreement's ledger entries of some kinds, as `[at, kind, amount text, version]`. */
export function ledger(client: Client, agreementId: number, kinds: readonly string[] = ['charge', 'recalculation']) {
  return client.sandbox.store
    .ledgerOf(agreementId)
    .filter((e) => kinds.includes(e.kind))
    .map((e) => [e.at, e.kind, formatMinorUnits(e.amount), e.version ?? null] as const);
}

/** The agreement's autopayments as `[at, trigger, amount text, method]`. */
export function autopayments(client: Client, agreementId: number) {
  return client.sandbox.store
    .autopaymentsOf(agreementId)
    .map((a) => [a.at, a.trigger, formatMinorUnits(a.amount), a.payment_method_id] as const);
}

export function balance(client: Client, agreementId: number): string {
  return formatMinorUnits(client.sandbox.store.agreements.get(agreementId)!.balance);
}

export function stateOf(client: Client, subscriptionId: number): string {
  return client.sandbox.store.subscriptions.get(subscriptionId)!.billing.state;
}
