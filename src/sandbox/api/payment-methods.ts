/**
 * `GET /payment_methods` (filtered by `status_list` and `agreement_id` in the query) and `DELETE
 * /payment_methods/{id}`, which disables a method and its autopayment (idempotent).
 */
import { Hono, type Context } from 'hono';
import { recordId } from '../billing/records.js';
import { badRequest, notFound, pathId, type ApiContext, type ApiEnv } from './request.js';

export function paymentMethodRoutes({ state, bearer }: ApiContext): Hono<ApiEnv> {
  const { store } = state;
  const routes = new Hono<ApiEnv>();
  routes.get('/', bearer, (c) => {
    const statuses = statusList(c);
    const agreementText = c.req.query('agreement_id');
    const agreementId = recordId(agreementText);
    if (agreementText !== undefined) {
      if (agreementId === undefined) throw badRequest('agreement_id: expected a positive integer');
      if (!store.agreements.has(agreementId)) throw notFound(`agreement ${agreementId} not found`);
    }
    const methods = [...store.paymentMethods.values()]
      .filter(
        (m) =>
          (statuses === undefined || statuses.includes(m.status)) &&
          (agreementId === undefined || m.agreement_id === agreementId),
      )
      .map((m) => ({ ...m }));
    return c.json({ code: 200, response: { payment_methods: methods } }, 200);
  });

  routes.delete('/:id', bearer, (c) => {
    const id = pathId(c, 'payment method');
    const method = store.paymentMethods.get(id);
    if (!method) throw notFound(`payment method ${id} not found`);
    store.disableMethod(method);
    const response = {
      payment_method_id: id,
      status: method.status,
      enable_auto_payments: method.enable_auto_payments,
    };
    return c.json({ code: 200, response }, 200);
  });
  return routes;
}

/**
 * `status_list` in the query in any usual form (`2`, `2,3`, `[2,3]`, `status_list[]=2`, `status_list[0]=2`,
 * repeated); `undefined` when absent (every status). (A GET body cannot carry it: the Fetch API drops it.)
 */
function statusList(c: Context<ApiEnv>): number[] | undefined {
  const url = new URL(c.req.url);
  const texts = [...url.searchParams]
    .filter(([key]) => /^status_list(?:\[\d*\])?$/.test(key))
    .map(([, value]) => value);
  if (!texts.length) return undefined;
  const items: unknown[] = texts.flatMap((text) => {
    const trimmed = text.trim();
    if (!trimmed.startsWith('[')) return trimmed.split(',').map((part) => part.trim());
    try {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? String(v) : null)) : [null];
    } catch {
      return [null];
    }
  });
  if (!items.length || !items.every((item) => typeof item === 'string' && /^\d{1,9}$/.test(item))) {
    throw badRequest('status_list: expected integers, such as status_list=2 or status_list=2,3');
  }
  return items.map(Number);
}
