import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMinorUnits } from '../../src/eps/amount.js';
import {
  addMonths,
  nextHalfPast,
  parseTimestamp,
  periodContaining,
  timestamp,
} from '../../src/sandbox/billing/calendar.js';
import { SandboxClock, addDuration, moveTarget, parseDuration, parseInstant } from '../../src/sandbox/billing/clock.js';
import {
  INTERNET,
  moveClock,
  newAgreement,
  saveMethod,
  start,
  startFrozen,
  subscribe,
  topUp,
  type Client,
} from './helpers.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('sandbox calendar', () => {
  it('periods are aligned to the calendar: months from the 1st, quarters from January, April, July, October', () => {
    const month = periodContaining(at('2026-02-15T12:00:00Z'), 1);
    assert.deepEqual(
      [iso(month.start), iso(month.end), month.months],
      ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 1],
    );
    const quarter = periodContaining(at('2026-05-16T00:00:00Z'), 3);
    assert.deepEqual([iso(quarter.start), iso(quarter.end)], ['2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']);
    const december = periodContaining(at('2026-12-31T23:59:59Z'), 1);
    assert.equal(iso(december.end), '2027-01-01T00:00:00.000Z');
    assert.equal(
      iso(periodContaining(at('2026-03-01T00:00:00Z'), 1).start),
      '2026-03-01T00:00:00.000Z',
      'a boundary starts its period',
    );
    assert.throws(() => periodContaining(0, 0), RangeError);
  });

  it('adds months keeping the day when it exists, the last day otherwise', () => {
    assert.equal(iso(addMonths(at('2026-01-31T10:00:00Z'), 1)), '2026-02-28T10:00:00.000Z');
    assert.equal(iso(addMonths(at('2028-01-31T00:00:00Z'), 1)), '2028-02-29T00:00:00.000Z');
    assert.equal(iso(addMonths(at('2026-11-15T00:00:00Z'), 2)), '2027-01-15T00:00:00.000Z');
    assert.equal(iso(addMonths(at('2026-03-01T00:00:00Z'), -1)), '2026-02-01T00:00:00.000Z');
  });

  it('the hourly sweep is at minute 30, strictly after the given instant', () => {
    assert.equal(iso(nextHalfPast(at('2026-04-10T09:00:00Z'))), '2026-04-10T09:30:00.000Z');
    assert.equal(iso(nextHalfPast(at('2026-04-10T09:30:00Z'))), '2026-04-10T10:30:00.000Z');
    assert.equal(iso(nextHalfPast(at('2026-04-10T23:45:00Z'))), '2026-04-11T00:30:00.000Z');
  });

  it('reads and writes the spec date-time YYYY-MM-DD HH:MM:SS as UTC', () => {
    assert.equal(timestamp(at('2026-04-10T09:00:00.999Z')), '2026-04-10 09:00:00');
    assert.equal(parseTimestamp('2026-04-10 09:00:00'), at('2026-04-10T09:00:00Z'));
    assert.ok(Number.isNaN(parseTimestamp('2026-04-10T09:00:00Z')));
  });
});

describe('sandbox clock', () => {
  it('a frozen clock stands still and moves only forward', () => {
    const clock = new SandboxClock({ start: '2026-04-10T09:00:00Z', frozen: true });
    assert.equal(clock.now().toISOString(), '2026-04-10T09:00:00.000Z');
    clock.moveTo(at('2026-04-11T00:00:00Z'));
    assert.equal(clock.now().toISOString(), '2026-04-11T00:00:00.000Z');
    assert.throws(() => clock.moveTo(at('2026-04-10T00:00:00Z')), {
      name: 'RangeError',
      message: 'the clock only moves forward',
    });
    assert.equal(clock.millis(), at('2026-04-11T00:00:00Z'));
  });

  it('a running clock follows real time from its start and keeps the moves', () => {
    let real = 1_000_000;
    const clock = new SandboxClock({ start: '2026-04-10T09:00:00Z' }, () => real);
    real += 5000;
    assert.equal(clock.now().toISOString(), '2026-04-10T09:00:05.000Z');
    assert.equal(clock.movedBy, 0);
    clock.moveTo(at('2026-04-11T09:00:05Z'));
    real += 1000;
    assert.equal(clock.now().toISOString(), '2026-04-11T09:00:06.000Z');
    assert.equal(clock.movedBy, 86_400_000, 'how far the moves took it, not the real time that ran');
    clock.moveTo(at('2026-04-11T10:00:06Z'));
    assert.equal(clock.movedBy, 90_000_000);
    assert.ok(Math.abs(new SandboxClock().millis() - Date.now()) < 1000, 'by default it starts at the real time');
    assert.throws(() => new SandboxClock({ start: 'soon' }), TypeError);
  });

  it('reads ISO 8601 durations: calendar months and exact days, hours, minutes, seconds', () => {
    assert.deepEqual(parseDuration('P1D'), { months: 0, ms: 86_400_000 });
    assert.deepEqual(parseDuration('PT1H30M'), { months: 0, ms: 5_400_000 });
    assert.deepEqual(parseDuration('P1Y2M'), { months: 14, ms: 0 });
    assert.deepEqual(parseDuration('p2w'), { months: 0, ms: 14 * 86_400_000 });
    assert.deepEqual(parseDuration('P1DT12H'), { months: 0, ms: 36 * 3_600_000 });
    for (const bad of ['P', 'PT', 'P1DT', '1D', 'P-1D', 'P1.5D', 'PT1H2D', ''])
      assert.equal(parseDuration(bad), null, bad);
    assert.equal(iso(addDuration(at('2026-01-31T00:00:00Z'), parseDuration('P1M')!)), '2026-02-28T00:00:00.000Z');
  });

  it('reads instants with or without a zone (UTC), the spec date-time and plain dates; refuses dates that do not exist', () => {
    assert.equal(parseInstant('2026-11-30T00:00:00Z'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30T03:00:00+03:00'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30 00:00:00'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30T00:00'), at('2026-11-30T00:00:00Z'), 'as a datetime-local field sends it');
    assert.equal(parseInstant('2026-11-30'), at('2026-11-30T00:00:00Z'));
    for (const bad of ['2026-02-30', '2026-11-30T24:00:00Z', 'tomorrow', '30.11.2026', '2026-11-30Z'])
      assert.ok(Number.isNaN(parseInstant(bad)), bad);
  });

  it('a move is forward, at most ten years, and either advance or to', () => {
    const now = at('2026-04-10T09:00:00Z');
    assert.deepEqual(moveTarget(now, { advance: 'P1D' }, 's'), { target: at('2026-04-11T09:00:00Z') });
    assert.deepEqual(moveTarget(now, { advance: 3600 }, 's'), { target: at('2026-04-10T10:00:00Z') });
    assert.deepEqual(moveTarget(now, { advance: 1500 }, 'ms'), { target: now + 1500 });
    assert.deepEqual(
      moveTarget(now, { to: '2026-04-10T09:00:00Z' }, 's'),
      { target: now },
      'to now is allowed and does nothing',
    );
    const error = (request: Record<string, unknown>) => {
      const result = moveTarget(now, request, 's');
      return 'error' in result ? result.error : `moved to ${iso(result.target)}`;
    };
    assert.match(
      error({ to: '2026-04-10T08:59:59Z' }),
      /^to: the clock only moves forward; 2026-04-10T08:59:59\.000Z is before the sandbox time 2026-04-10T09:00:00\.000Z/,
    );
    assert.match(error({ advance: -5 }), /^advance: a positive number of seconds/);
    assert.match(error({ advance: 0 }), /^advance: a positive number/);
    assert.match(error({ advance: 'P0D' }), /^advance: the duration must be longer than zero/);
    assert.match(error({ advance: 'one day' }), /^advance: an ISO 8601 duration/);
    assert.match(error({ advance: true }), /^advance: a duration text/);
    assert.match(error({ to: 20260410 }), /^to: a date-time/);
    assert.match(error({}), /^give either advance/);
    assert.match(error({ advance: 'P1D', to: '2026-05-01' }), /^give either advance/);
    assert.match(error({ advance: 'P11Y' }), /^the clock moves at most ten years at a time/);
  });
});

const clockUrl = (client: Client) => `${client.sandbox.url}/sandbox/clock`;
const postJson = (client: Client, body: unknown, type = 'application/json') =>
  fetch(clockUrl(client), {
    method: 'POST',
    headers: { 'content-type': type, authorization: client.basic },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const postForm = (client: Client, fields: Record<string, string>) =>
  fetch(`${client.sandbox.url}/clock`, {
    method: 'POST',
    headers: { authorization: client.basic },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

describe('sandbox clock: POST /sandbox/clock and the in-process API', () => {
  let client: Client;
  before(async () => {
    client = await startFrozen();
  });
  after(() => client.close());

  const now = () => client.sandbox.clock.now().toISOString();

  it("GET /sandbox/clock tells the time, whether it stands still, how far it was moved, and N; the sandbox's credentials are needed", async () => {
    assert.equal((await fetch(clockUrl(client))).status, 401);
    const res = await fetch(clockUrl(client), { headers: { authorization: client.basic } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      now: '2026-04-10T09:00:00.000Z',
      frozen: true,
      moved_by_seconds: 0,
      autopayment_lead_days: 1,
    });
    assert.equal(client.sandbox.clock.frozen, true);
  });

  it('moves by a duration, by seconds or to an instant, and answers what happened on the way', async () => {
    const day = await moveClock(client, { advance: 'P1D' });
    assert.deepEqual([day.from, day.now], ['2026-04-10T09:00:00.000Z', '2026-04-11T09:00:00.000Z']);
    assert.deepEqual(day.events, []);
    assert.equal((await moveClock(client, { advance: 3600 })).now, '2026-04-11T10:00:00.000Z');
    const month = await moveClock(client, { to: '2026-05-01T00:00:00Z' });
    assert.equal(now(), '2026-05-01T00:00:00.000Z');
    // The seeded AG-1001 has 0.00 and cannot pay May.
    assert.deepEqual(
      month.events.map((e) => [e.at, e.kind, e.agreement_id]),
      [['2026-05-01 00:00:00', 'blocked', 1001]],
    );
    assert.match(
      month.events[0]!.text,
      /^Subscription 1 \(Office internet\): the balance does not cover the period 2026-05-01 – 2026-06-01 \(1140\.00\): financial blocking$/,
    );
  });

  it('refuses a move backwards and malformed requests, with a message, and does not move', async () => {
    const before = now();
    const cases: Array<[unknown, string, number, RegExp]> = [
      [{ to: '2026-04-01T00:00:00Z' }, 'application/json', 400, /^to: the clock only moves forward/],
      [{ advance: -60 }, 'application/json', 400, /^advance: a positive number of seconds/],
      [{ advance: 'tomorrow' }, 'application/json', 400, /^advance: an ISO 8601 duration/],
      [{ advance: 'P1D', when: 'now' }, 'application/json', 400, /^when: not a field of this request/],
      [['P1D'], 'application/json', 400, /^body: expected object/],
      ['{"advance":', 'application/json', 400, /^the body is not valid JSON/],
      ['advance=P1D', 'text/plain', 415, /^Content-Type must be application\/json/],
    ];
    for (const [body, type, status, message] of cases) {
      const res = await postJson(client, body, type);
      assert.equal(res.status, status, JSON.stringify(body));
      const answer = (await res.json()) as { code: number; error: { message: string } };
      assert.equal(answer.code, status);
      assert.match(answer.error.message, message);
    }
    assert.equal(now(), before);
  });

  it("the pages' forms move it and come back to the page they came from (a local path only)", async () => {
    const before = Date.parse(now());
    const res = await postForm(client, { advance: 'PT1H', return_to: '/agreements/1001' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location') ?? '', /^\/agreements\/1001\?jump=\d+$/, 'back, with the move to report');
    assert.equal(Date.parse(now()) - before, 3_600_000);
    const to = await postForm(client, { to: '2026-05-02T00:00', return_to: '//evil.example/' });
    assert.match(to.headers.get('location') ?? '', /^\/\?jump=\d+$/);
    assert.equal(now(), '2026-05-02T00:00:00.000Z');
    const refused = await postForm(client, { to: '2026-05-01T00:00', return_to: '/' });
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(await refused.text(), /The clock did not move[\s\S]*only moves forward/);
  });

  it('in process: sandbox.clock.now(), sandbox.advance(ms | duration | date-time), clock.advanceTo', () => {
    const start = client.sandbox.clock.now().getTime();
    client.sandbox.advance(60_000);
    assert.equal(client.sandbox.clock.now().getTime() - start, 60_000);
    client.sandbox.clock.advance('PT1M');
    assert.equal(client.sandbox.clock.now().getTime() - start, 120_000);
    const jump = client.sandbox.advance('2026-05-03T00:00:00Z');
    assert.equal(jump.to, '2026-05-03T00:00:00.000Z');
    client.sandbox.clock.advanceTo(new Date('2026-05-04T00:00:00Z'));
    assert.equal(now(), '2026-05-04T00:00:00.000Z');
    assert.throws(() => client.sandbox.advance('2026-05-01T00:00:00Z'), {
      name: 'RangeError',
      message: /only moves forward/,
    });
    assert.throws(() => client.sandbox.clock.advanceTo('someday'), RangeError);
  });
});

describe('sandbox clock: a jump fires every trigger in time order, once', () => {
  /** Three agreements that meet every trigger, a price change, blocking and activation within two months. */
  async function arrange(client: Client) {
    const renewing = await newAgreement(client, 'Renewing LLC');
    await topUp(client, renewing, 783.75);
    const renewingSub = await subscribe(client, renewing, { subscription_start_date: '2026-04-10 09:00:00' });
    await saveMethod(client, renewing);
    await client.api('PATCH', `/subscriptions/${renewingSub}`, {
      change_start_date: '2026-05-15 00:00:00',
      services: [
        { ...INTERNET, modifier: { new_price: 1300 } },
        { tariff_service_id: 12, multiplicator: 1 },
      ],
    });
    const waiting = await newAgreement(client, 'Waiting LLC');
    await subscribe(client, waiting, { subscription_start_date: '2026-04-20 00:00:00' });
    await saveMethod(client, waiting);
    const late = await newAgreement(client, 'Late LLC');
    await topUp(client, late, 783.75);
    await subscribe(client, late, { subscription_start_date: '2026-04-10 09:00:00' });
    return late;
  }

  const history = (client: Client) => ({
    journal: client.sandbox.store.journal.map((e) => [e.at, e.kind, e.agreement_id, e.trigger ?? '', e.amount ?? '']),
    ledger: client.sandbox.store.ledger.map((e) => [
      e.at,
      e.kind,
      e.agreement_id,
      formatMinorUnits(e.amount),
      formatMinorUnits(e.balance_after),
    ]),
    autopayments: [...client.sandbox.store.autopayments.values()].map((a) => [
      a.at,
      a.trigger,
      a.agreement_id,
      formatMinorUnits(a.amount),
    ]),
  });

  it('one jump of two months does exactly what seven-hour steps do, in time order, each trigger once', async () => {
    const [jumping, stepping] = await Promise.all([startFrozen(), startFrozen()]);
    try {
      const lateJ = await arrange(jumping);
      const lateS = await arrange(stepping);
      assert.equal(lateJ, lateS);
      // "Late" saves its method after the day-before check of May: only the blocking can fire for it.
      for (const client of [jumping, stepping]) {
        client.sandbox.advance('2026-04-30T12:00:00Z');
        await saveMethod(client, lateJ);
      }
      const jump = jumping.sandbox.advance('2026-06-10T09:00:00Z');
      while (stepping.sandbox.clock.now().getTime() < Date.parse('2026-06-10T09:00:00Z')) {
        const left = Date.parse('2026-06-10T09:00:00Z') - stepping.sandbox.clock.now().getTime();
        stepping.sandbox.advance(Math.min(left, 7 * 3_600_000));
      }
      assert.deepEqual(history(jumping), history(stepping));

      const times = jump.events.map((e) => e.at);
      assert.deepEqual(times, [...times].sort(), 'in time order');
      const autopayments = history(jumping).autopayments;
      assert.equal(new Set(autopayments.map((a) => a.join())).size, autopayments.length, 'each once');
      const names = new Map([
        [lateJ - 2, 'renewing'],
        [lateJ - 1, 'waiting'],
        [lateJ, 'late'],
      ]);
      assert.deepEqual(
        autopayments.map(([at, trigger, agreement, amount]) => [at, trigger, names.get(Number(agreement)), amount]),
        [
          // A day before the first period of "waiting" (20–30 April: 11 of 30 days).
          ['2026-04-19 00:00:00', 'before_period', 'waiting', '418.00'],
          ['2026-04-30 00:00:00', 'before_period', 'renewing', '1140.00'],
          ['2026-04-30 00:00:00', 'before_period', 'waiting', '1140.00'],
          ['2026-05-01 00:00:00', 'blocking', 'late', '1140.00'],
          // The price rise from 15 May (17 of 31 days × 310.00 = 170.00) leaves "renewing" below zero: the sweep pays
          // that and the next period at 1450.00.
          ['2026-05-15 00:30:00', 'hourly', 'renewing', '1620.00'],
          ['2026-05-31 00:00:00', 'before_period', 'waiting', '1140.00'],
          ['2026-05-31 00:00:00', 'before_period', 'late', '1140.00'],
        ],
      );
      assert.ok(
        history(jumping).journal.some(
          ([at, kind, agreement]) =>
            at === '2026-05-31 00:00:00' && kind === 'autopayment_skipped' && agreement === lateJ - 2,
        ),
        '"renewing" already holds June: nothing to pay',
      );
      // Nothing is left to do: a move of zero length fires nothing.
      assert.deepEqual(jumping.sandbox.advance('2026-06-10T09:00:00Z').events, []);
    } finally {
      await Promise.all([jumping.close(), stepping.close()]);
    }
  });

  it('a running clock (the default) starts at the real time and keeps running after a move', async () => {
    const client = await start();
    try {
      assert.equal(client.sandbox.clock.frozen, false);
      assert.ok(Math.abs(client.sandbox.clock.now().getTime() - Date.now()) < 2000);
      await moveClock(client, { advance: 'P1D' });
      const ahead = client.sandbox.clock.now().getTime() - Date.now();
      assert.ok(Math.abs(ahead - 86_400_000) < 2000, `ahead by ${ahead} ms`);
      const first = client.sandbox.clock.now().getTime();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(client.sandbox.clock.now().getTime() > first);
    } finally {
      await client.close();
    }
  });
});
