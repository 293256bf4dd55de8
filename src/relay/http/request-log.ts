/**
 * One log line per request, when the level logs it, and the request counter: a route adds what it did (`logFields`)
 * rather than logging a line of its own.
 */
import { createMiddleware } from 'hono/factory';
import type { Logger } from 'pino';
import type { RelayContext } from './context.js';
import { RelayError } from './errors.js';
import type { Metrics } from '../observability/metrics.js';

/** `base`: the relay's `BASE_PATH`, left out of the metrics' route label so that it names the route wherever served. */
export function requestLog(logger: Logger, metrics: Metrics, base = '') {
  return createMiddleware<RelayContext>(async (c, next) => {
    const logged = logger.isLevelEnabled('info');
    const started = logged ? performance.now() : 0;
    await next();
    const path = c.req.routePath;
    const route =
      c.error instanceof RelayError && c.error.code === 'not_found'
        ? 'unmatched'
        : base && path.startsWith(`${base}/`)
          ? path.slice(base.length)
          : path;
    metrics.requests.inc({ route, method: c.req.method, status: c.res.status });
    if (!logged) return;
    logger.info(
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        ...c.get('logFields'),
      },
      'request',
    );
  });
}
