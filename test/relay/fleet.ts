/** Relays in this process on one Redis in front of the sandbox (a fleet), and payments spread over them. */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/relay/config/load.js';
import { createLogger } from '../../src/relay/observability/logger.js';
import { startRelay, type Relay } from '../../src/relay/server.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { SHOP, paymentA } from './harness.js';

/** A relay of the fleet: `env` over the sandbox's, Redis's and generous limits; its log lines go to `log`. */
export function startFleetRelay(
  sandbox: Sandbox,
  redisUrl: string,
  log: string[],
  env: Record<string, string> = {},
): Promise<Relay> {
  const config = loadConfig({
    ...sandbox.relayEnv(),
    ALLOWED_ORIGINS: SHOP,
    PORT: '0',
    REDIS_URL: redisUrl,
    RATE_LIMIT_IP: '100000/60',
    RATE_LIMIT_AGREEMENT: '100000/60',
    DUPLICATE_WINDOW_SECONDS: '0',
    ...env,
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log.push(String(chunk));
      done();
    },
  });
  return startRelay(config, createLogger('info', sink));
}

/** `count` payments, `connections` at a time, each to the next of `urls()` in turn; the statuses. */
export async function roundRobin(
  urls: () => string[],
  count: number,
  connections = 30,
  spreadMs = 0,
): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      if (spreadMs) await new Promise((resolve) => setTimeout(resolve, spreadMs));
      const all = urls();
      const res = await fetch(`${all[n % all.length]!}/payments`, {
        method: 'POST',
        headers: { origin: SHOP, 'content-type': 'application/json' },
        body: JSON.stringify(paymentA()),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return statuses;
}
