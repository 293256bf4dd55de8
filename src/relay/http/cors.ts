/**
 * CORS for the merchant's page origins only. Hono's `cors` middleware writes its headers on `c.res` before the route
 * answers; the route's answer then has to be copied into a full web `Response` (its body read back through a web
 * stream) to take them, on every request. Measured with `npm run bench` (CPU profile, bench/history.md): about 30 % of
 * the relay's CPU per payment.
 * These headers go through `c.header()` into the answer as it is made.
 */
import type { MiddlewareHandler } from 'hono';

export interface CorsOptions {
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  /** Seconds a browser may cache a preflight answer. */
  maxAge: number;
}

export function corsFor(allowed: Set<string>, options: CorsOptions): MiddlewareHandler {
  const methods = options.allowMethods.join(',');
  const requestHeaders = options.allowHeaders.join(',');
  const exposed = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAge);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const allowedOrigin = origin !== undefined && allowed.has(origin);
    c.header('Vary', 'Origin', { append: true });
    if (allowedOrigin) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', exposed);
    }
    if (c.req.method !== 'OPTIONS') return next();
    // A preflight: a foreign origin gets no Access-Control-Allow-* header, so its browser refuses the request.
    if (allowedOrigin) {
      c.header('Access-Control-Allow-Methods', methods);
      c.header('Access-Control-Allow-Headers', requestHeaders);
      c.header('Access-Control-Max-Age', maxAge);
    }
    return c.body(null, 204);
  };
}
