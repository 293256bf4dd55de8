/**
 * The one clock of the sandbox. Every billing time comes from it: record timestamps, period starts, charges and the
 * autopayment triggers. It starts at the real time (or at a given instant) and then either runs along with real time
 * (the default: the demo) or stands still between moves (`frozen`: tests). It only ever moves forward.
 *
 * Also here: how a move is written, by people and by tests — an ISO 8601 duration (`P1D`, `PT1H`, `P1M`), a number of
 * seconds (HTTP) or milliseconds (in-process), or a target instant (`2026-11-30T00:00:00Z`, `2026-11-30 00:00:00`,
 * `2026-11-30`; without a zone it is UTC).
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, addMonths } from './calendar.js';

export interface ClockOptions {
  /** The sandbox time at start: an ISO date-time, a Date or epoch milliseconds; default the real time. */
  start?: string | number | Date;
  /** True: the clock stands still until moved (tests). Default false: it runs along with real time. */
  frozen?: boolean;
}

/** The longest single move: ten years (each hour of a move costs a sweep). */
export const MAX_MOVE_MS = 10 * 366 * DAY_MS;

export class SandboxClock {
  #frozen = false;
  /** Frozen: the sandbox time. Running: sandbox time minus real time. */
  #base = 0;
  #moved = 0;

  constructor(
    private readonly options: ClockOptions = {},
    private readonly realNow: () => number = Date.now,
  ) {
    this.reset();
  }

  /** True while the clock stands still between moves. */
  get frozen(): boolean {
    return this.#frozen;
  }

  /** The sandbox time in epoch milliseconds. */
  millis(): number {
    return this.#frozen ? this.#base : this.realNow() + this.#base;
  }

  /** Back to where start-up put it: the configured start (else the real time now), frozen or running as configured. */
  reset(): void {
    const start = this.options.start === undefined ? this.realNow() : toInstant(this.options.start);
    if (!Number.isFinite(start)) throw new TypeError(`clock.start is not a date-time: ${String(this.options.start)}`);
    this.#frozen = this.options.frozen ?? false;
    this.#base = this.#frozen ? start : start - this.realNow();
    this.#moved = 0;
  }

  /** Stops the clock at the time it shows now (nothing if it stands still already). */
  freeze(): void {
    if (!this.#frozen) [this.#base, this.#frozen] = [this.millis(), true];
  }

  /** Lets the clock run on with real time from the time it shows now. */
  unfreeze(): void {
    if (this.#frozen) [this.#base, this.#frozen] = [this.#base - this.realNow(), false];
  }

  /** The sandbox time. */
  now(): Date {
    return new Date(this.millis());
  }

  /** How far the moves have taken the clock ahead of where it would be without them, in milliseconds (0: never moved). */
  get movedBy(): number {
    return this.#moved;
  }

  /** Moves the clock forward to `target` (epoch ms). Throws a RangeError for an instant before now. */
  moveTo(target: number): void {
    const now = this.millis();
    if (!Number.isFinite(target) || target < now) throw new RangeError('the clock only moves forward');
    this.#base += target - now;
    this.#moved += target - now;
  }
}

/** A move request as people write it; `undefined` fields are absent. */
export interface MoveRequest {
  /** A duration (`P1D`) or a number of seconds (`unit` `s`) or milliseconds (`unit` `ms`). */
  advance?: unknown;
  /** A target instant. */
  to?: unknown;
}

/**
 * The target instant of a move from `now`, or an error message meant for the person who asked. `advance` and `to`
 * exclude each other; the move must be forward and at most ten years.
 */
export function moveTarget(
  now: number,
  request: MoveRequest,
  unit: 's' | 'ms',
): { target: number } | { error: string } {
  const { advance, to } = request;
  if ((advance === undefined) === (to === undefined))
    return { error: 'give either advance (a duration such as "P1D", or seconds) or to (a date-time)' };
  let target: number;
  if (advance !== undefined) {
    if (typeof advance === 'number') {
      if (!Number.isFinite(advance) || advance <= 0)
        return { error: `advance: a positive number of ${unit === 's' ? 'seconds' : 'milliseconds'}` };
      target = now + Math.round(advance * (unit === 's' ? SECOND_MS : 1));
    } else if (typeof advance === 'string') {
      const duration = parseDuration(advance);
      if (!duration) return { error: 'advance: an ISO 8601 duration such as P1D, PT1H, P1M or P1DT12H' };
      target = addDuration(now, duration);
      if (target <= now) return { error: 'advance: the duration must be longer than zero' };
    } else {
      return { error: 'advance: a duration text such as "P1D" or a number' };
    }
  } else {
    target = typeof to === 'string' ? parseInstant(to) : Number.NaN;
    if (!Number.isFinite(target))
      return { error: 'to: a date-time such as 2026-11-30T00:00:00Z, 2026-11-30 00:00:00 or 2026-11-30 (UTC)' };
    if (target < now)
      return {
        error: `to: the clock only moves forward; ${new Date(target).toISOString()} is before the sandbox time ${new Date(now).toISOString()}`,
      };
  }
  if (target - now > MAX_MOVE_MS) return { error: 'the clock moves at most ten years at a time' };
  return { target };
}

/** An ISO 8601 duration: calendar months (years are twelve) and exact milliseconds (weeks, days, hours, …). */
export interface Duration {
  months: number;
  ms: number;
}

const DURATION =
  /^P(?:(\d{1,4})Y)?(?:(\d{1,5})M)?(?:(\d{1,5})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?$/;

/** `P1Y2M3W4DT5H6M7S` and any part of it (whole numbers); `null` when it is not one or names no part. */
export function parseDuration(text: string): Duration | null {
  const match = DURATION.exec(text.trim().toUpperCase());
  if (!match || text.trim().toUpperCase().endsWith('T')) return null;
  const [, y, mo, w, d, h, mi, s] = match.map((part) => (part === undefined ? undefined : Number(part)));
  if ([y, mo, w, d, h, mi, s].every((part) => part === undefined)) return null;
  return {
    months: (y ?? 0) * 12 + (mo ?? 0),
    ms: (w ?? 0) * 7 * DAY_MS + (d ?? 0) * DAY_MS + (h ?? 0) * HOUR_MS + (mi ?? 0) * MINUTE_MS + (s ?? 0) * SECOND_MS,
  };
}

/** `at` plus a duration: the calendar months first, then the exact part. */
export function addDuration(at: number, duration: Duration): number {
  return addMonths(at, duration.months) + duration.ms;
}

const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[T ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?)(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/i;

/** An ISO date-time, the spec's `YYYY-MM-DD HH:MM:SS` or a date; without a zone it is UTC. NaN when it is none. */
export function parseInstant(text: string): number {
  const match = INSTANT.exec(text.trim());
  if (!match) return Number.NaN;
  const [, date, time = '00:00:00', zone = 'Z'] = match;
  const iso = `${date}T${time.length === 5 ? `${time}:00` : time}${zone.toUpperCase()}`;
  const at = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March; refuse dates that do not exist.
  if (!Number.isFinite(at)) return Number.NaN;
  const [year, month, day] = date!.split('-').map(Number);
  const check = new Date(Date.UTC(year!, month! - 1, day!));
  return check.getUTCMonth() === month! - 1 && check.getUTCDate() === day! ? at : Number.NaN;
}

function toInstant(value: string | number | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return parseInstant(value);
}
