/**
 * The relay as a Hono app: a web-standard request handler (`app.fetch`) that server.ts runs under Node. What every
 * request goes through (request id, log line, security headers, CORS), then the routes by resource (routes/), under
 * `BASE_PATH`, then the one error answer (error-answer.ts).
 */
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { SYSTEM_IDS } from '../eps/systems.js';
import type { RelayEnv } from './env.js';
import { answerError, notFound } from './error-answer.js';
import { corsFor } from './http/cors.js';
import { securityHeaders } from './http/guards.js';
import { requestLog } from './http/request-log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { keyedHasher } from './keyed-hash.js';
import { createLimiters, type LimiterName } from './rate-limit.js';
import type { RouteDeps } from './routes/deps.js';
import { operationRoutes } from './routes/operations.js';
import { paymentRoutes } from './routes/payments.js';
import { sessionRoutes } from './routes/sessions.js';
import { widgetAssetRoutes } from './routes/widget-assets.js';

export interface RelayDeps
  extends
    Pick<RouteDeps, 'config' | 'billing' | 'logger' | 'idempotencyStore'>,
    Partial<Pick<RouteDeps, 'widgetAssets'>> {
  metrics?: Metrics;
  limiters?: Record<LimiterName, RateLimiterAbstract>;
  /** The address of the peer on the socket (runtime-specific; server.ts gives Node's). */
  socketAddress?: (c: Context) => string | undefined;
}

const MAX_REQUEST_ID_LENGTH = 64;

export function createRelayApp(deps: RelayDeps): Hono<RelayEnv> {
  const { config, logger } = deps;
  const routeDeps: RouteDeps = {
    ...deps,
    metrics: deps.metrics ?? createMetrics(),
    limiters: deps.limiters ?? createLimiters(config),
    allowed: new Set(config.allowedOrigins),
    offered: SYSTEM_IDS.filter((id) => config.epsUuids[id]),
    // Derived from the billing credentials, which every relay of a fleet shares.
    hash: keyedHasher(`${config.billingBaseUrl}\0${config.billingUsername}\0${config.billingPassword}`),
    clientIp: (c) =>
      (config.trustProxy && c.req.header(config.trustProxy)?.split(',').at(-1)?.trim()) || deps.socketAddress?.(c),
    widgetAssets: deps.widgetAssets ?? (async () => null),
  };

  const app = new Hono<RelayEnv>();
  // A client's X-Request-Id is taken only when short and of safe characters (letters, digits, _ - =); else a fresh one.
  app.use(requestId({ limitLength: MAX_REQUEST_ID_LENGTH }));
  app.use(requestLog(logger, routeDeps.metrics, config.basePath));
  app.use(securityHeaders(config));
  app.use(
    corsFor(routeDeps.allowed, {
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key', 'Authorization'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    }),
  );
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
