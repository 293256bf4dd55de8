/**
 * The demo data, so the demo and the tests work at once:
 * - client "Demo LLC" with agreement 1001 "AG-1001" (invoice 501 of 1140.00) and a second, offer agreement 1003;
 *   client "Second Client LLC" with agreement 1002 "AG-1002" and no subscription;
 * - tariff 1 "Business Internet" (monthly) and tariff 2 "Cloud Backup" (monthly or quarterly);
 * - agreement 1001: "Office internet" on tariff 1 (1140.00 a month) since the 1st of the previous month, paid by a
 *   bank transfer of two months: the history shows its charges, the balance is 0.00 and the recommended payment is
 *   the next month, 1140.00;
 * - agreement 1003: "Cloud backup" on tariff 2, quarterly, since the 1st of this month, never paid: awaiting
 *   activation.
 * The history (the subscriptions' creation too) is dated from the 1st of the previous month, by the sandbox clock.
 */
import { addMonths, periodContaining, timestamp } from './calendar.js';
import type { SandboxStore } from './store.js';

/** Where the seeded history begins: the 1st of the month before `now`. */
export function seedStart(now: number): number {
  return addMonths(periodContaining(now, 1).start, -1);
}

/** Adds the clients, agreements, the invoice and the tariffs to an empty store. */
export function seedRecords(store: SandboxStore): void {
  const demo = store.addUser({
    type: 1,
    organization: 'Demo LLC',
    email: 'client@example.com',
    login: 'demo',
    full_name: 'Ivan Petrov',
    taxpayer_number: '7707083893',
  });
  const other = store.addUser({
    type: 1,
    organization: 'Second Client LLC',
    email: 'other@example.com',
    login: 'other',
    full_name: 'Anna Smirnova',
    taxpayer_number: '7728168971',
  });
  const main = store.addAgreement({
    user_id: demo.user_id,
    is_offer: false,
    agreement_number: 'AG-1001',
    create_date: '2024-01-15',
    accounting_code: '1C-0001',
    account_number: '40817810099910004312',
  });
  store.addAgreement({
    user_id: other.user_id,
    is_offer: false,
    agreement_number: 'AG-1002',
    create_date: '2024-02-01',
    accounting_code: '1C-0002',
    account_number: '40817810099910004313',
  });
  // A second agreement of the demo client (an offer agreement, no number): client-level lookups still pick 1001.
  store.addAgreement({ user_id: demo.user_id, is_offer: true, create_date: '2024-03-01' });
  store.addInvoice(main.agreement_id, 114000n);
  store.addTariff({
    tariff_id: 1,
    name: 'Business Internet',
    periods: [{ period_id: 1, name: '1 month', months: 1 }],
    services: [
      { tariff_service_id: 11, name: 'Internet 100 Mbit/s', price: 99000n },
      { tariff_service_id: 12, name: 'Static IP address', price: 15000n },
    ],
  });
  store.addTariff({
    tariff_id: 2,
    name: 'Cloud Backup',
    periods: [
      { period_id: 2, name: '1 month', months: 1 },
      { period_id: 3, name: '3 months', months: 3 },
    ],
    services: [
      { tariff_service_id: 21, name: 'Backup storage, 100 GB', price: 25000n },
      { tariff_service_id: 22, name: 'Daily snapshot', price: 5000n },
    ],
  });
}

/** The seeded subscriptions and the transfer that paid 1001's first two months, from `since` on. */
export function seedSubscriptions(store: SandboxStore, since: number): void {
  const office = store.addSubscription({
    agreement_id: 1001,
    tariff_id: 1,
    period_id: 1,
    description: 'Office internet',
    starts_at: timestamp(since),
    services: [
      { tariff_service_id: 11, multiplicator: 1 },
      { tariff_service_id: 12, multiplicator: 1 },
    ],
  });
  store.post({
    agreement_id: 1001,
    at: timestamp(since),
    kind: 'transfer',
    amount: 228000n,
    description: 'Bank transfer (seed data)',
  });
  const backup = store.addSubscription({
    agreement_id: 1003,
    tariff_id: 2,
    period_id: 3,
    description: 'Cloud backup',
    starts_at: timestamp(addMonths(since, 1)),
    services: [
      { tariff_service_id: 21, multiplicator: 1 },
      { tariff_service_id: 22, multiplicator: 1 },
    ],
  });
  // The seeded history begins at `since`: the subscriptions were entered then too, not when the sandbox started.
  for (const subscription of [office, backup]) subscription.versions[0]!.created_at = timestamp(since);
}
