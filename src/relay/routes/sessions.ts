/**
 * `GET /session`, `GET /payment-methods` and `DELETE /payment-methods/{id}`: a signed client session (HS256, issued by
 * the merchant's backend) scopes each to one agreement. Limited per address before the session is checked (forged
 * sessions are counted too), then per session (its agreement).
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { RelayContext } from '../http/context.js';
import { RelayError } from '../http/errors.js';
import { requireAllowedOrigin } from '../http/guards.js';
import { ownPaymentMethods } from '../billing/payment-methods.js';
import { rateLimit } from '../limits/rate-limit.js';
import { verifyClientSession, type ClientSession } from '../session/client-session.js';
import type { RouteDeps } from './deps.js';

const LIMITED = 'Too many requests; try again in a moment.';

export function sessionRoutes(deps: RouteDeps): Hono<RelayContext> {
  const { config, billing, metrics, limiters } = deps;
  const routes = new Hono<RelayContext>();

  const verifySession = createMiddleware<RelayContext>(async (c, next) => {
    if (!config.sessionSecret) throw new RelayError('sessions_disabled');
    c.set(
      'session',
      await verifyClientSession(
        c.req.header('authorization'),
        [config.sessionSecret, ...(config.sessionSecretPrevious ? [config.sessionSecretPrevious] : [])],
        config.sessionMaxAgeSeconds,
      ),
    );
    await next();
  });
  const requireSession = [
    rateLimit(limiters.sessionIp, deps.clientKey, () => metrics.rateLimited.inc({ limit: 'session_ip' }), LIMITED),
    verifySession,
    rateLimit(
      limiters.session,
      (c) => deps.hash('session', String(c.get('session').agreementId)),
      () => metrics.rateLimited.inc({ limit: 'session' }),
      LIMITED,
    ),
  ] as const;

  const ownership = {
    agreementField: config.paymentMethodsAgreementField,
    trustScope: config.paymentMethodsTrustScope,
  };
  const listOwn = (session: ClientSession) =>
    billing
      .listPaymentMethods(session.agreementId, config.paymentMethodsAgreementParam)
      .then((records) => ownPaymentMethods(records, session.agreementId, ownership));

  routes.get('/session', ...requireSession, (c) => c.json({ agreement_id: c.get('session').agreementId }));

  routes.get('/payment-methods', ...requireSession, async (c) =>
    c.json({ payment_methods: await listOwn(c.get('session')) }),
  );

  routes.delete(
    '/payment-methods/:id{[0-9]{1,15}}',
    requireAllowedOrigin(deps.allowed),
    ...requireSession,
    async (c) => {
      const id = Number(c.req.param('id'));
      const session = c.get('session');
      // Only a method of the session's own agreement may be disabled: the billing is not asked otherwise.
      if (!(await listOwn(session)).some((method) => method.id === id)) {
        throw new RelayError('not_found', { message: 'There is no such payment method on this agreement.' });
      }
      await billing.disablePaymentMethod(id);
      c.set('logFields', { agreementId: session.agreementId, paymentMethodId: id });
      return c.json({ payment_methods: await listOwn(session) });
    },
  );
  return routes;
}
