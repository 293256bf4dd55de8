/**
 * The relay's Redis: one client to `REDIS_URL`, or through Sentinel (`REDIS_SENTINELS`) a connection to whichever node
 * the sentinels name primary, followed across failovers. Either serves the idempotency store (Lua scripts, `WAIT`),
 * the rate limiters (rate-limiter-flexible's RateLimiterRedis: `eval`) and the fleet's billing token (get, set, eval).
 *
 * Both fail fast while Redis is away — no offline queue, and every caller gives each command a deadline of its own —
 * so the relay answers 503 for keyed payments and limits in memory instead of hanging. Through Sentinel, a command sent
 * while the primary is gone waits for the sentinels to name one (node-redis asks them again on a broken connection, a
 * READONLY answer or a `switch-master` message) and is sent there: late, past its caller's deadline, it is the store's
 * late-claim path (the key is let go). Once a primary is elected the relay serves again by itself.
 */
import type { Logger } from 'pino';
import {
  createClient,
  createSentinel,
  type RedisClientType,
  type RedisSentinelOptions,
  type RedisSentinelType,
} from 'redis';
import type { RedisSentinelConfig, RelayConfig } from '../config/load.js';
import { withDeadline } from './idempotency/store.js';

/** A client to one Redis, or a Sentinel-managed connection to the primary: the same commands for the relay's users. */
/**
 * How long any Redis call (a rate limit, an idempotency key) may take: a request makes at most two before the billing
 * is asked, so a Redis that stops answering costs it about a second. Redis answers in well under a millisecond.
 */
export const REDIS_TIMEOUT_MS = 500;

export type RedisConnection = RedisClientType | RedisSentinelType;

export type RedisSettings = Pick<RelayConfig, 'redisUrl' | 'redisSentinel' | 'redisUsername' | 'redisPassword'>;

/** The first connection has a time limit: a relay that cannot reach its Redis says so and does not start. */
const REDIS_FIRST_CONNECT_MS = 10_000;

const socket = {
  connectTimeout: 2_000,
  reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000),
};

/** The relay's Redis, connected; `undefined` when neither `REDIS_URL` nor `REDIS_SENTINELS` is set. */
export async function connectRedis(settings: RedisSettings, logger: Logger): Promise<RedisConnection | undefined> {
  const credentials = {
    ...(settings.redisUsername && { username: settings.redisUsername }),
    ...(settings.redisPassword && { password: settings.redisPassword }),
  };
  if (settings.redisUrl) {
    // A Redis that is away fails each command at once (no queue waiting for it to come back) or within the timeout.
    const client: RedisClientType = createClient({
      ...credentials,
      url: settings.redisUrl,
      disableOfflineQueue: true,
      commandOptions: { timeout: REDIS_TIMEOUT_MS },
      socket,
    });
    // Only the message: an error object may carry the client's options, and so its password.
    client.on('error', (error: Error) => logger.error({ err: error.message }, 'redis error'));
    await firstConnection(client, 'REDIS_URL: no answer from Redis');
    return client;
  }
  const sentinel = settings.redisSentinel;
  if (!sentinel) return undefined;
  const connection: RedisSentinelType = createSentinel(sentinelOptions(sentinel, credentials));
  // The errors of its clients (passed through), and a text for a sentinel that could not be asked; never options.
  connection.on('error', (error: unknown) =>
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'redis error'),
  );
  // The primary the sentinels name: at the start, then each other one after a failover (node-redis reports the same
  // one again on every attempt to reach it while it is away).
  let primary: string | undefined;
  connection.on('topology-change', (event: { type: string; node?: { host: string; port: number } }) => {
    if (event.type !== 'MASTER_CHANGE' || !event.node) return;
    const named = `${event.node.host}:${event.node.port}`;
    if (named === primary) return;
    if (primary) logger.warn({ primary: named, was: primary }, 'redis primary changed (from the sentinels)');
    else logger.info({ primary: named }, 'redis primary (from the sentinels)');
    primary = named;
  });
  await firstConnection(connection, `REDIS_SENTINELS: no primary "${sentinel.name}" from the sentinels`);
  return connection;
}

/**
 * node-redis's Sentinel options: the primary's clients as the plain client (a command sent while it is away fails, and
 * the sentinel connection asks the sentinels again); the sentinels' own clients, connected afresh for each look-up.
 * With `tls`, both over TLS: the sentinels name the nodes by address, so the certificates are checked by it.
 */
export function sentinelOptions(
  sentinel: RedisSentinelConfig,
  credentials: { username?: string; password?: string },
): RedisSentinelOptions {
  const tls = sentinel.tls ? ({ tls: true } as const) : {};
  return {
    name: sentinel.name,
    sentinelRootNodes: sentinel.nodes,
    commandOptions: { timeout: REDIS_TIMEOUT_MS },
    nodeClientOptions: { ...credentials, disableOfflineQueue: true, socket: { ...socket, ...tls } },
    passthroughClientErrorEvents: true,
    sentinelClientOptions: {
      ...(sentinel.username && { username: sentinel.username }),
      ...(sentinel.password && { password: sentinel.password }),
      socket: { connectTimeout: socket.connectTimeout, ...tls },
    },
  };
}

async function firstConnection(redis: RedisConnection, failure: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${failure} within ${REDIS_FIRST_CONNECT_MS / 1000} s`)),
      REDIS_FIRST_CONNECT_MS,
    );
  });
  const connecting = redis.connect();
  // Given up on: its own failure, later, is not the relay's to report.
  connecting.catch(() => {});
  try {
    await Promise.race([connecting, timedOut]);
  } catch (error) {
    await destroy(redis);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes the connection: QUIT when Redis is there, within a deadline. A Redis that is away is not waited for: `close`
 * would wait for a reconnection that may never come, or for the answers of a Redis that stopped answering.
 */
export async function closeRedis(redis: RedisConnection): Promise<void> {
  if (redis.isReady) await withDeadline(redis.close(), REDIS_TIMEOUT_MS, 'QUIT').catch(() => destroy(redis));
  else await destroy(redis);
}

async function destroy(redis: RedisConnection): Promise<void> {
  try {
    await redis.destroy();
  } catch {
    // Closed already.
  }
}
