/** `GET /tariffs`, `GET /tariffs/{id}/periods`, `GET /tariffs/{id}/services` (prices as decimal text, per unit and month). */
import { Hono } from 'hono';
import { formatMinorUnits } from '../../eps/amount.js';
import type { Tariff } from '../billing/records.js';
import type { SandboxStore } from '../billing/store.js';
import { notFound, pathId, type ApiContext, type ApiEnv } from './request.js';

export function tariffRoutes({ state, bearer }: ApiContext): Hono<ApiEnv> {
  const { store } = state;
  const routes = new Hono<ApiEnv>();
  routes.get('/', bearer, (c) => {
    const tariffs = [...store.tariffs.values()].map((t) => ({ tariff_id: t.tariff_id, name: t.name }));
    return c.json({ code: 200, response: { tariffs } }, 200);
  });

  routes.get('/:id/periods', bearer, (c) => {
    const periods = tariffOf(store, pathId(c, 'tariff')).periods.map((p) => ({ ...p }));
    return c.json({ code: 200, response: { periods } }, 200);
  });

  routes.get('/:id/services', bearer, (c) => {
    const services = tariffOf(store, pathId(c, 'tariff')).services.map((s) => ({
      tariff_service_id: s.tariff_service_id,
      name: s.name,
      price: formatMinorUnits(s.price),
    }));
    return c.json({ code: 200, response: { services } }, 200);
  });
  return routes;
}

/** A tariff by id, or 404. */
export function tariffOf(store: SandboxStore, id: number): Tariff {
  const tariff = store.tariffs.get(id);
  if (!tariff) throw notFound(`tariff ${id} not found`);
  return tariff;
}
