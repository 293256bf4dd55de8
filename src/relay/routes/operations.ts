/**
 * What the platform running the relay asks of it: liveness and readiness (the billing answers now). Metrics have a
 * listener of their own (metrics.ts), never the public port.
 */
import { Hono } from 'hono';
import type { RelayEnv } from '../env.js';
import { RelayError } from '../errors.js';
import type { RouteDeps } from './deps.js';

export function operationRoutes({ billing }: Pick<RouteDeps, 'billing'>): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();

  routes.get('/healthz', (c) => c.json({ status: 'ok' }));

  routes.get('/readyz', async (c) => {
    try {
      await billing.ready();
    } catch (error) {
      throw new RelayError(
        503,
        'not_ready',
        'The billing service is not reachable or refuses the relay’s credentials.',
        { cause: error },
      );
    }
    return c.json({ status: 'ready' });
  });

  return routes;
}
