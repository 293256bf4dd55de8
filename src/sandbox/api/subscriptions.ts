/**
 * `POST /subscriptions` and `PATCH /subscriptions/{id}`: a subscription, and a change of its terms as a new version
 * from `change_start_date` (fields left out are carried over). The billing processes what either means (charges,
 * recalculations) before answering.
 */
import { Hono } from 'hono';
import { toMinorUnits } from '../../eps/amount.js';
import { parseTimestamp, timestamp } from '../billing/calendar.js';
import type { SubscriptionService, Tariff } from '../billing/records.js';
import { newSubscriptionSchema, subscriptionChangeSchema, type ServiceItem } from '../schemas.js';
import { tariffOf } from './tariffs.js';
import { badRequest, jsonBody, notFound, pathId, type ApiContext, type ApiEnv } from './request.js';

export function subscriptionRoutes({ state, bearer }: ApiContext): Hono<ApiEnv> {
  const { store, clock, scheduler } = state;
  const routes = new Hono<ApiEnv>();
  routes.post('/', bearer, (c) => {
    const input = jsonBody(c, newSubscriptionSchema);
    if (!store.agreements.has(input.agreement_id)) throw notFound(`agreement ${input.agreement_id} not found`);
    const tariff = tariffOf(store, input.tariff_id);
    checkTerms(tariff, input.period_id, input.services);
    const subscription = store.addSubscription({
      agreement_id: input.agreement_id,
      tariff_id: input.tariff_id,
      period_id: input.period_id,
      description: input.description ?? '',
      starts_at: input.subscription_start_date ?? timestamp(clock.millis()),
      services: input.services.map(toSubscriptionService),
    });
    scheduler.catchUp();
    return c.json({ code: 200, response: { subscription_id: subscription.subscription_id } }, 200);
  });

  routes.patch('/:id', bearer, (c) => {
    const id = pathId(c, 'subscription');
    const input = jsonBody(c, subscriptionChangeSchema);
    const subscription = store.subscriptions.get(id);
    if (!subscription) throw notFound(`subscription ${id} not found`);
    const current = subscription.versions.at(-1)!;
    const tariffChanged = input.tariff_id !== undefined && input.tariff_id !== current.tariff_id;
    if (tariffChanged && (input.period_id === undefined || input.services === undefined)) {
      throw badRequest('period_id and services are required when tariff_id changes');
    }
    if (input.change_start_date <= current.starts_at) {
      throw badRequest(`change_start_date must be later than the start of the current version (${current.starts_at})`);
    }
    const tariffId = input.tariff_id ?? current.tariff_id;
    const periodId = input.period_id ?? current.period_id;
    const tariff = tariffOf(store, tariffId);
    checkTerms(tariff, periodId, input.services ?? []);
    const months = (t: Tariff, id: number) => t.periods.find((p) => p.period_id === id)?.months;
    if (
      months(tariff, periodId) !== months(tariffOf(store, current.tariff_id), current.period_id) &&
      parseTimestamp(input.change_start_date) < clock.millis()
    ) {
      throw badRequest(
        `change_start_date: a change of the period length cannot start in the past (the sandbox time is ${timestamp(clock.millis())})`,
      );
    }
    const version = store.addVersion(subscription, {
      starts_at: input.change_start_date,
      tariff_id: tariffId,
      period_id: periodId,
      description: input.description ?? current.description,
      services: input.services ? input.services.map(toSubscriptionService) : current.services.map((s) => ({ ...s })),
    });
    scheduler.catchUp();
    return c.json(
      { code: 200, response: { subscription_id: subscription.subscription_id, version: version.version } },
      200,
    );
  });
  return routes;
}

/** The period and every service must belong to the tariff. */
function checkTerms(tariff: Tariff, periodId: number, services: readonly ServiceItem[]): void {
  if (!tariff.periods.some((p) => p.period_id === periodId))
    throw notFound(`period ${periodId} not found on tariff ${tariff.tariff_id}`);
  for (const { tariff_service_id: id } of services) {
    if (!tariff.services.some((s) => s.tariff_service_id === id))
      throw notFound(`service ${id} not found on tariff ${tariff.tariff_id}`);
  }
}

function toSubscriptionService(item: ServiceItem): SubscriptionService {
  const service: SubscriptionService = { tariff_service_id: item.tariff_service_id, multiplicator: item.multiplicator };
  if (item.modifier) service.new_price = toMinorUnits(item.modifier.new_price)!;
  return service;
}
