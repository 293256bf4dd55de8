/**
 * One server of the bench in its own process, so that the load generator never shares an event loop with it:
 * `node --import tsx bench/child.ts sandbox|relay|bare-proxy|hono-proxy`. It reports `{type: 'ready', url}` over IPC, answers
 * `counts` (the sandbox's `GET /auth` and `POST /eps_payments`), `memory` (after a full GC) and `cpu` requests, and exits
 * when the parent goes away.
 */
import { loadConfig } from '../src/relay/config/load.js';
import { createLogger } from '../src/relay/observability/logger.js';
import { startRelay } from '../src/relay/server.js';
import { startSandbox } from '../src/sandbox/server.js';
import { startBareProxy, startHonoProxy } from './bare-proxy.js';
import type { ChildReply, ChildRequest } from './processes.js';

const role = process.argv[2];
const send = (message: unknown) => process.send?.(message);
process.on('disconnect', () => process.exit(0));
// An orderly exit on SIGTERM, so that `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));

let counts: () => { auth: number; epsPayments: number } = () => ({ auth: 0, epsPayments: 0 });
let url: string;
let metricsUrl: string | undefined;

if (role === 'sandbox') {
  const { username, password } = JSON.parse(process.env.BENCH_SANDBOX ?? '{}') as {
    username: string;
    password: string;
  };
  const sandbox = await startSandbox({ port: 0, username, password });
  // The sandbox keeps every request in `calls` and every payment in its store, for tests to inspect: a few hundred
  // bytes each, without bound. Over the bench's half a million requests that is hundreds of MB and ever longer GC
  // pauses in the sandbox, which would slow down whatever is measured through it. The bench inspects neither.
  setInterval(() => {
    sandbox.calls.length = 0;
    sandbox.store.payments.clear();
  }, 500).unref();
  counts = () => ({ ...sandbox.counts });
  url = sandbox.url;
} else if (role === 'relay') {
  const config = loadConfig(process.env);
  const relay = await startRelay(config, createLogger(config.logLevel));
  url = relay.url;
  metricsUrl = relay.metricsUrl;
} else if (role === 'bare-proxy' || role === 'hono-proxy') {
  const start = role === 'bare-proxy' ? startBareProxy : startHonoProxy;
  url = (await start(JSON.parse(process.env.BENCH_PROXY ?? '{}'))).url;
} else {
  throw new Error(`unknown role ${role}`);
}

process.on('message', (request: ChildRequest) => {
  let reply: ChildReply;
  if (request.type === 'counts') {
    reply = { id: request.id, counts: counts() };
  } else if (request.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    reply = { id: request.id, cpu: user + system };
  } else {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    reply = { id: request.id, memory: { rss, heapUsed } };
  }
  send(reply);
});
send({ type: 'ready', url, metricsUrl });
