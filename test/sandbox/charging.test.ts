import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  INTERNET,
  STATIC_IP,
  balance,
  errorMessage,
  ledger,
  newAgreement,
  startFrozen,
  stateOf,
  subscribe,
  topUp,
  type Client,
} from './helpers.js';

/** Runs `body` on a fresh sandbox whose clock stands still at `at`, and closes it. */
async function on(at: string | undefined, body: (client: Client) => Promise<void>): Promise<void> {
  const client = await startFrozen(at);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

const now = (client: Client) => client.sandbox.clock.now().getTime();
const recommended = (client: Client, agreementId: number) =>
  client.sandbox.billing.recommendedPayment(agreementId, now(client));
const journalKinds = (client: Client, subscriptionId: number) =>
  client.sandbox.store.journal
    .filter((e) => e.subscription_id === subscriptionId && e.kind !== 'version')
    .map((e) => [e.at, e.kind]);

describe('sandbox billing: versions of a subscription', () => {
  it('a PATCH from the 15th changes the charges from the 15th and not before', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 5000);
      const id = await subscribe(client, agreement, {
        services: [INTERNET],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      assert.equal(stateOf(client, id), 'scheduled');
      const patch = await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-15 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 1300 } }],
      });
      assert.deepEqual(patch.body, { code: 200, response: { subscription_id: id, version: 2 } });

      client.sandbox.advance('2026-05-14T23:59:59Z');
      assert.deepEqual(
        ledger(client, agreement),
        [['2026-05-01 00:00:00', 'charge', '-990.00', 1]],
        'May is charged in advance with version 1',
      );

      client.sandbox.advance(1000);
      // May has 31 days; from the 15th on, 17 of them cost 1300.00 instead of 990.00: 310.00 × 17 / 31 = 170.00.
      assert.deepEqual(ledger(client, agreement), [
        ['2026-05-01 00:00:00', 'charge', '-990.00', 1],
        ['2026-05-15 00:00:00', 'recalculation', '-170.00', 2],
      ]);
      client.sandbox.advance('2026-06-01T00:00:00Z');
      assert.deepEqual(ledger(client, agreement).at(-1), ['2026-06-01 00:00:00', 'charge', '-1300.00', 2]);
      assert.equal(balance(client, agreement), '2540.00');
      const versions = client.sandbox.store.subscriptions.get(id)!.versions;
      assert.deepEqual(
        versions.map((v) => [v.version, v.starts_at]),
        [
          [1, '2026-05-01 00:00:00'],
          [2, '2026-05-15 00:00:00'],
        ],
        'the history is kept',
      );
    }));

  it('a change back-dated to the 15th, made on the 20th, charges the same difference at once', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 5000);
      const id = await subscribe(client, agreement, {
        services: [INTERNET],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      client.sandbox.advance('2026-05-20T00:00:00Z');
      const patch = await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-15 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 1300 } }],
      });
      assert.equal(patch.status, 200);
      assert.deepEqual(ledger(client, agreement), [
        ['2026-05-01 00:00:00', 'charge', '-990.00', 1],
        ['2026-05-20 00:00:00', 'recalculation', '-170.00', 2],
      ]);
    }));

  it('a cheaper version from the 15th credits the rest of the period', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 990);
      const id = await subscribe(client, agreement, {
        services: [INTERNET],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-15 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 680 } }],
      });
      client.sandbox.advance('2026-05-20T00:00:00Z');
      assert.deepEqual(ledger(client, agreement), [
        ['2026-05-01 00:00:00', 'charge', '-990.00', 1],
        ['2026-05-15 00:00:00', 'recalculation', '170.00', 2],
      ]);
      assert.equal(balance(client, agreement), '170.00');
    }));

  it('a change of the period length ends the current period at the change and starts a calendar period there', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 3000);
      // Tariff 2: storage 250.00 a month; period 2 is one month, period 3 three months.
      const id = await subscribe(client, agreement, {
        tariff_id: 2,
        period_id: 2,
        services: [{ tariff_service_id: 21, multiplicator: 1 }],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      const patch = await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-16 00:00:00',
        period_id: 3,
      });
      assert.equal(patch.status, 200);
      client.sandbox.advance('2026-06-01T00:00:00Z');
      // May 16–31 of the month are credited (250.00 × 16/31); the quarter April–June is charged from May 16: 750.00 × 46/91.
      assert.deepEqual(ledger(client, agreement), [
        ['2026-05-01 00:00:00', 'charge', '-250.00', 1],
        ['2026-05-16 00:00:00', 'recalculation', '129.03', 2],
        ['2026-05-16 00:00:00', 'charge', '-379.12', 2],
      ]);
      const billing = client.sandbox.store.subscriptions.get(id)!.billing;
      assert.equal(new Date(billing.next_start).toISOString(), '2026-07-01T00:00:00.000Z');
      assert.equal(billing.period?.months, 3);

      const late = await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-10 00:00:00',
        period_id: 2,
      });
      assert.equal(late.status, 400);
      assert.match(errorMessage(late), /^change_start_date must be later than the start of the current version/);
      const past = await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-31 00:00:00',
        period_id: 2,
      });
      assert.equal(past.status, 400);
      assert.match(errorMessage(past), /^change_start_date: a change of the period length cannot start in the past/);
    }));

  it('quantities are exact decimals: 1.5 static IPs cost 225.00; more than six decimals are refused', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 1000);
      await subscribe(client, agreement, {
        services: [{ ...STATIC_IP, multiplicator: 1.5 }],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      client.sandbox.advance('2026-05-01T00:00:00Z');
      assert.deepEqual(ledger(client, agreement), [['2026-05-01 00:00:00', 'charge', '-225.00', 1]]);
      const refused = await client.api('POST', '/subscriptions', {
        agreement_id: agreement,
        tariff_id: 1,
        period_id: 1,
        services: [{ ...STATIC_IP, multiplicator: 1.0000001 }],
      });
      assert.equal(refused.status, 400);
      assert.match(
        errorMessage(refused),
        /^services\[0\]\.multiplicator: expected a quantity with at most six decimals/,
      );
    }));
});

describe('sandbox billing: charging, blocking and activation', () => {
  it('charges each period in advance, blocks when the balance runs out, and a payment unblocks pro rata', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 2500);
      const id = await subscribe(client, agreement, { subscription_start_date: '2026-04-10 09:00:00' });
      // The first period is the rest of April: 20 days 15 hours of 30 days at 1140.00.
      assert.deepEqual(ledger(client, agreement), [['2026-04-10 09:00:00', 'charge', '-783.75', 1]]);
      assert.equal(stateOf(client, id), 'active');

      client.sandbox.advance('2026-07-16T00:00:00Z');
      assert.deepEqual(ledger(client, agreement), [
        ['2026-04-10 09:00:00', 'charge', '-783.75', 1],
        ['2026-05-01 00:00:00', 'charge', '-1140.00', 1],
      ]);
      assert.equal(balance(client, agreement), '576.25');
      assert.equal(stateOf(client, id), 'blocked');
      assert.deepEqual(journalKinds(client, id), [
        ['2026-04-10 09:00:00', 'charge'],
        ['2026-05-01 00:00:00', 'charge'],
        ['2026-06-01 00:00:00', 'blocked'],
        ['2026-07-01 00:00:00', 'not_charged'],
      ]);
      // Unblocking now costs the rest of July (16 of 31 days: 588.39); the balance has 576.25.
      assert.equal(recommended(client, agreement), 1214n);
      await topUp(client, agreement, 10);
      assert.equal(stateOf(client, id), 'blocked', 'a payment that does not cover the debt unblocks nothing');
      await topUp(client, agreement, 2.14);
      assert.equal(stateOf(client, id), 'active');
      assert.deepEqual(ledger(client, agreement).at(-1), ['2026-07-16 00:00:00', 'charge', '-588.39', 1]);
      assert.equal(balance(client, agreement), '0.00');
      assert.equal(recommended(client, agreement), 114000n, 'then the next period');

      client.sandbox.advance('P1M');
      assert.equal(stateOf(client, id), 'blocked');
      assert.equal(client.sandbox.store.subscriptions.get(id)!.billing.since, '2026-08-01 00:00:00');
    }));

  it('a subscription that starts without funds awaits activation; a payment that covers its period activates it', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      const id = await subscribe(client, agreement, { subscription_start_date: '2026-04-10 09:00:00' });
      assert.equal(stateOf(client, id), 'awaiting_activation');
      assert.deepEqual(ledger(client, agreement), []);
      assert.equal(recommended(client, agreement), 78375n);
      await topUp(client, agreement, 500);
      assert.equal(stateOf(client, id), 'awaiting_activation');
      await topUp(client, agreement, 283.75);
      assert.equal(stateOf(client, id), 'active');
      assert.deepEqual(ledger(client, agreement), [['2026-04-10 09:00:00', 'charge', '-783.75', 1]]);
      assert.deepEqual(journalKinds(client, id), [
        ['2026-04-10 09:00:00', 'awaiting_activation'],
        ['2026-04-10 09:00:00', 'charge'],
        ['2026-04-10 09:00:00', 'activated'],
      ]);
      assert.equal(client.sandbox.store.subscriptions.get(id)!.billing.since, '2026-04-10 09:00:00');
    }));

  it('only money arriving wakes a waiting subscription, not its period getting cheaper; a credit from a recalculation counts', () =>
    on(undefined, async (client) => {
      const agreement = await newAgreement(client);
      await topUp(client, agreement, 500);
      const waiting = await subscribe(client, agreement, { subscription_start_date: '2026-04-10 09:00:00' });
      client.sandbox.advance('2026-04-25T00:00:00Z');
      assert.equal(
        stateOf(client, waiting),
        'awaiting_activation',
        'the rest of April (228.00) is now within 500.00, but no money arrived',
      );
      await topUp(client, agreement, 0.01);
      assert.equal(stateOf(client, waiting), 'active');
      assert.deepEqual(ledger(client, agreement), [['2026-04-25 00:00:00', 'charge', '-228.00', 1]]);

      const other = await newAgreement(client);
      await topUp(client, other, 990);
      const internet = await subscribe(client, other, {
        services: [INTERNET],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      const ip = await subscribe(client, other, {
        services: [STATIC_IP],
        subscription_start_date: '2026-05-01 00:00:00',
      });
      client.sandbox.advance('2026-05-20T00:00:00Z');
      assert.deepEqual([stateOf(client, internet), stateOf(client, ip)], ['active', 'awaiting_activation']);
      await client.api('PATCH', `/subscriptions/${internet}`, {
        change_start_date: '2026-05-15 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 680 } }],
      });
      assert.equal(stateOf(client, ip), 'active', 'the credit of 170.00 pays the rest of May for the IP (58.06)');
      assert.deepEqual(ledger(client, other), [
        ['2026-05-01 00:00:00', 'charge', '-990.00', 1],
        ['2026-05-20 00:00:00', 'recalculation', '170.00', 2],
        ['2026-05-20 00:00:00', 'charge', '-58.06', 1],
      ]);
    }));

  it('the recommended payment covers the next period: 1140.00 for the seeded AG-1001, 0 once the balance covers it or with nothing to pay', () =>
    on(undefined, async (client) => {
      assert.equal(balance(client, 1001), '0.00');
      assert.equal(recommended(client, 1001), 114000n);
      assert.deepEqual(ledger(client, 1001, ['transfer', 'charge']), [
        ['2026-03-01 00:00:00', 'transfer', '2280.00', null],
        ['2026-03-01 00:00:00', 'charge', '-1140.00', 1],
        ['2026-04-01 00:00:00', 'charge', '-1140.00', 1],
      ]);
      await topUp(client, 1001, 1000);
      assert.equal(recommended(client, 1001), 14000n);
      await topUp(client, 1001, 140);
      assert.equal(recommended(client, 1001), 0n);
      assert.equal(recommended(client, 1002), 0n, 'no subscription, nothing owed');
      assert.equal(stateOf(client, 2), 'awaiting_activation', 'the seeded cloud backup of 1003 waits');
    }));
});
