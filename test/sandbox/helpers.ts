/** Talks to a sandbox started on a free port, over real HTTP. */
import assert from 'node:assert/strict';
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
      cached ??= await client.token();
      const headers: Record<string, string> = { authorization: `Bearer ${token ?? cached}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${sandbox.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    },
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

export const params = (record: Record<string, unknown>) => Object.entries(record).map(([name, value]) => ({ name, value }));

/** A valid payment of `system` to agreement AG-1001; `extra` adds or overrides eps_params. */
export function payment(system: 'A' | 'B' | 'C', extra: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
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
