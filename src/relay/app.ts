/**
 * The relay as a web-standard request handler (Hono): it runs under Node (see server.ts), in serverless functions
 * and on edge runtimes alike. The payment route is one chain:
 * origin → body → validate → return URLs → billing call → shape the answer.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import type { Logger } from 'pino';
import { checkPayment } from '../eps/request.js';
import { problemText } from '../eps/messages.js';
import { SYSTEM_IDS, SYSTEMS, returnUrlParams, type SystemId } from '../eps/systems.js';
import type { BillingClient } from './billing-client.js';
import type { RelayConfig } from './config.js';
import { RelayError } from './errors.js';

export interface RelayDeps {
  config: RelayConfig;
  billing: Pick<BillingClient, 'createPayment' | 'token'>;
  logger: Logger;
  /** The built widget bundle, served at `/billing-pay.js`; `null` when it has not been built. */
  widgetBundle?: () => Promise<string | null>;
}

type Env = { Variables: RequestIdVariables };

const MAX_BODY_BYTES = 16 * 1024;

export function createRelayApp({ config, billing, logger, widgetBundle }: RelayDeps): Hono<Env> {
  const app = new Hono<Env>();
  const allowed = new Set(config.allowedOrigins);
  const offered = SYSTEM_IDS.filter((id) => config.epsUuids[id]);

  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    logger.info(
      { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  app.use(
    cors({
      origin: (origin) => (allowed.has(origin) ? origin : null),
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key'],
      exposeHeaders: ['X-Request-Id', 'Retry-After'],
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
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new RelayError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      },
    }),
    async (c) => {
      const input = await readJson(c);
      const checked = checkPayment(input, { maxAmount: config.maxAmount, systems: offered, lookups: config.lookups });
      const problems = checked.ok ? foreignReturnUrls(checked.value.system, checked.value.params, allowed) : checked.fields;
      if (!checked.ok || Object.keys(problems).length) {
        throw new RelayError(422, 'validation_failed', 'The payment request is not valid.', { fields: describe(problems) });
      }
      const payment = checked.value;
      const response = await billing.createPayment(payment, config.epsUuids[payment.system]!);
      const redirectUrl = findRedirectUrl(response, config.redirectUrlKeys);
      logger.info({ reqId: c.get('requestId'), system: payment.system, amount: payment.amount, redirect: Boolean(redirectUrl) }, 'payment created');
      return c.json({ ...(redirectUrl && { redirect_url: redirectUrl }), payment: response }, 201);
    },
  );

  app.get('/billing-pay.js', async (c) => {
    const bundle = await widgetBundle?.();
    if (!bundle) throw new RelayError(404, 'not_found', 'The widget has not been built (npm run build).');
    return c.body(bundle, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.notFound(() => {
    throw new RelayError(404, 'not_found', 'There is nothing at this address.');
  });

  app.onError((error, c) => {
    const known = toRelayError(error);
    if (known.status >= 500) {
      logger.error({ reqId: c.get('requestId'), code: known.code, err: error.cause ?? error }, known.message);
    }
    return c.json(known.toBody(), known.status);
  });

  return app;
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

async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new RelayError(415, 'unsupported_media_type', 'Send the payment as JSON (Content-Type: application/json).');
  }
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new RelayError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** Every address the client will be sent back to must be on one of the merchant's origins: no open redirect. */
function foreignReturnUrls(system: SystemId, params: Record<string, unknown>, allowed: Set<string>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of returnUrlParams(system)) {
    const value = params[name];
    if (typeof value === 'string' && !allowed.has(new URL(value).origin)) problems[`eps_params.${name}`] = 'origin';
  }
  return problems;
}

function describe(problems: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, problemText(key)]));
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
    if (status < 500) return new RelayError(status, 'validation_failed', error.message || 'The request is not valid.');
  }
  return new RelayError(500, 'internal_error', 'Something went wrong in the relay; it has been logged.', { cause: error });
}
