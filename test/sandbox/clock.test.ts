import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMonths, nextHalfPast, parseTimestamp, periodContaining, timestamp } from '../../src/sandbox/calendar.js';
import { SandboxClock, addDuration, moveTarget, parseDuration, parseInstant } from '../../src/sandbox/clock.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('sandbox calendar', () => {
  it('periods are aligned to the calendar: months from the 1st, quarters from January, April, July, October', () => {
    const month = periodContaining(at('2026-02-15T12:00:00Z'), 1);
    assert.deepEqual([iso(month.start), iso(month.end), month.months], ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 1]);
    const quarter = periodContaining(at('2026-05-16T00:00:00Z'), 3);
    assert.deepEqual([iso(quarter.start), iso(quarter.end)], ['2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']);
    const december = periodContaining(at('2026-12-31T23:59:59Z'), 1);
    assert.equal(iso(december.end), '2027-01-01T00:00:00.000Z');
    assert.equal(iso(periodContaining(at('2026-03-01T00:00:00Z'), 1).start), '2026-03-01T00:00:00.000Z', 'a boundary starts its period');
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
    assert.throws(() => clock.moveTo(at('2026-04-10T00:00:00Z')), { name: 'RangeError', message: 'the clock only moves forward' });
    assert.equal(clock.millis(), at('2026-04-11T00:00:00Z'));
  });

  it('a running clock follows real time from its start and keeps the moves', () => {
    let real = 1_000_000;
    const clock = new SandboxClock({ start: '2026-04-10T09:00:00Z' }, () => real);
    real += 5000;
    assert.equal(clock.now().toISOString(), '2026-04-10T09:00:05.000Z');
    clock.moveTo(at('2026-04-11T09:00:05Z'));
    real += 1000;
    assert.equal(clock.now().toISOString(), '2026-04-11T09:00:06.000Z');
    assert.ok(Math.abs(new SandboxClock().millis() - Date.now()) < 1000, 'by default it starts at the real time');
    assert.throws(() => new SandboxClock({ start: 'soon' }), TypeError);
  });

  it('reads ISO 8601 durations: calendar months and exact days, hours, minutes, seconds', () => {
    assert.deepEqual(parseDuration('P1D'), { months: 0, ms: 86_400_000 });
    assert.deepEqual(parseDuration('PT1H30M'), { months: 0, ms: 5_400_000 });
    assert.deepEqual(parseDuration('P1Y2M'), { months: 14, ms: 0 });
    assert.deepEqual(parseDuration('p2w'), { months: 0, ms: 14 * 86_400_000 });
    assert.deepEqual(parseDuration('P1DT12H'), { months: 0, ms: 36 * 3_600_000 });
    for (const bad of ['P', 'PT', 'P1DT', '1D', 'P-1D', 'P1.5D', 'PT1H2D', '']) assert.equal(parseDuration(bad), null, bad);
    assert.equal(iso(addDuration(at('2026-01-31T00:00:00Z'), parseDuration('P1M')!)), '2026-02-28T00:00:00.000Z');
  });

  it('reads instants with or without a zone (UTC), the spec date-time and plain dates; refuses dates that do not exist', () => {
    assert.equal(parseInstant('2026-11-30T00:00:00Z'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30T03:00:00+03:00'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30 00:00:00'), at('2026-11-30T00:00:00Z'));
    assert.equal(parseInstant('2026-11-30T00:00'), at('2026-11-30T00:00:00Z'), 'as a datetime-local field sends it');
    assert.equal(parseInstant('2026-11-30'), at('2026-11-30T00:00:00Z'));
    for (const bad of ['2026-02-30', '2026-11-30T24:00:00Z', 'tomorrow', '30.11.2026', '2026-11-30Z']) assert.ok(Number.isNaN(parseInstant(bad)), bad);
  });

  it('a move is forward, at most ten years, and either advance or to', () => {
    const now = at('2026-04-10T09:00:00Z');
    assert.deepEqual(moveTarget(now, { advance: 'P1D' }, 's'), { target: at('2026-04-11T09:00:00Z') });
    assert.deepEqual(moveTarget(now, { advance: 3600 }, 's'), { target: at('2026-04-10T10:00:00Z') });
    assert.deepEqual(moveTarget(now, { advance: 1500 }, 'ms'), { target: now + 1500 });
    assert.deepEqual(moveTarget(now, { to: '2026-04-10T09:00:00Z' }, 's'), { target: now }, 'to now is allowed and does nothing');
    const error = (request: Record<string, unknown>) => {
      const result = moveTarget(now, request, 's');
      return 'error' in result ? result.error : `moved to ${iso(result.target)}`;
    };
    assert.match(error({ to: '2026-04-10T08:59:59Z' }), /^to: the clock only moves forward; 2026-04-10T08:59:59\.000Z is before the sandbox time 2026-04-10T09:00:00\.000Z/);
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
