/** `POST /agreements`: a new agreement of a client; its number, accounting code and account number are unique (409). */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { newAgreementSchema } from '../schemas.js';
import { jsonBody, notFound, type ApiContext, type ApiEnv } from './request.js';

export function agreementRoutes({ state, bearer }: ApiContext): Hono<ApiEnv> {
  const { store } = state;
  const routes = new Hono<ApiEnv>();
  routes.post('/', bearer, (c) => {
    const input = jsonBody(c, newAgreementSchema);
    if (!store.users.has(input.user_id)) throw notFound(`user ${input.user_id} not found`);
    for (const key of ['agreement_number', 'accounting_code', 'account_number'] as const) {
      const value = input[key];
      if (value !== undefined && [...store.agreements.values()].some((a) => a[key] === value)) {
        throw new HTTPException(409, { message: `${key}: ${value} is already used by another agreement` });
      }
    }
    const agreement = store.addAgreement(input);
    return c.json({ code: 200, response: { agreement_id: agreement.agreement_id } }, 200);
  });
  return routes;
}
