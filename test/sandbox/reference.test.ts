/**
 * The sandbox as a merchant's test suite sees it: started as its own process with `SANDBOX_*` variables, and used
 * only through the HTTP API docs/sandbox.md documents — the billing API, the hosted page's form and
 * the control API. No HTML is read and nothing is called in process.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = '2026-04-10T09:00:00.000Z';
const CONTROL_TOKEN = 'control-token-for-the-reference-test';
const BASIC = `Basic ${Buffer.from('merchant:merchant-secret').toString('base64')}`;
const SHOP = 'https://shop.example';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers, read by the assertions
}

let child: ChildProcess;
let url = '';

/** Starts `src/sandbox/server.ts` on a free port, the clock frozen at START; resolves with its URL from its first lines. */
function startProcess(): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_START: '2026-04-10 09:00:00',
      SANDBOX_CLOCK: 'frozen',
      SANDBOX_TOKEN_TTL: '600',
      SANDBOX_USERNAME: 'merchant',
      SANDBOX_PASSWORD: 'merchant-secret',
      SANDBOX_CONTROL_TOKEN: CONTROL_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${out}`)));
  });
}

async function request(
  method: string,
  path: string,
  init: { body?: unknown; authorization?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.authorization) headers.authorization = init.authorization;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : { text },
  };
}

const control = (method: string, path: string, body?: unknown) =>
  request(method, `/sandbox${path}`, { body, authorization: BASIC });

async function token(): Promise<string> {
  const answer = await request('GET', '/api/rest/v1/auth', { authorization: BASIC });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.response.expires_in, 600);
  return answer.body.response.token as string;
}

async function api(method: string, path: string, body?: unknown): Promise<Answer> {
  return request(method, `/api/rest/v1${path}`, { body, authorization: `Bearer ${await token()}` });
}

const params = (record: Record<string, unknown>) => Object.entries(record).map(([name, value]) => ({ name, value }));

/** A payment of system C (or A/B with `eps_params`), found by `kind` = `value`. */
function payment(
  kind: number,
  value: string,
  amount = 100,
  system: 'A' | 'B' | 'C' = 'C',
  extra: Record<string, unknown> = {},
) {
  const base = {
    A: { confirmation_type: 'redirect', confirmation_return_url: `${SHOP}/back` },
    B: {},
    C: { return_url: `${SHOP}/back` },
  }[system];
  return {
    eps_uuid: `sandbox-eps-${system.toLowerCase()}`,
    amount,
    agreement_param_id: kind,
    agreement_param_value: value,
    eps_params: params({ ...base, ...extra }),
  };
}

/** Creates a payment and decides it on the hosted page's form; the payment id. */
async function pay(body: ReturnType<typeof payment>, decision = 'pay'): Promise<number> {
  const created = await api('POST', '/eps_payments', body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { payment_id, confirmation_url } = created.body.response as { payment_id: number; confirmation_url: string };
  const res = await fetch(confirmation_url, {
    method: 'POST',
    body: new URLSearchParams({ decision }),
    redirect: 'manual',
  });
  assert.equal(res.status, 303);
  return payment_id;
}

const report = async (agreementId: number) => {
  const answer = await control('GET', `/agreements/${agreementId}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
};

/** Saves a card with autopayment for an agreement by a test payment of A that is cancelled (no money moves). */
const saveCard = (agreementId: number) =>
  pay(
    payment(11, String(agreementId), 1, 'A', {
      save_payment_method: true,
      enable_autopayments: true,
      preferred_method: true,
      cancel_payment: true,
    }),
  );

const move = async (body: Record<string, unknown>) => {
  const answer = await control('POST', '/clock', body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as {
    from: string;
    now: string;
    events: { at: string; kind: string; agreement_id: number; trigger?: string; amount?: string }[];
  };
};

describe('sandbox reference: only the documented HTTP API, against the sandbox process', () => {
  before(async () => {
    url = await startProcess();
  });
  after(() => {
    child.kill('SIGTERM');
  });
  beforeEach(async () => {
    const reset = await control('POST', '/reset');
    assert.equal(reset.status, 200);
    assert.equal(reset.body.now, START);
  });

  it('starts from SANDBOX_START, frozen, with N = 1, the token lifetime of SANDBOX_TOKEN_TTL', async () => {
    assert.deepEqual((await control('GET', '/clock')).body, {
      now: START,
      frozen: true,
      moved_by_seconds: 0,
      autopayment_lead_days: 1,
    });
    assert.deepEqual((await control('GET', '/settings')).body, { autopayment_lead_days: 1, token_ttl_seconds: 600 });
  });

  it('the control API needs the Basic credentials or the control token; a billing token does not open it', async () => {
    assert.equal((await request('GET', '/sandbox/clock')).status, 401);
    assert.equal(
      (
        await request('GET', '/sandbox/clock', {
          authorization: `Basic ${Buffer.from('merchant:wrong').toString('base64')}`,
        })
      ).status,
      401,
    );
    assert.equal((await request('GET', '/sandbox/clock', { authorization: `Bearer ${await token()}` })).status, 401);
    assert.equal((await request('POST', '/sandbox/reset', { authorization: 'Bearer nope' })).status, 401);
    assert.equal((await request('GET', '/sandbox/clock', { authorization: `Bearer ${CONTROL_TOKEN}` })).status, 200);
  });

  it('finds the agreement by each of the ten lookup kinds with the seed values', async () => {
    const cases: Array<[number, string, number]> = [
      [1, 'demo', 1001],
      [4, 'Ivan Petrov', 1001],
      [5, 'AG-1001', 1001],
      [6, '1C-0001', 1001],
      [7, 'client@example.com', 1001],
      [8, '40817810099910004312', 1001],
      [10, '1', 1001],
      [11, '1001', 1001],
      [14, '501', 1001],
      [15, '7707083893', 1001],
      [1, 'other', 1002],
      [4, 'Anna Smirnova', 1002],
      [5, 'AG-1002', 1002],
      [6, '1C-0002', 1002],
      [7, 'other@example.com', 1002],
      [8, '40817810099910004313', 1002],
      [10, '2', 1002],
      [11, '1002', 1002],
      [15, '7728168971', 1002],
      [11, '1003', 1003],
    ];
    for (const [kind, value, agreementId] of cases) {
      const created = await api('POST', '/eps_payments', payment(kind, value));
      assert.equal(created.status, 201, `${kind} ${value}: ${JSON.stringify(created.body)}`);
      const id = created.body.response.payment_id as number;
      const found = (await report(agreementId)).payments.find((p: { payment_id: number }) => p.payment_id === id);
      assert.deepEqual(
        [found?.agreement_param_id, found?.agreement_param_value],
        [kind, value],
        `${kind} ${value} → ${agreementId}`,
      );
    }
    const missing = await api('POST', '/eps_payments', payment(5, 'AG-9999'));
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { code: 404, error: { message: 'agreement not found' } });
  });

  it('a paid payment raises the balance exactly; a declined one does not', async () => {
    const seeded = await report(1001);
    assert.deepEqual([seeded.balance, seeded.recommended_payment], ['0.00', '1140.00']);
    const paid = await pay(payment(5, 'AG-1001', 1500.5));
    await pay(payment(5, 'AG-1001', 99.99), 'decline');
    const after = await report(1001);
    assert.equal(after.balance, '1500.50');
    assert.equal(after.recommended_payment, '0.00');
    assert.deepEqual(after.ledger.at(-1), {
      entry_id: after.ledger.at(-1).entry_id,
      at: '2026-04-10 09:00:00',
      kind: 'payment',
      amount: '1500.50',
      balance_after: '1500.50',
      description: `Payment no. ${paid} through system C`,
      payment_id: paid,
    });
    assert.deepEqual(
      after.payments.map((p: { status: string; credited: boolean }) => [p.status, p.credited]),
      [
        ['succeeded', true],
        ['declined', false],
      ],
    );
  });

  it('moving the clock to the next period charges it, and the move answers what happened', async () => {
    await pay(payment(5, 'AG-1001', 1140));
    const jump = await move({ to: '2026-05-01T00:00:00Z' });
    assert.deepEqual([jump.from, jump.now], [START, '2026-05-01T00:00:00.000Z']);
    const charge = jump.events.find((e) => e.kind === 'charge' && e.agreement_id === 1001);
    assert.deepEqual([charge?.at, charge?.amount], ['2026-05-01 00:00:00', '1140.00']);
    const after = await report(1001);
    assert.equal(after.balance, '0.00');
    assert.deepEqual(after.ledger.filter((e: { kind: string }) => e.kind === 'charge').at(-1).amount, '-1140.00');
    assert.deepEqual(
      after.subscriptions.map((s: { state: string; current_period: unknown }) => [s.state, s.current_period]),
      [['active', { start: '2026-05-01 00:00:00', end: '2026-06-01 00:00:00' }]],
    );
  });

  it('autopayment trigger 1: N days before the next period, for the recommended payment; N set by PATCH /sandbox/settings', async () => {
    await pay(payment(5, 'AG-1001', 500));
    await saveCard(1001);
    assert.equal((await control('PATCH', '/settings', { autopayment_lead_days: 3 })).body.autopayment_lead_days, 3);
    const jump = await move({ to: '2026-04-28T00:00:00Z' });
    const autopayment = jump.events.find((e) => e.kind === 'autopayment');
    assert.deepEqual(
      [autopayment?.at, autopayment?.trigger, autopayment?.amount],
      ['2026-04-28 00:00:00', 'before_period', '640.00'],
    );
    const after = await report(1001);
    assert.deepEqual(
      after.autopayments.map((a: { trigger: string; amount: string }) => [a.trigger, a.amount]),
      [['before_period', '640.00']],
    );
    assert.deepEqual([after.balance, after.recommended_payment], ['1140.00', '0.00']);
    assert.equal(after.ledger.at(-1).trigger, 'before_period');
    assert.equal((await control('PATCH', '/settings', { autopayment_lead_days: 0 })).status, 400);
  });

  it('autopayment trigger 2: a subscription entering financial blocking is paid at once and unblocked', async () => {
    await move({ to: '2026-04-30T12:00:00Z' }); // past the lead time of May 1: trigger 1 will not fire
    await saveCard(1001);
    const jump = await move({ to: '2026-05-01T00:00:00Z' });
    assert.deepEqual(
      jump.events.filter((e) => e.agreement_id === 1001).map((e) => [e.kind, e.trigger ?? null, e.amount ?? null]),
      [
        ['blocked', null, null],
        ['autopayment', 'blocking', '1140.00'],
        ['charge', null, '1140.00'],
        ['unblocked', null, null],
      ],
    );
    const after = await report(1001);
    assert.deepEqual(
      after.autopayments.map((a: { trigger: string; amount: string }) => [a.trigger, a.amount]),
      [['blocking', '1140.00']],
    );
    assert.equal(after.subscriptions[0].state, 'active');
  });

  it('autopayment trigger 3: at minute 30 of the hour, for an agreement whose subscription awaits activation', async () => {
    const waiting = await report(1003);
    assert.equal(waiting.subscriptions[0].state, 'awaiting_activation');
    await saveCard(1003);
    const jump = await move({ advance: 'PT30M' });
    const events = jump.events.filter((e) => e.agreement_id === 1003);
    assert.deepEqual(
      events.map((e) => [e.at, e.kind, e.trigger ?? null]),
      [
        ['2026-04-10 09:30:00', 'autopayment', 'hourly'],
        ['2026-04-10 09:30:00', 'charge', null],
        ['2026-04-10 09:30:00', 'activated', null],
      ],
    );
    // The rest of the quarter, a little less at 09:30 than at 09:00: exactly what activation then charges.
    assert.equal(events[0]!.amount, events[1]!.amount);
    assert.ok(Number(events[0]!.amount) > 0 && Number(events[0]!.amount) < Number(waiting.recommended_payment));
    const after = await report(1003); // active now: what it lacks is the next quarter
    assert.deepEqual(
      [after.subscriptions[0].state, after.balance, after.recommended_payment],
      ['active', '0.00', '900.00'],
    );
  });

  it('a token stops working when the sandbox clock passes its expires_in', async () => {
    const bearer = await token();
    const tariffs = () => request('GET', '/api/rest/v1/tariffs', { authorization: `Bearer ${bearer}` });
    assert.equal((await tariffs()).status, 200);
    await move({ advance: 599 });
    assert.equal((await tariffs()).status, 200, 'one second left');
    await move({ advance: 1 });
    const expired = await tariffs();
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body, { code: 401, error: { message: 'the bearer token has expired' } });
  });

  it('injects a fault for the next K calls: 500, 429 with Retry-After, garbage, a reset connection, a slow answer', async () => {
    const body = payment(5, 'AG-1001');
    const bearer = await token();
    const send = () =>
      fetch(`${url}/api/rest/v1/eps_payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const set = await control('POST', '/faults', { target: 'eps_payments', status: 500, times: 2 });
    assert.deepEqual(set.body, { faults: { eps_payments: { status: 500, times: 2 } } });
    assert.deepEqual([(await send()).status, (await send()).status, (await send()).status], [500, 500, 201]);
    assert.deepEqual((await control('GET', '/faults')).body, { faults: {} }, 'used up');

    await control('POST', '/faults', { target: 'eps_payments', status: 429, retry_after: 7, times: 1 });
    const busy = await send();
    assert.deepEqual([busy.status, busy.headers.get('retry-after')], [429, '7']);

    await control('POST', '/faults', { target: 'eps_payments', garbage: '<html>502 Bad Gateway</html>', times: 1 });
    const garbage = await send();
    assert.deepEqual([garbage.status, await garbage.text()], [200, '<html>502 Bad Gateway</html>']);

    await control('POST', '/faults', { target: 'any', reset: true, times: 1 });
    await assert.rejects(send(), TypeError, 'the connection is closed without an answer');

    await control('POST', '/faults', { target: 'auth', delay_ms: 300, times: 1 });
    const started = Date.now();
    await token();
    assert.ok(Date.now() - started >= 290, 'slow');

    await control('POST', '/faults', { target: 'eps_payments', status: 503 });
    assert.equal((await send()).status, 503);
    assert.deepEqual((await control('DELETE', '/faults')).body, { faults: {} });
    assert.equal((await send()).status, 201);
    assert.equal((await control('POST', '/faults', { target: 'eps_payments', status: 500, garbage: 'x' })).status, 400);
  });

  it('freezes and unfreezes the clock', async () => {
    const running = await control('POST', '/clock/unfreeze');
    assert.equal(running.body.frozen, false);
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(Date.parse((await control('GET', '/clock')).body.now) > Date.parse(START), 'it runs');
    const frozen = await control('POST', '/clock/freeze');
    assert.equal(frozen.body.frozen, true);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal((await control('GET', '/clock')).body.now, frozen.body.now, 'it stands still');
  });

  it('reset brings back the seed, the start time and N, and keeps a token its remaining lifetime', async () => {
    await pay(payment(5, 'AG-1001', 1140));
    await control('PATCH', '/settings', { autopayment_lead_days: 5 });
    await move({ to: '2026-06-15T00:00:00Z' });
    const bearer = await token();
    await control('POST', '/faults', { target: 'auth', status: 500 });
    const reset = await control('POST', '/reset');
    assert.deepEqual(reset.body, { now: START, frozen: true, moved_by_seconds: 0, autopayment_lead_days: 1 });
    const seeded = await report(1001);
    assert.deepEqual(
      [seeded.balance, seeded.recommended_payment, seeded.payments, seeded.autopayments],
      ['0.00', '1140.00', [], []],
    );
    assert.deepEqual((await control('GET', '/faults')).body, { faults: {} });
    assert.equal((await request('GET', '/api/rest/v1/tariffs', { authorization: `Bearer ${bearer}` })).status, 200);
  });

  it('plays the billing, not this product: save_payment_method alone saves the method without autopayment; "true" is a boolean; cancel_payment alone is a test payment', async () => {
    await pay(payment(5, 'AG-1001', 10, 'A', { save_payment_method: true }));
    const current = await api('GET', '/payment_methods?status_list=[2]&agreement_id=1001');
    assert.deepEqual(
      current.body.response.payment_methods.map((m: { enable_auto_payments: boolean; status: number }) => [
        m.enable_auto_payments,
        m.status,
      ]),
      [[false, 2]],
    );
    assert.deepEqual((await report(1001)).autopayments, []);

    await pay(
      payment(5, 'AG-1002', 10, 'A', {
        save_payment_method: 'true',
        enable_autopayments: 'true',
        preferred_method: 'true',
      }),
    );
    const other = await api('GET', '/payment_methods?status_list=[2]&agreement_id=1002');
    assert.deepEqual(
      other.body.response.payment_methods.map((m: { enable_auto_payments: boolean }) => m.enable_auto_payments),
      [true],
    );

    await pay(payment(5, 'AG-1001', 25, 'A', { cancel_payment: true, preferred_method: true }));
    assert.equal((await report(1001)).balance, '10.00', 'a test payment is cancelled: no money moves');

    const refused = await api('POST', '/eps_payments', payment(5, 'AG-1001', 10, 'A', { enable_autopayments: true }));
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /^eps_params\.enable_autopayments: .*\(link_rule\)$/);
  });

  it('saving twice gives two cards by default; saving the same card again keeps one method', async () => {
    const save = { save_payment_method: true, enable_autopayments: true, preferred_method: true };
    const titles = async () =>
      (await api('GET', '/payment_methods?agreement_id=1001')).body.response.payment_methods.map(
        (m: { title: string; enable_auto_payments: boolean }) => [m.title, m.enable_auto_payments],
      );
    await pay(payment(5, 'AG-1001', 10, 'A', { save_payment_method: true }));
    await pay(payment(5, 'AG-1001', 10, 'A', save));
    assert.deepEqual(await titles(), [
      ['Visa •••• 4242', false],
      ['Mastercard •••• 4444', true],
    ]);
    const created = await api('POST', '/eps_payments', payment(5, 'AG-1001', 10, 'A', save));
    const res = await fetch(created.body.response.confirmation_url, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'pay', card: 'Visa •••• 4242' }),
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.deepEqual(
      await titles(),
      [
        ['Visa •••• 4242', true],
        ['Mastercard •••• 4444', true],
      ],
      'the same card: its method gets autopayment',
    );
  });
});
