/** Prometheus metrics of one relay, served at `GET /metrics`. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'relay_' });
  return {
    registry,
    requests: new Counter({
      name: 'relay_http_requests_total',
      help: 'HTTP requests answered, by route, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    billingLatency: new Histogram({
      name: 'relay_billing_request_duration_seconds',
      help: 'Duration of calls to the billing service, by operation and outcome (status, or the error).',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    tokenRefreshes: new Counter({
      name: 'relay_billing_token_refreshes_total',
      help: 'Bearer tokens obtained from GET /auth.',
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'relay_idempotent_replays_total',
      help: 'Answers replayed for a repeated Idempotency-Key.',
      registers: [registry],
    }),
    duplicatePayments: new Counter({
      name: 'relay_duplicate_payments_total',
      help: 'Payments answered 409 duplicate_payment: the same one was sent within DUPLICATE_WINDOW_SECONDS.',
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'relay_rate_limit_rejections_total',
      help: 'Requests refused with 429, by limit.',
      labelNames: ['limit'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
