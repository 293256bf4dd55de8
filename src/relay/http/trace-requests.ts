/** Each request in a span of its own (traces/), joined to the caller's `traceparent`. */
import { createMiddleware } from 'hono/factory';
import type { RelayContext } from './context.js';
import { RelayError } from './errors.js';
import type { Traces } from '../observability/traces.js';

export function traceRequests(traces: Traces) {
  return createMiddleware<RelayContext>((c, next) =>
    traces.request(
      { method: c.req.method, traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') },
      async () => {
        await next();
        const error = c.error instanceof RelayError ? c.error.code : undefined;
        return {
          ...(error !== 'not_found' && { route: c.req.routePath }),
          status: c.res.status,
          ...(error && { error }),
        };
      },
    ),
  );
}
