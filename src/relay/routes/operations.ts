/**
 * What the platform running the relay asks of it: liveness and readiness (the key store can take a claim now — for
 * Redis, it answers, takes writes and keeps keys — and the billing answers now). Metrics have a listener of their own
 * (metrics.ts), never the public port.
 */
import { Hono } from 'hono';
import type { RelayContext } from '../http/context.js';
import { RelayError } from '../http/errors.js';
import type { RouteDeps } from './deps.js';

export function operationRoutes({
  billing,
  redisGuard,
  idempotencyStore,
}: Pick<RouteDeps, 'billing' | 'redisGuard' | 'idempotencyStore'>): Hono<RelayContext> {
  const routes = new Hono<RelayContext>();

  routes.get('/healthz', (c) => c.json({ status: 'ok' }));

  routes.get('/readyz', async (c) => {
    try {
      await Promise.all([redisGuard?.check(), idempotencyStore.probe?.()]);
    } catch (error) {
      throw new RelayError('not_ready', { cause: error });
    }
    try {
      await billing.ready();
    } catch (error) {
      throw new RelayError('not_ready', {
        message: 'The billing service is not reachable or refuses the relay’s credentials.',
        cause: error,
      });
    }
    return c.json({ status: 'ready' });
  });

  return routes;
}
