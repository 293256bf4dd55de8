import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  INTERNET,
  autopayments,
  balance,
  moveClock,
  newAgreement,
  saveMethod,
  startFrozen,
  stateOf,
  subscribe,
  topUp,
  type Client,
} from './helpers.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';

/** On a fresh sandbox at 2026-04-10 09:00 (frozen): an agreement with "Office internet" (1140.00 a month) from then. */
async function arrange(
  funds: number,
  options: SandboxOptions = {},
): Promise<{ client: Client; agreement: number; subscription: number }> {
  const client = await startFrozen(undefined, options);
  const agreement = await newAgreement(client);
  if (funds) await topUp(client, agreement, funds);
  // The rest of April costs 783.75 (20 days 15 hours of 30).
  const subscription = await subscribe(client, agreement, { subscription_start_date: '2026-04-10 09:00:00' });
  return { client, agreement, subscription };
}

/** The events of one agreement (the seeded AG-1001 has its own life on the same clock). */
const of = <E extends { agreement_id: number }>(agreement: number, events: readonly E[]) =>
  events.filter((e) => e.agreement_id === agreement);
const kinds = (agreement: number, events: ReadonlyArray<{ kind: string; agreement_id: number }>) =>
  of(agreement, events).map((e) => e.kind);

describe('sandbox autopayments', () => {
  it('trigger 1: one day before a new period, once per period, for the recommended payment', async () => {
    const { client, agreement } = await arrange(783.75);
    try {
      assert.equal(balance(client, agreement), '0.00');
      const method = await saveMethod(client, agreement);
      client.sandbox.advance('2026-04-29T23:59:59Z');
      assert.deepEqual(autopayments(client, agreement), []);

      const jump = await moveClock(client, { advance: 1 });
      assert.equal(jump.now, '2026-04-30T00:00:00.000Z');
      assert.deepEqual(
        of(agreement, jump.events).map((e) => [e.at, e.kind, e.trigger, e.amount, e.payment_method_id]),
        [['2026-04-30 00:00:00', 'autopayment', 'before_period', '1140.00', method]],
      );
      assert.equal(balance(client, agreement), '1140.00');

      const renewal = await moveClock(client, { to: '2026-05-01T00:00:00Z' });
      assert.deepEqual(kinds(agreement, renewal.events), ['charge']);
      assert.equal(balance(client, agreement), '0.00');

      client.sandbox.advance('2026-05-31T12:00:00Z');
      assert.deepEqual(autopayments(client, agreement), [
        ['2026-04-30 00:00:00', 'before_period', '1140.00', method],
        ['2026-05-31 00:00:00', 'before_period', '1140.00', method],
      ]);
    } finally {
      await client.close();
    }
  });

  it('trigger 1 charges nothing when the recommended payment is 0; N is an option (3 days here)', async () => {
    const { client, agreement } = await arrange(783.75 + 1140, { autopaymentLeadDays: 3 });
    try {
      const method = await saveMethod(client, agreement);
      const jump = client.sandbox.advance('2026-05-01T00:00:00Z');
      assert.deepEqual(autopayments(client, agreement), []);
      assert.deepEqual(
        of(agreement, jump.events).map((e) => [e.at, e.kind, e.trigger, e.payment_method_id]),
        [
          ['2026-04-28 00:00:00', 'autopayment_skipped', 'before_period', method],
          ['2026-05-01 00:00:00', 'charge', undefined, undefined],
        ],
      );
      assert.equal(balance(client, agreement), '0.00');

      client.sandbox.advance('2026-05-29T00:00:00Z');
      assert.deepEqual(autopayments(client, agreement), [['2026-05-29 00:00:00', 'before_period', '1140.00', method]]);
    } finally {
      await client.close();
    }
  });

  it('trigger 2: a subscription that enters financial blocking is paid at once, then unblocked, once', async () => {
    const { client, agreement, subscription } = await arrange(783.75);
    try {
      client.sandbox.advance('2026-04-30T12:00:00Z');
      // Saved after the day-before check: only the blocking can fire.
      const method = await saveMethod(client, agreement);
      const jump = await moveClock(client, { to: '2026-05-01T06:00:00Z' });
      assert.deepEqual(
        of(agreement, jump.events).map((e) => [e.at, e.kind, e.trigger ?? null, e.amount ?? null]),
        [
          ['2026-05-01 00:00:00', 'blocked', null, null],
          ['2026-05-01 00:00:00', 'autopayment', 'blocking', '1140.00'],
          ['2026-05-01 00:00:00', 'charge', null, '1140.00'],
          ['2026-05-01 00:00:00', 'unblocked', null, null],
        ],
      );
      assert.deepEqual(autopayments(client, agreement), [['2026-05-01 00:00:00', 'blocking', '1140.00', method]]);
      assert.equal(stateOf(client, subscription), 'active');
      assert.equal(balance(client, agreement), '0.00');
    } finally {
      await client.close();
    }
  });

  it('trigger 3: at minute 30 of each hour for a subscription awaiting activation, once it is paid no more', async () => {
    const { client, agreement, subscription } = await arrange(0);
    try {
      assert.equal(stateOf(client, subscription), 'awaiting_activation');
      const method = await saveMethod(client, agreement);
      client.sandbox.advance('PT29M59S');
      assert.deepEqual(autopayments(client, agreement), []);
      const jump = client.sandbox.advance('PT3H');
      // At 09:30 the rest of April is 20 days 14.5 hours: 782.96.
      assert.deepEqual(autopayments(client, agreement), [['2026-04-10 09:30:00', 'hourly', '782.96', method]]);
      assert.deepEqual(kinds(agreement, jump.events), ['autopayment', 'charge', 'activated']);
      assert.equal(stateOf(client, subscription), 'active');
      assert.equal(balance(client, agreement), '0.00');
    } finally {
      await client.close();
    }
  });

  it('trigger 3: a negative balance (a back-dated price rise) is paid at the next minute 30, up to the next period', async () => {
    const { client, agreement } = await arrange(783.75);
    try {
      const subscription = client.sandbox.store.subscriptionsOf(agreement)[0]!.subscription_id;
      client.sandbox.advance('2026-04-20T00:00:00Z');
      const patch = await client.api('PATCH', `/subscriptions/${subscription}`, {
        change_start_date: '2026-04-15 00:00:00',
        services: [
          { ...INTERNET, modifier: { new_price: 1300 } },
          { tariff_service_id: 12, multiplicator: 1 },
        ],
      });
      assert.equal(patch.status, 200);
      assert.equal(balance(client, agreement), '-165.33');
      const method = await saveMethod(client, agreement);
      client.sandbox.advance('PT3H');
      // The next period costs 1450.00 and the balance lacks 165.33.
      assert.deepEqual(autopayments(client, agreement), [['2026-04-20 00:30:00', 'hourly', '1615.33', method]]);
      assert.equal(balance(client, agreement), '1450.00');
    } finally {
      await client.close();
    }
  });

  it('a method disabled with DELETE /payment_methods/{id} is never charged again', async () => {
    const { client, agreement, subscription } = await arrange(783.75);
    try {
      const method = await saveMethod(client, agreement);
      const deleted = await client.api('DELETE', `/payment_methods/${method}`);
      assert.equal(deleted.status, 200);
      const jump = client.sandbox.advance('P2M');
      assert.deepEqual(autopayments(client, agreement), []);
      assert.ok(
        !of(agreement, jump.events).some((e) => e.kind.startsWith('autopayment')),
        'no trigger even looks at a disabled method',
      );
      assert.equal(stateOf(client, subscription), 'blocked');
      assert.equal(client.sandbox.store.subscriptions.get(subscription)!.billing.since, '2026-05-01 00:00:00');
    } finally {
      await client.close();
    }
  });

  it('with several methods the latest saved one is charged; other agreements are never touched', async () => {
    const { client, agreement } = await arrange(783.75);
    try {
      await saveMethod(client, agreement);
      const latest = await saveMethod(client, agreement);
      const other = await newAgreement(client);
      await topUp(client, other, 100);
      await saveMethod(client, other);
      client.sandbox.advance('2026-04-30T00:00:00Z');
      assert.deepEqual(autopayments(client, agreement), [['2026-04-30 00:00:00', 'before_period', '1140.00', latest]]);
      assert.deepEqual(autopayments(client, other), []);
      assert.equal(balance(client, other), '100.00');
    } finally {
      await client.close();
    }
  });
});
