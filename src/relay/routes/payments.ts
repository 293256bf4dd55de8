/**
 * `GET /config` (what the widget may offer) and `POST /payments`, one chain: origin → rate limit per address → body size
 * → validate (the shared model, return URLs) → idempotency → rate limit per agreement → billing call → the answer.
 */
import { Hono } from 'hono';
import type { PaymentAnswer, PaymentOptions } from '../../eps/relay-api.js';
import type { ValidPayment } from '../../eps/request.js';
import { canSaveMethod, SYSTEMS } from '../../eps/systems.js';
import { paymentPage } from '../../eps/url.js';
import { longestAuthorizedCallMs } from '../billing/client.js';
import type { RelayConfig } from '../config.js';
import type { RelayEnv } from '../env.js';
import { jsonAnswer } from '../error-answer.js';
import { RelayError } from '../errors.js';
import { limitBody, refuseForeignOrigin, requireAllowedOrigin } from '../http/guards.js';
import { idempotency } from '../idempotency/middleware.js';
import { rateLimit } from '../rate-limit.js';
import { validatePayment } from '../validate-payment.js';
import type { RouteDeps } from './deps.js';

const MAX_BODY_BYTES = 16 * 1024;
/** An idempotency key's lease: longer than a payment can take, with a margin for the relay's own work. */
const leaseMs = (config: RelayConfig) => longestAuthorizedCallMs(config.billingTimeoutMs) + 5_000;

export function paymentRoutes(deps: RouteDeps): Hono<RelayEnv> {
  const { config, billing, logger, metrics, limiters, allowed, offered } = deps;
  const routes = new Hono<RelayEnv>();

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
    rateLimit(limiters.ip, deps.clientIp, () => metrics.rateLimited.inc({ limit: 'ip' })),
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
      (c) => agreementKey(c.get('payment')),
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
  return routes;
}

function agreementKey(payment: ValidPayment): string {
  return `${payment.agreement_param_id}:${payment.agreement_param_value.toLowerCase()}`;
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
