/** What every answer carries, and what a request must be before a route reads it: origin and body size. */
import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { RelayConfig } from '../config/load.js';
import type { RelayContext } from './context.js';
import { RelayError } from './errors.js';

/** Answers are for one client only and never cached; HSTS once the relay is reached over TLS. */
export function securityHeaders(config: Pick<RelayConfig, 'trustProxy'>) {
  // Set before the route answers, so they go into the answer as it is made (setting them afterwards turns the
  // node-server's light response into a full `Response`: measured costly). A route may set its own Cache-Control.
  return createMiddleware<RelayContext>(async (c, next) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const proto = config.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
    if (c.req.url.startsWith('https:') || proto === 'https') {
      c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
    await next();
  });
}

/**
 * Refuses a body above `max` bytes with a 413. A declared `Content-Length` is checked as it is (Node's parser holds the
 * body to it), which spares Hono's `bodyLimit` — it wraps the body in a web stream, the costliest step of the relay in
 * a CPU profile of `npm run bench` (no figure recorded); a body without one (chunked) is still counted by `bodyLimit`.
 */
export function limitBody(max: number) {
  const tooLarge = () =>
    new RelayError('payload_too_large', { message: `The request body is larger than ${max} bytes.` });
  const streamed = bodyLimit({
    maxSize: max,
    onError: () => {
      throw tooLarge();
    },
  });
  return createMiddleware<RelayContext>(async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined) return streamed(c, next);
    if (!/^\d{1,15}$/.test(length) || Number(length) > max) throw tooLarge();
    await next();
  });
}

/** The request's log line names the origin and the variable that would allow it. */
function logRefusedOrigin(c: Context<RelayContext>, origin: string | undefined): void {
  c.set('logFields', { ...c.get('logFields'), origin: origin ?? null, refused: 'origin not in ALLOWED_ORIGINS' });
}

/** A payment may only be started from one of the merchant's pages (browsers always send Origin on a POST). */
export function requireAllowedOrigin(allowed: Set<string>) {
  return createMiddleware<RelayContext>(async (c, next) => {
    const origin = c.req.header('origin');
    if (!origin || !allowed.has(origin)) {
      logRefusedOrigin(c, origin);
      throw new RelayError('origin_not_allowed');
    }
    await next();
  });
}

/**
 * A page of another origin (one that sends `Origin` and is not in `ALLOWED_ORIGINS`) is refused with a 403
 * `origin_not_allowed` that it may read (CORS for that answer only): a CORS failure would reach its script as a bare
 * network error. A request without `Origin` (same-origin GET, curl) passes.
 */
export function refuseForeignOrigin(allowed: Set<string>) {
  return createMiddleware<RelayContext>(async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowed.has(origin)) {
      logRefusedOrigin(c, origin);
      c.header('Access-Control-Allow-Origin', origin);
      throw new RelayError('origin_not_allowed', {
        message: `The relay's ALLOWED_ORIGINS does not name ${origin}: add it there for the widget to work on this page.`,
      });
    }
    await next();
  });
}
