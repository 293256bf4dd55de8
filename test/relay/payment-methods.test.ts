import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, UnsecuredJWT } from 'jose';
import { createClientSession } from '../../src/relay/session/client-session.js';
import { CREDENTIALS, SHOP, paymentA, startStack, type Stack } from './harness.js';

const SECRET = 'a-session-secret-of-at-least-32-bytes-for-tests';

/** Pays with A and saves the method, through the sandbox's hosted page, for one agreement number. */
async function saveMethod(stack: Stack, agreementNumber: string): Promise<number> {
  const res = await stack.post({
    ...paymentA({ save_payment_method: true, enable_autopayments: true, preferred_method: true }),
    agreement_param_value: agreementNumber,
  });
  assert.equal(res.status, 201);
  const { payment } = (await res.json()) as { payment: { payment_id: number } };
  const page = await fetch(`${stack.sandbox.url}/pay/${payment.payment_id}`, {
    method: 'POST',
    body: new URLSearchParams({ decision: 'pay' }),
    redirect: 'manual',
  });
  assert.equal(page.status, 303);
  const method = [...stack.sandbox.store.paymentMethods.values()].at(-1)!;
  return method.payment_method_id;
}

describe('relay: client sessions and saved payment methods', () => {
  let stack: Stack;
  let own: number;
  let foreign: number;
  before(async () => {
    stack = await startStack({ env: { SESSION_SECRET: SECRET } });
    own = await saveMethod(stack, 'AG-1001');
    foreign = await saveMethod(stack, 'AG-1002');
  });
  after(() => stack.close());

  const call = (path: string, session: string | undefined, init: RequestInit = {}) =>
    fetch(`${stack.relay.url}${path}`, {
      ...init,
      headers: { origin: SHOP, ...(session !== undefined && { authorization: `Bearer ${session}` }) },
    });
  const deleteCalls = () => stack.sandbox.calls.filter((c) => c.method === 'DELETE').length;

  it('lists the current methods of the session’s agreement only', async () => {
    const session = await createClientSession({ agreementId: 1001 }, SECRET);
    const res = await call('/payment-methods', session);
    assert.equal(res.status, 200);
    const { payment_methods } = (await res.json()) as {
      payment_methods: { id: number; autopayment: boolean; title?: string }[];
    };
    assert.deepEqual(
      payment_methods.map((m) => m.id),
      [own],
    );
    assert.equal(payment_methods[0]!.autopayment, true);
    assert.equal(typeof payment_methods[0]!.title, 'string');
    const session1002 = await createClientSession({ agreementId: 1002 }, SECRET);
    const other = (await (await call('/payment-methods', session1002)).json()) as { payment_methods: { id: number }[] };
    assert.deepEqual(
      other.payment_methods.map((m) => m.id),
      [foreign],
    );
    const agreement = (await (await call('/session', session)).json()) as { agreement_id: number };
    assert.deepEqual(agreement, { agreement_id: 1001 });
  });

  it('no session, a forged, unsigned, foreign-keyed or expired one is a 401', async () => {
    const good = await createClientSession({ agreementId: 1001 }, SECRET);
    const [header, payload, signature] = good.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), agr: 1002 }),
    ).toString('base64url');
    const claims = { agr: 1001 };
    const sessions: [string, string | undefined][] = [
      ['missing', undefined],
      ['not a JWT', 'hello'],
      ['forged payload', `${header}.${forgedPayload}.${signature}`],
      ['forged signature', `${header}.${payload}.${signature!.slice(0, -4)}AAAA`],
      [
        'alg none',
        new UnsecuredJWT(claims)
          .setIssuer('billing-pay-merchant')
          .setAudience('billing-pay-relay')
          .setExpirationTime('5m')
          .encode(),
      ],
      ['wrong secret', await createClientSession({ agreementId: 1001 }, 'another-secret-that-is-also-32-bytes-long')],
      [
        'expired',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer('billing-pay-merchant')
          .setAudience('billing-pay-relay')
          .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
          .sign(new TextEncoder().encode(SECRET)),
      ],
      [
        'HS512 with the right secret',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS512' })
          .setIssuer('billing-pay-merchant')
          .setAudience('billing-pay-relay')
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(SECRET)),
      ],
      [
        'no expiry',
        await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer('billing-pay-merchant')
          .setAudience('billing-pay-relay')
          .sign(new TextEncoder().encode(SECRET)),
      ],
    ];
    for (const [name, session] of sessions) {
      for (const [path, method] of [
        ['/payment-methods', 'GET'],
        [`/payment-methods/${own}`, 'DELETE'],
      ] as const) {
        const res = await call(path, session, { method });
        assert.equal(res.status, 401, `${name} ${method}`);
        const { error } = (await res.json()) as { error: { code: string; message: string } };
        assert.equal(error.code, 'session_invalid', name);
      }
    }
    assert.equal(deleteCalls(), 0);
  });

  it('a session for one agreement cannot disable another agreement’s method: 404, and the billing is not asked', async () => {
    const session = await createClientSession({ agreementId: 1001 }, SECRET);
    const res = await call(`/payment-methods/${foreign}`, session, { method: 'DELETE' });
    assert.equal(res.status, 404);
    assert.equal(deleteCalls(), 0);
    assert.equal(stack.sandbox.store.paymentMethods.get(foreign)!.enable_auto_payments, true);
  });

  it('a DELETE from a foreign page is refused', async () => {
    const session = await createClientSession({ agreementId: 1001 }, SECRET);
    const res = await fetch(`${stack.relay.url}/payment-methods/${own}`, {
      method: 'DELETE',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${session}` },
    });
    assert.equal(res.status, 403);
    assert.equal(deleteCalls(), 0);
  });

  it('disables the client’s own method; the list and the billing both show it', async () => {
    const session = await createClientSession({ agreementId: 1001 }, SECRET);
    const res = await call(`/payment-methods/${own}`, session, { method: 'DELETE' });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { payment_methods: [] });
    assert.equal(deleteCalls(), 1);
    const method = stack.sandbox.store.paymentMethods.get(own)!;
    assert.equal(method.enable_auto_payments, false);
  });

  it('createClientSession refuses a short secret and a bad agreement', async () => {
    await assert.rejects(createClientSession({ agreementId: 1001 }, 'short'), /32 bytes/);
    await assert.rejects(createClientSession({ agreementId: -1 }, SECRET), /agreementId/);
  });
});

describe('relay: saved methods when the billing does not scope the list by agreement', () => {
  // The sandbox scopes `GET /payment_methods` by `agreement_id` only: a relay that names the agreement another way
  // (PAYMENT_METHODS_AGREEMENT_PARAM) gets every agreement's methods back, and only its own filter keeps them apart.
  let stack: Stack;
  let own: number;
  let foreign: number;
  before(async () => {
    stack = await startStack({ env: { SESSION_SECRET: SECRET, PAYMENT_METHODS_AGREEMENT_PARAM: 'contract_id' } });
    own = await saveMethod(stack, 'AG-1001');
    foreign = await saveMethod(stack, 'AG-1002');
  });
  after(() => stack.close());

  const call = async (path: string, agreementId: number, init: RequestInit = {}) =>
    fetch(`${stack.relay.url}${path}`, {
      ...init,
      headers: { origin: SHOP, authorization: `Bearer ${await createClientSession({ agreementId }, SECRET)}` },
    });
  const listCalls = () => stack.sandbox.calls.filter((c) => c.method === 'GET' && c.path === '/payment_methods');

  it('PAYMENT_METHODS_AGREEMENT_PARAM names the query parameter the billing receives', async () => {
    const before = listCalls().length;
    assert.equal((await call('/payment-methods', 1001)).status, 200);
    assert.equal(listCalls().length, before + 1);
    const query = new URLSearchParams(listCalls().at(-1)!.query);
    assert.equal(query.get('contract_id'), '1001');
    assert.equal(query.has('agreement_id'), false);
    assert.equal(query.get('status_list'), '2');
  });

  it('lists only the session’s agreement’s methods, although the billing answered with others too', async () => {
    // What the billing answers to the relay's query: both agreements' methods.
    const auth = await fetch(`${stack.sandbox.baseUrl}/auth`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`,
      },
    });
    const { token } = ((await auth.json()) as { response: { token: string } }).response;
    const billing = await fetch(`${stack.sandbox.baseUrl}/payment_methods?status_list=2&contract_id=1001`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const unscoped = ((await billing.json()) as { response: { payment_methods: { payment_method_id: number }[] } })
      .response.payment_methods;
    assert.deepEqual(unscoped.map((m) => m.payment_method_id).sort(), [own, foreign].sort());

    for (const [agreementId, expected] of [
      [1001, own],
      [1002, foreign],
    ] as const) {
      const res = await call('/payment-methods', agreementId);
      assert.equal(res.status, 200);
      const { payment_methods } = (await res.json()) as { payment_methods: { id: number }[] };
      assert.deepEqual(
        payment_methods.map((m) => m.id),
        [expected],
        `agreement ${agreementId}`,
      );
    }
  });

  it('cannot disable another agreement’s method: 404, and the billing is not asked to delete anything', async () => {
    const res = await call(`/payment-methods/${foreign}`, 1001, { method: 'DELETE' });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    assert.equal(stack.sandbox.calls.filter((c) => c.method === 'DELETE').length, 0);
    assert.equal(stack.sandbox.store.paymentMethods.get(foreign)!.enable_auto_payments, true);
  });
});
