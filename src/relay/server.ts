/**
 * The relay's Node entry point: `npm run relay` starts it from the environment (and `.env`); its command line
 * (`--help`, `--version`, `init`) is cli.ts. `npm run build` bundles it, with its server dependencies, into
 * `dist/relay/server.js` (the `billing-pay-relay` bin).
 * `startRelay` is also what `npm start` and the integration tests use.
 */
import { existsSync, realpathSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Logger } from 'pino';
import { createRelayApp } from './app.js';
import { BillingClient, longestAuthorizedCallMs } from './billing/client.js';
import { runCommandLine } from './cli.js';
import { ConfigError, loadConfig, type RelayConfig } from './config.js';
import { RedisIdempotencyStore } from './idempotency/redis-store.js';
import { openSqliteStore } from './idempotency/sqlite-store.js';
import { createLogger, logSecretsOf } from './logger.js';
import { createMetrics } from './metrics.js';
import { createLimiters } from './rate-limit.js';
import { RedisRecentPayments } from './recent-payments/redis-store.js';
import { openSqliteRecentPayments } from './recent-payments/sqlite-store.js';
import { closeRedis, connectRedis } from './redis-connection.js';
import { RedisGuard } from './redis-guard.js';
import { loadTraces } from './traces/traces.js';
import { loadWidgetAssets, type WidgetAssets } from './widget-assets.js';

export interface Relay {
  url: string;
  config: RelayConfig;
  /** Stops taking connections, lets requests in flight finish, then closes the billing pool and Redis. */
  close(): Promise<void>;
}

const ASSET_RETRY_MS = 10_000;
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

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
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
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
      },
      () => resolve(s),
    );
  });
  // Past this many open connections, a new one is closed at once.
  (server as import('node:net').Server).maxConnections = limits.maxConnections;
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    config,
    async close() {
      // Requests in flight finish; each keep-alive connection is closed as soon as it falls idle.
      const sweep = setInterval(() => 'closeIdleConnections' in server && server.closeIdleConnections(), 50);
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

// realpath: `npx billing-pay-relay` runs this file through a symlink in node_modules/.bin.
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const commandLine = runCommandLine(process.argv.slice(2));
  if (commandLine === 'start') await main();
  else process.exitCode = commandLine.exitCode;
}
