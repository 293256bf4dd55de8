/**
 * The relay as a Hono app: a web-standard request handler (`app.fetch`) that server.ts runs under Node. What every
 * request goes through (http/every-request.ts: request id, log line, security headers, CORS), then the routes by resource (routes/), under
 * `BASE_PATH`, then the one error answer (error-answer.ts).
 */
import { Hono, type Context } from 'hono';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { SYSTEM_IDS } from '../eps/systems.js';
import { addressGroup } from './limits/address-group.js';
import type { RelayContext } from './http/context.js';
import { answerError, notFound } from './http/error-answer.js';
import { everyRequest } from './http/every-request.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { keyedHasher } from './stores/keyed-hash.js';
import { createLimiters, type LimiterName } from './limits/rate-limit.js';
import type { RouteDeps } from './routes/deps.js';
import { operationRoutes } from './routes/operations.js';
import { paymentRoutes } from './routes/payments.js';
import { sessionRoutes } from './routes/sessions.js';
import { widgetAssetRoutes } from './routes/widget-assets.js';
import type { Traces } from './observability/traces.js';

export interface RelayDeps
  extends
    Pick<RouteDeps, 'config' | 'billing' | 'logger' | 'idempotencyStore' | 'recentPayments'>,
    Partial<Pick<RouteDeps, 'widgetAssets' | 'redisGuard'>> {
  metrics?: Metrics;
  limiters?: Record<LimiterName, RateLimiterAbstract>;
  /** A span per request (traces/); none when the relay has no OTLP endpoint. */
  traces?: Traces;
  /** The address of the peer on the socket (runtime-specific; server.ts gives Node's). */
  socketAddress?: (c: Context) => string | undefined;
}

export function createRelayApp(deps: RelayDeps): Hono<RelayContext> {
  const { config, logger } = deps;
  // Unset, derived from the billing credentials, which every relay of a fleet shares.
  const hash = keyedHasher(
    config.hashSecret ?? `${config.billingBaseUrl}\0${config.billingUsername}\0${config.billingPassword}`,
  );
  const clientIp = (c: Context) =>
    (config.trustProxy && c.req.header(config.trustProxy)?.split(',').at(-1)?.trim()) || deps.socketAddress?.(c);
  const routeDeps: RouteDeps = {
    ...deps,
    metrics: deps.metrics ?? createMetrics(),
    limiters: deps.limiters ?? createLimiters(config),
    allowed: new Set(config.allowedOrigins),
    offered: SYSTEM_IDS.filter((id) => config.epsUuids[id]),
    hash,
    clientIp,
    clientKey: (c) => {
      const address = clientIp(c);
      return address && hash('address', addressGroup(address, config.rateLimitIpv6Prefix));
    },
    widgetAssets: deps.widgetAssets ?? (async () => null),
  };

  const app = new Hono<RelayContext>();
  for (const middleware of everyRequest({ ...deps, metrics: routeDeps.metrics, allowed: routeDeps.allowed })) {
    app.use(middleware);
  }
  const base = config.basePath || '/';
  for (const routes of [paymentRoutes, sessionRoutes, widgetAssetRoutes, operationRoutes]) {
    app.route(base, routes(routeDeps));
  }
  // A load balancer probes the relay itself, where it knows no base path.
  if (config.basePath) app.route('/', operationRoutes(routeDeps));
  app.notFound(notFound);
  app.onError(answerError(logger));
  return app;
}
