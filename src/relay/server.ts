/**
 * The relay's Node entry point: `npm run relay` starts it from the environment.
 * `startRelay` is also what `npm start` and the integration tests use.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createRelayApp } from './app.js';
import { BillingClient } from './billing-client.js';
import { ConfigError, loadConfig, type RelayConfig } from './config.js';
import { createLogger } from './logger.js';

export interface Relay {
  url: string;
  config: RelayConfig;
  close(): Promise<void>;
}

const BUNDLE_PATH = fileURLToPath(new URL('../../dist/billing-pay.js', import.meta.url));

export async function startRelay(config: RelayConfig, logger: Logger = createLogger(config.logLevel)): Promise<Relay> {
  const billing = new BillingClient(config);
  let bundle: Promise<string | null> | undefined;
  const widgetBundle = () => (bundle ??= readFile(BUNDLE_PATH, 'utf8').catch(() => ((bundle = undefined), null)));
  const app = createRelayApp({ config, billing, logger, widgetBundle });

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    config,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await billing.close();
    },
  };
}

async function main() {
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
  const relay = await startRelay(config, logger);
  logger.info({ url: relay.url, systems: Object.keys(config.epsUuids), origins: config.allowedOrigins }, 'relay listening');
  const stop = () => void relay.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
