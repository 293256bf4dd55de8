/**
 * The relay's token refresh against the billing sandbox, by moving the sandbox's clock (its control API) instead of
 * waiting: once the sandbox time passes the token's `expires_in`, the billing refuses it, and the relay must get a
 * new one and send the payment again — once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CREDENTIALS, epsCalls, paymentA, startStack, type Stack } from './harness.js';

const basic = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;

describe('relay → sandbox: a token expired by the sandbox clock', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ sandbox: { clock: { start: '2026-04-10T09:00:00Z', frozen: true } } });
  });
  after(() => stack.close());

  const moveClock = async (seconds: number) => {
    const res = await fetch(`${stack.sandbox.url}/sandbox/clock`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ advance: seconds }),
    });
    assert.equal(res.status, 200);
  };
  const refusedTokens = () => stack.sandbox.calls.filter((c) => c.path === '/eps_payments' && c.status === 401).length;

  it('is used while the sandbox time is within expires_in, then refreshed once and the payment sent again', async () => {
    assert.equal((await stack.post(paymentA())).status, 201);
    assert.equal(stack.sandbox.counts.auth, 1);

    await moveClock(599);
    assert.equal((await stack.post(paymentA())).status, 201);
    assert.equal(stack.sandbox.counts.auth, 1, 'one second of its life left: the same token');
    assert.equal(refusedTokens(), 0);

    const sent = epsCalls(stack).length;
    await moveClock(1);
    const res = await stack.post(paymentA());
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(refusedTokens(), 1, 'the billing refused the expired token once');
    assert.equal(stack.sandbox.counts.auth, 2, 'one new token');
    assert.equal(epsCalls(stack).length, sent + 2, 'the refused call and its one retry');
    const [refused, retried] = stack.sandbox.calls.filter((c) => c.path === '/eps_payments').slice(-2);
    assert.notEqual(refused!.authorization, retried!.authorization, 'sent again with the new token');

    assert.equal((await stack.post(paymentA())).status, 201);
    assert.equal(stack.sandbox.counts.auth, 2, 'the new token serves on');
  });
});
