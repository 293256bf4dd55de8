/**
 * The relay under Node: `npm run relay` starts it from the environment (and `.env`) through bin.ts; its command line
 * (`--help`, `--version`, `init`) is cli.ts. `npm run build` bundles it, with its server dependencies, into
 * `dist/relay/server.js` (the `billing-pay-relay` bin).
 * `startRelay` is also what `npm start` and the integration tests use.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { createRelayApp } from './app.js';
import type { RelayContext } from './http/context.js';
import { answerError, notFound } from './http/error-answer.js';
import { BillingClient, longestAuthorizedCallMs } from './billing/client.js';
import { runCommandLine } from './config/cli.js';
import { ConfigError, loadConfig, type RelayConfig } from './config/load.js';
import { RedisIdempotencyStore } from './stores/idempotency/redis-store.js';
import { openSqliteStore } from './stores/idempotency/sqlite-store.js';
import { createLogger, logSecretsOf } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { createLimiters } from './limits/rate-limit.js';
import { RedisRecentPayments } from './stores/recent-payments/redis-store.js';
import { openSqliteRecentPayments } from './stores/recent-payments/sqlite-store.js';
import { closeRedis, connectRedis } from './stores/redis-connection.js';
import { RedisGuard } from './stores/redis-guard.js';
import { loadTraces } from './observability/traces.js';
import { loadWidgetAssets, type WidgetAssets } from './assets/widget-assets.js';

export interface Relay {
  /** Where the relay answers: its address and `BASE_PATH`, as the widget's `relay` attribute names it. */
  url: string;
  /** The metrics listener's address (`METRICS_PORT`), which serves `/metrics`; absent: no metrics served. */
  metricsUrl?: string;
  config: RelayConfig;
  /** Stops taking connections, lets requests in flight finish, then closes the billing pool and Redis. */
  close(): Promise<void>;
}

const ASSET_RETRY_MS = 10_000;
/** The package's dist/: the nearest above this module that holds one (src/relay/, or a chunk of dist/relay/). */
const DIST = ((): string => {
  let dir = new URL('./', import.meta.url);
  while (!existsSync(new URL('dist/bundles.json', dir)) && dir.pathname !== '/') dir = new URL('../', dir);
  return fileURLToPath(new URL('dist/', dir));
})();

export async function startRelay(config: RelayConfig, logger: Logger = createLogger(config.logLevel)): Promise<Relay> {
  const metrics = createMetrics();
  const secrets = logSecretsOf(logger);
  for (const secret of config.secrets) secrets.add(secret);
  const redis = await connectRedis(config, logger);
  const redisGuard = redis && new RedisGuard(redis, logger, config.redisKeyPrefix);
  // Its verdict is logged; a Redis that may evict keys is refused by each claim (and readiness), not by the start.
  await redisGuard?.refresh().catch((error: unknown) => logger.warn({ err: error }, 'redis maxmemory-policy not read'));
  // The `WAIT`-ed writes on a connection of their own: a `WAIT` held up by replica lag holds up nothing else.
  const waitConnection =
    redis && config.redisWaitReplicas
      ? await connectRedis(config, logger).catch(async (error: unknown) => {
          await closeRedis(redis);
          throw error;
        })
      : undefined;
  const idempotencyStore = redis
    ? new RedisIdempotencyStore(redis, config.redisKeyPrefix, undefined, {
        waitReplicas: config.redisWaitReplicas,
        ...(waitConnection && { waitConnection }),
        admit: () => redisGuard!.admit(),
      })
    : await openSqliteStore(config.storeFile);
  const recentPayments = redis
    ? new RedisRecentPayments(redis, config.redisKeyPrefix)
    : await openSqliteRecentPayments(config.storeFile);
  const traces = await loadTraces(config);
  const billing = new BillingClient(config, { metrics, redis, secrets, traces, logger });
  // Read on first use and kept; not built (or built partly): logged, and read again at most every 10 s — not on every
  // request, which would let any GET make the relay read and decompress every bundle again.
  let assets: Promise<WidgetAssets | null> | undefined;
  const widgetAssets = () =>
    (assets ??= loadWidgetAssets(DIST).catch((error: unknown) => {
      logger.warn({ err: error }, 'widget bundles not served');
      setTimeout(() => (assets = undefined), ASSET_RETRY_MS).unref();
      return null;
    }));
  const app = createRelayApp({
    config,
    billing,
    logger,
    metrics,
    idempotencyStore,
    ...(redisGuard && { redisGuard }),
    recentPayments,
    limiters: createLimiters(config, redis),
    socketAddress: (c) => getConnInfo(c).remote.address,
    widgetAssets,
    traces,
  });

  const limits = config.server;
  const server = await listen({
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    serverOptions: {
      // A client that sends its headers, or its whole request, too slowly is cut off (slowloris); an idle
      // keep-alive connection is closed. Node checks these every `connectionsCheckingInterval`.
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
  });
  // Past this many open connections, a new one is closed at once.
  (server as import('node:net').Server).maxConnections = limits.maxConnections;
  const metricsServer =
    config.metrics &&
    (await listen({ fetch: metricsApp(metrics, logger).fetch, ...config.metrics }).catch((error: unknown) => {
      server.close();
      throw error;
    }));
  return {
    url: `${addressOf(server, config.host)}${config.basePath}`,
    ...(metricsServer && { metricsUrl: addressOf(metricsServer, config.metrics!.host) }),
    config,
    async close() {
      // Requests in flight finish; each keep-alive connection is closed as soon as it falls idle.
      const sweep = setInterval(() => 'closeIdleConnections' in server && server.closeIdleConnections(), 50);
      metricsServer?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearInterval(sweep);
      await billing.close();
      await idempotencyStore.close();
      if (waitConnection) await closeRedis(waitConnection);
      await recentPayments.close();
      if (redis) await closeRedis(redis);
      await traces?.shutdown();
    },
  };
}

type NodeServer = ReturnType<typeof serve>;

function listen(options: Parameters<typeof serve>[0]): Promise<NodeServer> {
  return new Promise((resolve, reject) => {
    const server = serve(options, () => {
      server.off('error', reject);
      resolve(server);
    });
    server.once('error', reject);
  });
}

function addressOf(server: NodeServer, host: string): string {
  const { port } = server.address() as AddressInfo;
  const name = host.includes(':') ? `[${host}]` : host;
  return `http://${name === '0.0.0.0' ? '127.0.0.1' : name}:${port}`;
}

/** The metrics listener's one route: on a port of its own, so the public one never answers it. */
function metricsApp(metrics: Metrics, logger: Logger): Hono<RelayContext> {
  const app = new Hono<RelayContext>();
  app.notFound(notFound);
  app.onError(answerError(logger));
  app.get('/metrics', async (c) =>
    c.body(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
  );
  return app;
}

async function main() {
  // `.env` in the working directory fills in what the environment does not set: real variables win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: RelayConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let relay: Relay;
  try {
    relay = await startRelay(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'the relay cannot start');
    logger.flush();
    process.exit(1);
  }
  logger.info(
    {
      url: relay.url,
      ...(relay.metricsUrl && { metrics: `${relay.metricsUrl}/metrics` }),
      ...(config.basePath && { basePath: config.basePath }),
      systems: Object.keys(config.epsUuids),
      origins: config.allowedOrigins,
      store: config.redisUrl ? 'redis' : config.redisSentinel ? 'sentinel' : config.storeFile,
    },
    'relay listening',
  );
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    // A payment in flight may take its slowest path; past that, something is stuck.
    setTimeout(() => process.exit(1), longestAuthorizedCallMs(config.billingTimeoutMs) + 5_000).unref();
    void relay.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The command line (bin.ts, once it has checked the Node): start the relay, or what cli.ts does. */
export async function runRelayCommand(args: string[]): Promise<void> {
  const commandLine = runCommandLine(args);
  if (commandLine === 'start') await main();
  else process.exitCode = commandLine.exitCode;
}
