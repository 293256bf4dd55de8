/**
 * `GET /config` (what the widget may offer) and `POST /payments`, one chain: origin → rate limit per address group →
 * body size → validate (the shared model, return URLs) → idempotency (a replay checked as a fresh answer) → rate limit
 * per lookup value → the address's budget of lookups that found nothing → the same payment a moment ago → billing call
 * (its key's claim marked sending last before it leaves) → the answer.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { isRecord } from '../../eps/is-record.js';
import type { PaymentAnswer, PaymentOptions } from '../../eps/relay-api.js';
import { lookupValueKey } from '../../eps/lookup-key.js';
import type { ValidPayment } from '../../eps/request.js';
import { canSaveMethod, SYSTEMS } from '../../eps/systems.js';
import { paymentPage } from '../../eps/url.js';
import { longestAuthorizedCallMs } from '../billing/client.js';
import type { RelayConfig } from '../config/load.js';
import type { RelayContext } from '../http/context.js';
import { jsonAnswer } from '../http/error-answer.js';
import { RelayError } from '../http/errors.js';
import { limitBody, refuseForeignOrigin, requireAllowedOrigin } from '../http/guards.js';
import { idempotency } from '../stores/idempotency/middleware.js';
import type { KeyedHash } from '../stores/keyed-hash.js';
import { limitOutcome, rateLimit } from '../limits/rate-limit.js';
import { duplicateGuard } from '../stores/recent-payments/middleware.js';
import { validatePayment } from '../http/validate-payment.js';
import type { RouteDeps } from './deps.js';

const MAX_BODY_BYTES = 16 * 1024;
/** An idempotency key's lease: longer than a payment can take, with a margin for the relay's own work. */
const leaseMs = (config: RelayConfig) => longestAuthorizedCallMs(config.billingTimeoutMs) + 5_000;

export function paymentRoutes(deps: RouteDeps): Hono<RelayContext> {
  const { config, billing, logger, metrics, limiters, allowed, offered } = deps;
  const routes = new Hono<RelayContext>();

  // Made once: it follows from the configuration alone.
  const paymentOptions: PaymentOptions = {
    systems: offered.map((id) => ({ id, canSave: canSaveMethod(id), linkOnly: Boolean(SYSTEMS[id].linkOnly) })),
    lookups: config.lookups,
    maxAmount: config.maxAmountText,
    autopayLeadDays: config.autopayLeadDays,
  };
  routes.get('/config', refuseForeignOrigin(allowed), (c) => c.json(paymentOptions));

  routes.post(
    '/payments',
    requireAllowedOrigin(allowed),
    rateLimit(limiters.ip, deps.clientKey, () => metrics.rateLimited.inc({ limit: 'ip' })),
    limitBody(MAX_BODY_BYTES),
    validatePayment({ maxAmount: config.maxAmount, systems: offered, lookups: config.lookups }, allowed),
    checkReplayedAnswer,
    // Before the agreement's limit: a retry of an answered payment gets its answer, not a 429.
    idempotency({
      store: deps.idempotencyStore,
      hash: deps.hash,
      ttlMs: config.idempotencyTtlSeconds * 1000,
      leaseMs: leaseMs(config),
      onReplay: () => metrics.idempotentReplays.inc(),
      onStoreError: (c, error, operation) =>
        logger.error({ reqId: c.get('requestId'), err: error, operation }, 'idempotency store failed'),
    }),
    rateLimit(
      limiters.agreement,
      (c) => agreementKey(deps.hash, c.get('payment')),
      () => metrics.rateLimited.inc({ limit: 'agreement' }),
    ),
    limitOutcome(
      limiters.notFound,
      deps.clientKey,
      (outcome) => outcome instanceof RelayError && outcome.code === 'agreement_not_found',
      () => metrics.rateLimited.inc({ limit: 'not_found' }),
    ),
    // After idempotency: a retry of the first payment with its key replays it, and is not a duplicate.
    duplicateGuard({
      store: deps.recentPayments,
      windowMs: config.duplicateWindowSeconds * 1000,
      hash: deps.hash,
      onDuplicate: () => metrics.duplicatePayments.inc(),
      onStoreError: (c, error, operation) =>
        logger.error({ reqId: c.get('requestId'), err: error, operation }, 'recent payments store failed'),
    }),
    async (c) => {
      const payment = c.get('payment');
      const response = await billing.createPayment(payment, config.epsUuids[payment.system]!, c.get('beforeBilling'));
      const redirectUrl = findRedirectUrl(response, config.redirectUrlKeys);
      c.set('logFields', { system: payment.system, amount: payment.amount, redirect: Boolean(redirectUrl) });
      const answer: PaymentAnswer = {
        ...(redirectUrl && { redirect_url: redirectUrl }),
        payment: publicPayment(response, config.paymentAnswerFields),
      };
      return jsonAnswer(c, answer, 201);
    },
  );
  return routes;
}

/** The digest of the lookup, its value written as every writing of it is (the same value, however spaced). */
function agreementKey(hash: KeyedHash, payment: ValidPayment): string {
  const kind = payment.agreement_param_id;
  return hash('lookup', String(kind), lookupValueKey(kind, payment.agreement_param_value));
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
  if (unsafe) throw unsafePage();
  return undefined;
}

const unsafePage = () =>
  new RelayError('billing_error', {
    message: 'The billing service answered a payment page the relay does not send clients to.',
  });

/**
 * A replayed 201 passes the check its fresh answer passed (`findRedirectUrl`): a stored answer altered in the store
 * sends no client to a page the billing's own answer could not have.
 */
const checkReplayedAnswer = createMiddleware<RelayContext>(async (c, next) => {
  await next();
  if (c.res.status !== 201 || c.res.headers.get('idempotent-replayed') !== 'true') return;
  const answer: unknown = await c.res
    .clone()
    .json()
    .catch(() => null);
  const page = isRecord(answer) ? answer.redirect_url : null;
  if (page === undefined || (typeof page === 'string' && paymentPage(page) === page)) return;
  // The error's answer takes on the headers of the answer it replaces.
  c.res.headers.delete('idempotent-replayed');
  throw unsafePage();
});

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
