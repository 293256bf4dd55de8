import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, payment, start, type Client } from './helpers.js';

describe('sandbox: users, agreements, subscriptions, tariffs', () => {
  let client: Client;
  before(async () => {
    client = await start();
  });
  after(() => client.close());

  const store = () => client.sandbox.store;

  it('POST /users answers 201 {user_id} and the client can then be found by its e-mail once it has an agreement', async () => {
    const user = await client.api('POST', '/users', {
      type: 1,
      organization: 'Horns & Hooves LLC',
      email: 'hh@example.com',
      login: 'hh',
    });
    assert.equal(user.status, 201);
    assert.equal(user.body.code, 201);
    const { user_id } = user.body.response as { user_id: number };
    assert.equal(store().users.get(user_id)?.organization, 'Horns & Hooves LLC');

    const offer = await client.api('POST', '/agreements', { user_id, is_offer: true, create_date: '2025-06-30' });
    assert.equal(offer.status, 200);
    assert.equal(offer.body.code, 200);
    const { agreement_id } = offer.body.response as { agreement_id: number };
    assert.deepEqual(store().agreements.get(agreement_id), {
      agreement_id,
      user_id,
      is_offer: true,
      create_date: '2025-06-30',
      balance: 0n,
    });

    const created = await client.pay(
      payment('C', {}, { agreement_param_id: 7, agreement_param_value: 'hh@example.com' }),
    );
    assert.equal(store().payments.get(created.payment_id)?.agreement_id, agreement_id);
  });

  it('refuses invalid users and agreements, naming the field', async () => {
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['/users', { type: 1, organization: 'X', email: 'not-an-email' }, 400, /^email: expected an e-mail address/],
      ['/users', { type: 1, email: 'a@example.com' }, 400, /^organization: required/],
      [
        '/users',
        { type: 1, organisation: 'X', organization: 'X', email: 'a@example.com' },
        400,
        /^organisation: not a field/,
      ],
      ['/users', { type: '1', organization: 'X', email: 'a@example.com' }, 400, /^type: expected number/],
      [
        '/agreements',
        { user_id: 1, is_offer: false, create_date: '2025-01-01' },
        400,
        /^agreement_number: required unless is_offer is true/,
      ],
      [
        '/agreements',
        { user_id: 1, is_offer: false, agreement_number: 'AG-9', create_date: '2025-02-30' },
        400,
        /^create_date: expected a date YYYY-MM-DD/,
      ],
      ['/agreements', { user_id: 404, is_offer: true, create_date: '2025-01-01' }, 404, /^user 404 not found$/],
      [
        '/agreements',
        { user_id: 1, is_offer: false, agreement_number: 'AG-1002', create_date: '2025-01-01' },
        409,
        /^agreement_number: AG-1002 is already used/,
      ],
    ];
    for (const [path, body, status, message] of cases) {
      const answer = await client.api('POST', path, body);
      assert.equal(answer.status, status, JSON.stringify(body));
      assert.match(errorMessage(answer), message);
    }
  });

  it('GET /tariffs, /tariffs/{id}/periods and /services list the seeded tariffs; an unknown tariff is 404', async () => {
    assert.deepEqual((await client.api('GET', '/tariffs')).body, {
      code: 200,
      response: {
        tariffs: [
          { tariff_id: 1, name: 'Business Internet' },
          { tariff_id: 2, name: 'Cloud Backup' },
        ],
      },
    });
    assert.deepEqual((await client.api('GET', '/tariffs/1/periods')).body, {
      code: 200,
      response: { periods: [{ period_id: 1, name: '1 month', months: 1 }] },
    });
    assert.deepEqual((await client.api('GET', '/tariffs/2/periods')).body, {
      code: 200,
      response: {
        periods: [
          { period_id: 2, name: '1 month', months: 1 },
          { period_id: 3, name: '3 months', months: 3 },
        ],
      },
    });
    assert.deepEqual((await client.api('GET', '/tariffs/1/services')).body, {
      code: 200,
      response: {
        services: [
          { tariff_service_id: 11, name: 'Internet 100 Mbit/s', price: '990.00' },
          { tariff_service_id: 12, name: 'Static IP address', price: '150.00' },
        ],
      },
    });
    const unknown = await client.api('GET', '/tariffs/7/services');
    assert.equal(unknown.status, 404);
    assert.equal(errorMessage(unknown), 'tariff 7 not found');
  });

  it('POST /subscriptions needs an agreement, tariff, period and services that exist', async () => {
    const good = {
      agreement_id: 1001,
      tariff_id: 1,
      period_id: 1,
      description: 'Office internet',
      subscription_start_date: '2025-01-01 00:00:00',
      services: [{ tariff_service_id: 11, multiplicator: 1 }],
    };
    const created = await client.api('POST', '/subscriptions', good);
    assert.equal(created.status, 200);
    const { subscription_id } = created.body.response as { subscription_id: number };
    const stored = store().subscriptions.get(subscription_id)!;
    assert.equal(stored.agreement_id, 1001);
    assert.deepEqual(
      stored.versions.map((v) => [v.version, v.starts_at, v.services]),
      [[1, '2025-01-01 00:00:00', [{ tariff_service_id: 11, multiplicator: 1 }]]],
    );

    const refusals: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ agreement_id: 4040 }, 404, /^agreement 4040 not found$/],
      [{ tariff_id: 9 }, 404, /^tariff 9 not found$/],
      [{ period_id: 9 }, 404, /^period 9 not found on tariff 1$/],
      [{ services: [{ tariff_service_id: 99, multiplicator: 1 }] }, 404, /^service 99 not found on tariff 1$/],
      [{ services: [] }, 400, /^services: name at least one service/],
      [
        {
          services: [
            { tariff_service_id: 11, multiplicator: 1 },
            { tariff_service_id: 11, multiplicator: 2 },
          ],
        },
        400,
        /^services\[1\]\.tariff_service_id: this service is named twice/,
      ],
      [
        { subscription_start_date: '2025-01-01T00:00:00Z' },
        400,
        /^subscription_start_date: expected a date-time YYYY-MM-DD HH:MM:SS/,
      ],
      [{ tariff_id: undefined }, 400, /^tariff_id: required/],
    ];
    for (const [change, status, message] of refusals) {
      const answer = await client.api('POST', '/subscriptions', { ...good, ...change });
      assert.equal(answer.status, status, JSON.stringify(change));
      assert.match(errorMessage(answer), message);
    }
  });

  it('PATCH /subscriptions/{id} adds a version from change_start_date and keeps the history', async () => {
    const created = await client.api('POST', '/subscriptions', {
      agreement_id: 1001,
      tariff_id: 1,
      period_id: 1,
      subscription_start_date: '2025-01-01 00:00:00',
      services: [{ tariff_service_id: 11, multiplicator: 1 }],
    });
    const { subscription_id } = created.body.response as { subscription_id: number };
    const change = {
      change_start_date: '2025-03-01 00:00:00',
      description: 'Office internet with a fixed IP',
      services: [
        { tariff_service_id: 11, multiplicator: 1, modifier: { new_price: 890.1 } },
        { tariff_service_id: 12, multiplicator: 2 },
      ],
    };
    const patched = await client.api('PATCH', `/subscriptions/${subscription_id}`, change);
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body, { code: 200, response: { subscription_id, version: 2 } });
    const second = await client.api('PATCH', `/subscriptions/${subscription_id}`, {
      change_start_date: '2025-04-01 00:00:00',
      description: 'renamed',
    });
    assert.deepEqual(second.body, { code: 200, response: { subscription_id, version: 3 } });

    const versions = store().subscriptions.get(subscription_id)!.versions;
    assert.deepEqual(
      versions.map((v) => [v.version, v.starts_at, v.description]),
      [
        [1, '2025-01-01 00:00:00', ''],
        [2, '2025-03-01 00:00:00', 'Office internet with a fixed IP'],
        [3, '2025-04-01 00:00:00', 'renamed'],
      ],
    );
    assert.deepEqual(versions[0]!.services, [{ tariff_service_id: 11, multiplicator: 1 }]);
    assert.deepEqual(versions[1]!.services, [
      { tariff_service_id: 11, multiplicator: 1, new_price: 89010n },
      { tariff_service_id: 12, multiplicator: 2 },
    ]);
    assert.deepEqual(versions[2]!.services, versions[1]!.services);

    const earlier = await client.api('PATCH', `/subscriptions/${subscription_id}`, {
      change_start_date: '2025-04-01 00:00:00',
    });
    assert.equal(earlier.status, 400);
    assert.match(errorMessage(earlier), /^change_start_date must be later than the start of the current version/);
    const price = await client.api('PATCH', `/subscriptions/${subscription_id}`, {
      ...change,
      change_start_date: '2025-05-01 00:00:00',
      services: [{ tariff_service_id: 11, multiplicator: 1, modifier: { new_price: 1.005 } }],
    });
    assert.equal(price.status, 400);
    assert.match(
      errorMessage(price),
      /^services\[0\]\.modifier\.new_price: expected an amount with at most two decimals/,
    );
    assert.equal(
      (await client.api('PATCH', '/subscriptions/999', { change_start_date: '2026-01-01 00:00:00' })).status,
      404,
    );
    assert.equal(store().subscriptions.get(subscription_id)!.versions.length, 3);
  });

  it('unknown endpoints answer 404 in the envelope', async () => {
    const unknown = await client.api('GET', '/invoices');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { code: 404, error: { message: 'no such endpoint' } });
  });
});
