/**
 * The relay as a Hono app: a web-standard request handler (`app.fetch`) that server.ts runs under Node. What every
 * request goes through (request id, log line, security headers, CORS), then the routes by resource (routes/), under
 * `BASE_PATH`, then the one error answer (error-answer.ts).
 */
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { SYSTEM_IDS } from '../eps/systems.js';
import { addressGroup } from './address-group.js';
import type { RelayEnv } from './env.js';
import { answerError, notFound } from './error-answer.js';
import { corsFor } from './http/cors.js';
import { securityHeaders } from './http/guards.js';
import { requestLog } from './http/request-log.js';
import { traceRequests } from './http/trace-requests.js';
import { createMetrics, type Metrics } from './metrics.js';
import { keyedHasher } from './keyed-hash.js';
import { createLimiters, type LimiterName } from './rate-limit.js';
import type { RouteDeps } from './routes/deps.js';
import { operationRoutes } from './routes/operations.js';
import { paymentRoutes } from './routes/payments.js';
import { sessionRoutes } from './routes/sessions.js';
import { widgetAssetRoutes } from './routes/widget-assets.js';
import type { Traces } from './traces/traces.js';

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

const MAX_REQUEST_ID_LENGTH = 64;

export function createRelayApp(deps: RelayDeps): Hono<RelayEnv> {
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

  const app = new Hono<RelayEnv>();
  if (deps.traces) app.use(traceRequests(deps.traces));
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
