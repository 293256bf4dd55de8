/**
 * The relay as a Hono app: a web-standard request handler (`app.fetch`) that server.ts runs under Node. The payment
 * route is one chain: origin → rate limit per address → body size → validate (the shared model, return URLs) →
 * idempotency → rate limit per agreement → billing call → shape the answer.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import type { Logger } from 'pino';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ValidPayment } from '../eps/request.js';
import { SYSTEM_IDS, SYSTEMS } from '../eps/systems.js';
import { longestAuthorizedCallMs, type BillingClient } from './billing-client.js';
import type { RelayConfig } from './config.js';
import { corsFor } from './cors.js';
import { RelayError, type ErrorStatus } from './errors.js';
import { idempotency, jsonAnswer, type AnswerVariables } from './idempotency.js';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency-store.js';
import { createMetrics, type Metrics } from './metrics.js';
import { ownPaymentMethods } from './payment-methods.js';
import { createLimiter, rateLimit } from './rate-limit.js';
import { verifyClientSession, type ClientSession } from './session.js';
import { validatePayment } from './validate-payment.js';
import { serveWidgetAssets, type WidgetAssets } from './widget-assets.js';

export interface RelayDeps {
  config: RelayConfig;
  billing: Pick<BillingClient, 'createPayment' | 'ready' | 'listPaymentMethods' | 'disablePaymentMethod'>;
  logger: Logger;
  metrics?: Metrics;
  /** Where idempotency keys live; in memory unless given (server.ts gives Redis when REDIS_URL is set). */
  idempotencyStore?: IdempotencyStore;
  limiters?: { ip: RateLimiterAbstract; agreement: RateLimiterAbstract };
  /** The address of the peer on the socket (runtime-specific; server.ts gives Node's). */
  socketAddress?: (c: Context) => string | undefined;
  /** The built widget bundles to serve (src/relay/widget-assets.ts); `null` when they have not been built. */
  widgetAssets?: () => Promise<WidgetAssets | null>;
}

type Env = {
  Variables: RequestIdVariables & AnswerVariables & { payment: ValidPayment; session: ClientSession; logFields: Record<string, unknown> };
};

const MAX_BODY_BYTES = 16 * 1024;
/** Longer than a payment can take, with a margin for the relay's own work. */
const lockMs = (config: RelayConfig) => longestAuthorizedCallMs(config.billingTimeoutMs) + 5_000;

export function createRelayApp(deps: RelayDeps): Hono<Env> {
  const { config, billing, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const limiters = deps.limiters ?? {
    ip: createLimiter('ip', config.rateLimitIp),
    agreement: createLimiter('agreement', config.rateLimitAgreement),
  };
  const app = new Hono<Env>();
  const allowed = new Set(config.allowedOrigins);
  const offered = SYSTEM_IDS.filter((id) => config.epsUuids[id]);
  const clientIp = (c: Context) => {
    if (!config.trustProxy) return deps.socketAddress?.(c);
    return c.req.header(config.trustProxy)?.split(',').at(-1)?.trim() || deps.socketAddress?.(c);
  };

  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    const route = c.error instanceof RelayError && c.error.code === 'not_found' ? 'unmatched' : c.req.routePath;
    metrics.requests.inc({ route, method: c.req.method, status: c.res.status });
    // One line per request; a route adds what it did (`logFields`) rather than logging a line of its own.
    logger.info(
      { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started), ...c.get('logFields') },
      'request',
    );
  });
  app.use(securityHeaders(config));
  app.use(
    corsFor(allowed, {
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key', 'Authorization'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    }),
  );

  app.get('/config', (c) =>
    c.json({
      systems: offered.map((id) => ({ id, canSave: Boolean(SYSTEMS[id].autopay), linkOnly: Boolean(SYSTEMS[id].linkOnly) })),
      lookups: config.lookups,
      maxAmount: config.maxAmountText,
    }),
  );

  app.post(
    '/payments',
    requireAllowedOrigin(allowed),
    rateLimit(limiters.ip, clientIp, () => metrics.rateLimited.inc({ limit: 'ip' })),
    limitBody(MAX_BODY_BYTES),
    validatePayment({ maxAmount: config.maxAmount, systems: offered, lookups: config.lookups }, allowed),
    // Before the agreement's limit: a retry of an answered payment gets its answer, not a 429.
    idempotency({
      store: deps.idempotencyStore ?? new MemoryIdempotencyStore(),
      ttlMs: config.idempotencyTtlSeconds * 1000,
      lockMs: lockMs(config),
      onReplay: () => metrics.idempotentReplays.inc(),
      onStoreError: (c, error, operation) => logger.error({ reqId: c.get('requestId'), err: error, operation }, 'idempotency store failed'),
    }),
    rateLimit(
      limiters.agreement,
      (c) => agreementKey(c.get('payment') as ValidPayment),
      () => metrics.rateLimited.inc({ limit: 'agreement' }),
    ),
    async (c) => {
      const payment = c.get('payment');
      const response = await billing.createPayment(payment, config.epsUuids[payment.system]!);
      const redirectUrl = findRedirectUrl(response, config.redirectUrlKeys);
      c.set('logFields', { system: payment.system, amount: payment.amount, redirect: Boolean(redirectUrl) });
      return jsonAnswer(c, { ...(redirectUrl && { redirect_url: redirectUrl }), payment: response }, 201);
    },
  );

  const requireSession = async (c: Context<Env>, next: () => Promise<void>) => {
    if (!config.sessionSecret) throw new RelayError(404, 'sessions_disabled', 'Client sessions are not configured on this relay (SESSION_SECRET).');
    c.set('session', await verifyClientSession(c.req.header('authorization'), config.sessionSecret));
    await next();
  };
  const listOwn = (session: ClientSession) =>
    billing.listPaymentMethods(session.agreementId, config.paymentMethodsAgreementParam).then((records) => ownPaymentMethods(records, session.agreementId));

  app.get('/session', requireSession, (c) => c.json({ agreement_id: c.get('session').agreementId }));

  app.get('/payment-methods', requireSession, async (c) => c.json({ payment_methods: await listOwn(c.get('session')) }));

  app.delete('/payment-methods/:id{[0-9]{1,15}}', requireAllowedOrigin(allowed), requireSession, async (c) => {
    const id = Number(c.req.param('id'));
    const session = c.get('session');
    // Only a method of the session's own agreement may be disabled: the billing is not asked otherwise.
    if (!(await listOwn(session)).some((method) => method.id === id)) {
      throw new RelayError(404, 'not_found', 'There is no such payment method on this agreement.');
    }
    await billing.disablePaymentMethod(id);
    c.set('logFields', { agreementId: session.agreementId, paymentMethodId: id });
    return c.json({ payment_methods: await listOwn(session) });
  });

  app.get('/:file{[\\w-]+(?:\\.[0-9a-f]{10})?\\.(?:js|json)}', serveWidgetAssets(deps.widgetAssets ?? (async () => null)));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    try {
      await billing.ready();
    } catch (error) {
      throw new RelayError(503, 'not_ready', 'The billing service is not reachable or refuses the relay’s credentials.', { cause: error });
    }
    return c.json({ status: 'ready' });
  });

  app.get('/metrics', async (c) => c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }));

  app.notFound(() => {
    throw new RelayError(404, 'not_found', 'There is nothing at this address.');
  });

  app.onError((error, c) => {
    const known = toRelayError(error);
    if (known.status >= 500) {
      logger.error({ reqId: c.get('requestId'), code: known.code, err: error.cause ?? error }, known.message);
    }
    if (known.retryAfterSeconds !== undefined) c.header('Retry-After', String(known.retryAfterSeconds));
    return jsonAnswer(c, known.toBody(), known.status);
  });

  return app;
}

function agreementKey(payment: ValidPayment): string {
  return `${payment.agreement_param_id}:${payment.agreement_param_value.toLowerCase()}`;
}

/** Answers are for one client only and never cached; HSTS once the relay is reached over TLS. */
function securityHeaders(config: RelayConfig) {
  // Set before the route answers, so they go into the answer as it is made (setting them afterwards turns the
  // node-server's light response into a full `Response`: measured costly). A route may set its own Cache-Control.
  return async (c: Context, next: () => Promise<void>) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const proto = config.trustProxy ? c.req.header('x-forwarded-proto') : undefined;
    if (c.req.url.startsWith('https:') || proto === 'https') {
      c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
    await next();
  };
}

/**
 * Refuses a body above `max` bytes with a 413. A declared `Content-Length` is checked as it is (Node's parser holds the
 * body to it), which spares Hono's `bodyLimit` — it wraps the body in a web stream, measured as the costliest step of
 * the relay (see bench/results.md); a body without one (chunked) is still counted by `bodyLimit` as it streams in.
 */
function limitBody(max: number): MiddlewareHandler {
  const tooLarge = () => new RelayError(413, 'payload_too_large', `The request body is larger than ${max} bytes.`);
  const streamed = bodyLimit({
    maxSize: max,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined) return streamed(c, next);
    if (!/^\d{1,15}$/.test(length) || Number(length) > max) throw tooLarge();
    await next();
  };
}

/** A payment may only be started from one of the merchant's pages (browsers always send Origin on a POST). */
function requireAllowedOrigin(allowed: Set<string>) {
  return async (c: Context, next: () => Promise<void>) => {
    const origin = c.req.header('origin');
    if (!origin || !allowed.has(origin)) {
      throw new RelayError(403, 'origin_not_allowed', 'Payments may only be started from the merchant’s own pages.');
    }
    await next();
  };
}

/** The address of the payment page in the billing's answer (its shape is not documented). */
export function findRedirectUrl(response: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = response[key];
    if (typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
  }
  return undefined;
}

function toRelayError(error: Error): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return new RelayError(413, 'payload_too_large', 'The request body is too large.');
    if (status >= 400 && status < 500) return new RelayError(status as ErrorStatus, 'validation_failed', error.message || 'The request is not valid.');
  }
  return new RelayError(500, 'internal_error', 'Something went wrong in the relay; it has been logged.', { cause: error });
}
