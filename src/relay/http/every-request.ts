/**
 * What every request goes through before its route, in this order: its span (when traced), its request id, its log
 * line, the security headers, then CORS (which answers a preflight itself). The routes' own steps are in routes/.
 */
import type { MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import type { RelayConfig } from '../config/load.js';
import type { Metrics } from '../observability/metrics.js';
import type { Traces } from '../observability/traces.js';
import type { RelayContext } from './context.js';
import { corsFor } from './cors.js';
import { securityHeaders } from './guards.js';
import { requestLog } from './request-log.js';
import { traceRequests } from './trace-requests.js';

const MAX_REQUEST_ID_LENGTH = 64;

export interface EveryRequestDeps {
  config: Pick<RelayConfig, 'basePath' | 'trustProxy'>;
  logger: Logger;
  metrics: Metrics;
  traces?: Traces | undefined;
  /** The merchant's page origins (`ALLOWED_ORIGINS`). */
  allowed: Set<string>;
}

export function everyRequest({
  config,
  logger,
  metrics,
  traces,
  allowed,
}: EveryRequestDeps): MiddlewareHandler<RelayContext>[] {
  return [
    ...(traces ? [traceRequests(traces)] : []),
    // A client's X-Request-Id is taken only when short and of safe characters (letters, digits, _ - =); else a fresh one.
    requestId({ limitLength: MAX_REQUEST_ID_LENGTH }),
    requestLog(logger, metrics, config.basePath),
    securityHeaders(config),
    corsFor(allowed, {
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key', 'Authorization'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    }),
  ];
}
