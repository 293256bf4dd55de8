/**
 * Calendar arithmetic of the sandbox, all in UTC: the spec's `YYYY-MM-DD HH:MM:SS` text, billing periods aligned to
 * the calendar (a one-month period runs from the 1st to the 1st; three months from January, April, July, October),
 * and the hourly sweep at minute 30. Instants are epoch milliseconds.
 */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** `YYYY-MM-DD HH:MM:SS` in UTC, the spec's date-time format. */
export function timestamp(at: Date | number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant of a `YYYY-MM-DD HH:MM:SS` text (read as UTC); NaN when it is not one. */
export function parseTimestamp(text: string): number {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text) ? Date.parse(`${text.replace(' ', 'T')}Z`) : Number.NaN;
}

/** `YYYY-MM-DD` of an instant. */
export function dateOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** A billing period: `[start, end)`, `months` long, aligned to the calendar. */
export interface Period {
  start: number;
  end: number;
  months: number;
}

/** The period of `months` months (aligned to the calendar year) that contains `at`. */
export function periodContaining(at: number, months: number): Period {
  if (!Number.isInteger(months) || months < 1)
    throw new RangeError(`a period is a whole number of months, not ${months}`);
  const date = new Date(at);
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth();
  const first = index - (index % months);
  return { start: monthStart(first), end: monthStart(first + months), months };
}

/** `at` plus whole calendar months; a day past the end of the target month becomes its last day (31 Jan + 1 = 28 Feb). */
export function addMonths(at: number, months: number): number {
  const date = new Date(at);
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const lastDay = new Date(monthStart(index + 1) - DAY_MS).getUTCDate();
  const dayMs = at - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return monthStart(index) + (Math.min(date.getUTCDate(), lastDay) - 1) * DAY_MS + dayMs;
}

/** The first `HH:30:00.000` strictly after `after`. */
export function nextHalfPast(after: number): number {
  const hour = Math.floor(after / HOUR_MS) * HOUR_MS;
  const candidate = hour + 30 * MINUTE_MS;
  return candidate > after ? candidate : candidate + HOUR_MS;
}

function monthStart(index: number): number {
  return Date.UTC(Math.floor(index / 12), index % 12, 1);
}
