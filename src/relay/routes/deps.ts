/** What the route modules are made from: the relay's configuration and services, resolved once by app.ts. */
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SystemId } from '../../eps/systems.js';
import type { BillingClient } from '../billing/client.js';
import type { RelayConfig } from '../config/load.js';
import type { IdempotencyStore } from '../stores/idempotency/store.js';
import type { KeyedHash } from '../stores/keyed-hash.js';
import type { Metrics } from '../observability/metrics.js';
import type { RecentPaymentStore } from '../stores/recent-payments/store.js';
import type { LimiterName } from '../limits/rate-limit.js';
import type { RedisGuard } from '../stores/redis-guard.js';
import type { WidgetAssets } from '../assets/widget-assets.js';

export interface RouteDeps {
  config: RelayConfig;
  billing: Pick<BillingClient, 'createPayment' | 'ready' | 'listPaymentMethods' | 'disablePaymentMethod'>;
  logger: Logger;
  metrics: Metrics;
  idempotencyStore: IdempotencyStore;
  /** With Redis: whether it keeps every key and takes writes now (readiness). */
  redisGuard?: Pick<RedisGuard, 'check'>;
  /** Recent payments, to ask before the same one is made twice (`DUPLICATE_WINDOW_SECONDS`). */
  recentPayments: RecentPaymentStore;
  limiters: Record<LimiterName, RateLimiterAbstract>;
  /** The merchant's page origins (`ALLOWED_ORIGINS`). */
  allowed: Set<string>;
  /** The systems with an `eps_uuid`, in order. */
  offered: SystemId[];
  /** Keyed digests of personal values (limiter keys, fingerprints): nothing personal is stored in clear. */
  hash: KeyedHash;
  /** The client's address: the trusted proxy's header, else the socket's. */
  clientIp: (c: Context) => string | undefined;
  /** What the limits per address count: the digest of the client's address group (address-group.ts). */
  clientKey: (c: Context) => string | undefined;
  /** The built widget bundles to serve; `null` when they have not been built. */
  widgetAssets: () => Promise<WidgetAssets | null>;
}
