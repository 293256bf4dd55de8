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
import type { PaymentAnswer, PaymentOptions } from '../eps/relay-api.js';
import type { ValidPayment } from '../eps/request.js';
import { canSaveMethod, SYSTEM_IDS, SYSTEMS } from '../eps/systems.js';
import { paymentPage } from '../eps/url.js';
import { longestAuthorizedCallMs, type BillingClient } from './billing-client.js';
import type { RelayConfig } from './config.js';
import { corsFor } from './cors.js';
import { RelayError, type ErrorStatus } from './errors.js';
import { idempotency, jsonAnswer, type AnswerVariables } from './idempotency/middleware.js';
import type { IdempotencyStore } from './idempotency/store.js';
import { createMetrics, type Metrics } from './metrics.js';
import { ownPaymentMethods } from './payment-methods.js';
import { createLimiters, rateLimit, type LimiterName } from './rate-limit.js';
import { verifyClientSession, type ClientSession } from './session.js';
import { validatePayment } from './validate-payment.js';
import { serveWidgetAssets, type WidgetAssets } from './widget-assets.js';

export interface RelayDeps {
  config: RelayConfig;
  billing: Pick<BillingClient, 'createPayment' | 'ready' | 'listPaymentMethods' | 'disablePaymentMethod'>;
  logger: Logger;
  metrics?: Metrics;
  /** Where idempotency keys live (server.ts gives SQLite, or Redis when REDIS_URL is set). */
  idempotencyStore: IdempotencyStore;
  limiters?: Record<LimiterName, RateLimiterAbstract>;
  /** The address of the peer on the socket (runtime-specific; server.ts gives Node's). */
  socketAddress?: (c: Context) => string | undefined;
  /** The built widget bundles to serve (src/relay/widget-assets.ts); `null` when they have not been built. */
  widgetAssets?: () => Promise<WidgetAssets | null>;
}

type Env = {
  Variables: RequestIdVariables &
    AnswerVariables & { payment: ValidPayment; session: ClientSession; logFields: Record<string, unknown> };
};

const MAX_BODY_BYTES = 16 * 1024;
const MAX_REQUEST_ID_LENGTH = 64;
/** An idempotency key's lease: longer than a payment can take, with a margin for the relay's own work. */
const leaseMs = (config: RelayConfig) => longestAuthorizedCallMs(config.billingTimeoutMs) + 5_000;

export function createRelayApp(deps: RelayDeps): Hono<Env> {
  const { config, billing, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const limiters = deps.limiters ?? createLimiters(config);
  const app = new Hono<Env>();
  const allowed = new Set(config.allowedOrigins);
  const offered = SYSTEM_IDS.filter((id) => config.epsUuids[id]);
  const clientIp = (c: Context) => {
    if (!config.trustProxy) return deps.socketAddress?.(c);
    return c.req.header(config.trustProxy)?.split(',').at(-1)?.trim() || deps.socketAddress?.(c);
  };

  // A client's X-Request-Id is taken only when short and of safe characters (letters, digits, _ - =); else a fresh one.
  app.use(requestId({ limitLength: MAX_REQUEST_ID_LENGTH }));
  app.use(async (c, next) => {
    // One line per request, when the level logs it; a route adds what it did (`logFields`) rather than logging a line of its own.
    const logged = logger.isLevelEnabled('info');
    const started = logged ? performance.now() : 0;
    await next();
    const route = c.error instanceof RelayError && c.error.code === 'not_found' ? 'unmatched' : c.req.routePath;
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
  app.use(securityHeaders(config));
  app.use(
    corsFor(allowed, {
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key', 'Authorization'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'],
      maxAge: 600,
    }),
  );

  // Made once: it follows from the configuration alone.
  const paymentOptions: PaymentOptions = {
    systems: offered.map((id) => ({ id, canSave: canSaveMethod(id), linkOnly: Boolean(SYSTEMS[id].linkOnly) })),
    lookups: config.lookups,
    maxAmount: config.maxAmountText,
  };
  app.get('/config', (c) => c.json(paymentOptions));

  app.post(
    '/payments',
    requireAllowedOrigin(allowed),
    rateLimit(limiters.ip, clientIp, () => metrics.rateLimited.inc({ limit: 'ip' })),
    limitBody(MAX_BODY_BYTES),
    validatePayment({ maxAmount: config.maxAmount, systems: offered, lookups: config.lookups }, allowed),
    // Before the agreement's limit: a retry of an answered payment gets its answer, not a 429.
    idempotency({
      store: deps.idempotencyStore,
      ttlMs: config.idempotencyTtlSeconds * 1000,
      leaseMs: leaseMs(config),
      onReplay: () => metrics.idempotentReplays.inc(),
      onStoreError: (c, error, operation) =>
        logger.error({ reqId: c.get('requestId'), err: error, operation }, 'idempotency store failed'),
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
      const answer: PaymentAnswer = {
        ...(redirectUrl && { redirect_url: redirectUrl }),
        payment: publicPayment(response, config.paymentAnswerFields),
      };
      return jsonAnswer(c, answer, 201);
    },
  );

  const sessionLimited = 'Too many requests; try again in a moment.';
  const verifySession = async (c: Context<Env>, next: () => Promise<void>) => {
    if (!config.sessionSecret)
      throw new RelayError(
        404,
        'sessions_disabled',
        'Client sessions are not configured on this relay (SESSION_SECRET).',
      );
    c.set(
      'session',
      await verifyClientSession(c.req.header('authorization'), config.sessionSecret, config.sessionMaxAgeSeconds),
    );
    await next();
  };
  // Per address before the session is checked (forged sessions are counted too), then per session (its agreement).
  const requireSession = [
    rateLimit(limiters.sessionIp, clientIp, () => metrics.rateLimited.inc({ limit: 'session_ip' }), sessionLimited),
    verifySession,
    rateLimit(
      limiters.session,
      (c) => `${(c.get('session') as ClientSession).agreementId}`,
      () => metrics.rateLimited.inc({ limit: 'session' }),
      sessionLimited,
    ),
  ] as const;
  const ownership = {
    agreementField: config.paymentMethodsAgreementField,
    trustScope: config.paymentMethodsTrustScope,
  };
  const listOwn = (session: ClientSession) =>
    billing
      .listPaymentMethods(session.agreementId, config.paymentMethodsAgreementParam)
      .then((records) => ownPaymentMethods(records, session.agreementId, ownership));

  app.get('/session', ...requireSession, (c) => c.json({ agreement_id: c.get('session').agreementId }));

  app.get('/payment-methods', ...requireSession, async (c) =>
    c.json({ payment_methods: await listOwn(c.get('session')) }),
  );

  app.delete('/payment-methods/:id{[0-9]{1,15}}', requireAllowedOrigin(allowed), ...requireSession, async (c) => {
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

  app.get(
    '/:file{[\\w-]+(?:\\.[0-9a-f]{10})?\\.(?:js|json)}',
    serveWidgetAssets(deps.widgetAssets ?? (async () => null)),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
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

  app.get('/metrics', async (c) =>
    c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
  );

  app.notFound(() => {
    throw new RelayError(404, 'not_found', 'There is nothing at this address.');
  });

  app.onError((error, c) => {
    const known = toRelayError(error);
    // The billing's own text of a refusal goes to the request's log line, never to the client.
    if (known.billingMessage !== undefined)
      c.set('logFields', { ...c.get('logFields'), billingMessage: known.billingMessage });
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

/**
 * The address of the payment page in the billing's answer (its shape is not documented), in its WHATWG serialisation.
 * The relay hands on only a page the widget would open (`paymentPage`, the one rule of both: `https:`, or `http:`
 * to this machine, with no user info), so a merchant that calls the API without the widget gets the widget's
 * protection. A page under one of the keys that is not safe is a 502: the billing's answer is wrong, and no client
 * is sent there. No page at all is a 201 without `redirect_url` (see `PaymentAnswer`).
 */
export function findRedirectUrl(response: Record<string, unknown>, keys: string[]): string | undefined {
  let unsafe = false;
  for (const key of keys) {
    const value = response[key];
    if (typeof value !== 'string') continue;
    const page = paymentPage(value);
    if (page !== null) return page;
    unsafe = true;
  }
  if (unsafe)
    throw new RelayError(
      502,
      'billing_error',
      'The billing service answered a payment page the relay does not send clients to.',
    );
  return undefined;
}

/**
 * What the browser gets of the billing's payment object: its `payment_id` and the fields the merchant lists in
 * `PAYMENT_ANSWER_FIELDS` (none by default), each only as a string, number or boolean. The rest of the billing's
 * answer — whatever it holds about the agreement's owner — stays in the relay.
 */
export function publicPayment(
  response: Record<string, unknown>,
  fields: string[],
): Record<string, string | number | boolean> {
  const answer: Record<string, string | number | boolean> = {};
  for (const field of ['payment_id', ...fields]) {
    const value = Object.hasOwn(response, field) ? response[field] : undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') answer[field] = value;
  }
  return answer;
}

function toRelayError(error: Error): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) return new RelayError(413, 'payload_too_large', 'The request body is too large.');
    if (status >= 400 && status < 500)
      return new RelayError(status as ErrorStatus, 'validation_failed', error.message || 'The request is not valid.');
  }
  return new RelayError(500, 'internal_error', 'Something went wrong in the relay; it has been logged.', {
    cause: error,
  });
}
