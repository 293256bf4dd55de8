/**
 * The billing REST API of the spec, mounted under `/api/rest/v1`: one sub-app per resource, behind what every request
 * goes through first — the log in `calls` (refused requests too), the fault set on `any` (an outage of the whole
 * service, before authentication), the 64 KB body limit, and the body read once.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { SYSTEM_IDS, type SystemId } from '../../eps/systems.js';
import { bearerAuth } from '../auth.js';
import { injectFaults } from '../faults.js';
import { limitBody } from '../http.js';
import type { SandboxState } from '../state.js';
import { agreementRoutes } from './agreements.js';
import { authRoutes } from './auth.js';
import { epsPaymentRoutes } from './eps-payments.js';
import { paymentMethodRoutes } from './payment-methods.js';
import { readBody, recordCall, type ApiContext, type ApiEnv } from './request.js';
import { subscriptionRoutes } from './subscriptions.js';
import { tariffRoutes } from './tariffs.js';
import { userRoutes } from './users.js';

export interface BillingApiOptions {
  /** Basic credentials of `GET /auth`. */
  username: string;
  password: string;
  /** The `eps_uuid` of each payment system. */
  epsUuids: Readonly<Record<SystemId, string>>;
  /** The origin of the hosted pages for `confirmation_url` (no trailing slash). */
  linkOrigin(c: Context): string;
}

export function billingApi(state: SandboxState, options: BillingApiOptions): Hono<ApiEnv> {
  const systemOf = new Map(SYSTEM_IDS.map((system) => [options.epsUuids[system], system]));
  if (systemOf.size !== SYSTEM_IDS.length || [...systemOf.keys()].some((uuid) => !uuid)) {
    throw new TypeError('epsUuids needs three different, non-empty identifiers (A, B, C)');
  }
  const ctx: ApiContext = {
    state,
    bearer: bearerAuth(state.tokens),
    fault: (route) => injectFaults(state.faults, route, state.closing.signal),
    count:
      (route): MiddlewareHandler =>
      async (_c, next) => {
        state.counts[route] += 1;
        await next();
      },
  };

  const api = new Hono<ApiEnv>();
  api.use('*', recordCall(state.calls));
  api.use('*', ctx.fault('any'));
  api.use('*', limitBody(64));
  api.use('*', readBody);

  api.route('/auth', authRoutes(ctx, options));
  api.route('/users', userRoutes(ctx));
  api.route('/agreements', agreementRoutes(ctx));
  api.route('/subscriptions', subscriptionRoutes(ctx));
  api.route('/tariffs', tariffRoutes(ctx));
  api.route('/eps_payments', epsPaymentRoutes(ctx, { systemOf, linkOrigin: options.linkOrigin }));
  api.route('/payment_methods', paymentMethodRoutes(ctx));
  return api;
}
