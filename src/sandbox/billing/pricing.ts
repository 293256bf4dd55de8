/**
 * What subscription terms cost, in exact integer arithmetic. A service's price is per unit and month (in minor
 * units); its `multiplicator` is a decimal quantity with at most six decimals, held as millionths; a period of m
 * months costs m monthly prices. A part of a period costs its share of the period's length, and a sum of such shares
 * is rounded once, half up, to the minor unit — so the history of a period never drifts by rounding.
 */
import type { Period } from './calendar.js';
import type { SubscriptionVersion, Tariff } from './records.js';

/** Quantities are held in millionths. */
export const QUANTITY_SCALE = 1_000_000n;

const QUANTITY = /^(\d{1,7})(?:\.(\d{1,6}))?$/;

/** A multiplicator in millionths (1.5 → 1 500 000n), or `null` when it has more than six decimals or is not plain. */
export function quantityUnits(multiplicator: number): bigint | null {
  const match = Number.isFinite(multiplicator) ? QUANTITY.exec(String(multiplicator)) : null;
  if (!match) return null;
  return BigInt(match[1]!) * QUANTITY_SCALE + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** The price per month of a version's services, in minor units × QUANTITY_SCALE (exact). */
export function monthlyRate(version: SubscriptionVersion, tariffs: ReadonlyMap<number, Tariff>): bigint {
  const tariff = tariffs.get(version.tariff_id);
  if (!tariff) throw new Error(`version ${version.version} names a missing tariff ${version.tariff_id}`);
  return version.services.reduce((sum, service) => {
    const price =
      service.new_price ?? tariff.services.find((s) => s.tariff_service_id === service.tariff_service_id)?.price;
    if (price === undefined) throw new Error(`tariff ${tariff.tariff_id} has no service ${service.tariff_service_id}`);
    return sum + price * (quantityUnits(service.multiplicator) ?? 0n);
  }, 0n);
}

/** A stretch of time inside a period billed at one monthly rate. */
export interface Stretch {
  rate: bigint;
  ms: number;
}

/** The cost of stretches of `period`: Σ rate × months × (stretch / period length), rounded half up once. */
export function prorate(stretches: readonly Stretch[], period: Period): bigint {
  const length = BigInt(period.end - period.start);
  const numerator = stretches.reduce((sum, { rate, ms }) => sum + rate * BigInt(period.months) * BigInt(ms), 0n);
  const denominator = QUANTITY_SCALE * length;
  return (2n * numerator + denominator) / (2n * denominator);
}

/** The whole monthly price of a version in minor units (rounded half up), for display. */
export function monthlyPrice(version: SubscriptionVersion, tariffs: ReadonlyMap<number, Tariff>): bigint {
  return (2n * monthlyRate(version, tariffs) + QUANTITY_SCALE) / (2n * QUANTITY_SCALE);
}
