/**
 * `npm start`: the whole demo on one machine with no credentials — the billing sandbox, a relay wired to it, and a
 * merchant page with the widget. Ports: SANDBOX_PORT (8790), RELAY_PORT (8787), DEMO_PORT (8080), checked by
 * scripts/ports.ts before the build; `BASE_PATH=/relay npm start` serves the relay under a path, as behind a proxy.
 * The demo pages are written for the default ports; this server gives them the relay's and the sandbox's real
 * addresses as it serves them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { loadConfig } from '../src/relay/config/load.js';
import { startRelay } from '../src/relay/server.js';
import { createClientSession } from '../src/relay/session/client-session.js';
import { startSandbox } from '../src/sandbox/server.js';
import { demoPage, playgroundOptions } from './demo-pages.js';
import { demoPorts } from './ports.js';

const [sandboxPort, relayPort, demoPort] = demoPorts().map((p) => p.port) as [number, number, number];
const root = fileURLToPath(new URL('..', import.meta.url));
/** The demo merchant's and relay's shared key for client sessions (a fixed demo value; never use it elsewhere). */
const SESSION_SECRET = 'billing-pay-demo-session-secret-not-for-production';

const sandbox = await startSandbox({ port: sandboxPort, publicUrl: `http://localhost:${sandboxPort}` });

const relay = await startRelay(
  loadConfig({
    ...sandbox.relayEnv(),
    // The demo's own origins, and any a merchant adds to try a page of their own (`ALLOWED_ORIGINS=… npm start`).
    ALLOWED_ORIGINS: [
      ...[demoPort, 5173].flatMap((p) => [`http://localhost:${p}`, `http://127.0.0.1:${p}`]),
      ...(process.env.ALLOWED_ORIGINS ?? '').split(',').filter((origin) => origin.trim()),
    ].join(','),
    PORT: String(relayPort),
    BASE_PATH: process.env.BASE_PATH ?? '',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SESSION_SECRET,
    // The sandbox keeps its billing in memory: the relay's keys go with it when the demo stops.
    STORE_FILE: ':memory:',
    // The demo page looks agreements up by e-mail and taxpayer number too: a merchant opting in to personal kinds.
    ALLOWED_LOOKUPS: '5 7 15',
  }),
);

const demo = new Hono();
demo.get('/:bundle{billing-pay(?:-account)?\\.js}', async (c) =>
  c.body(await readFile(`${root}dist/${c.req.param('bundle')}`, 'utf8'), 200, {
    'content-type': 'text/javascript; charset=utf-8',
  }),
);
// The merchant's backend: the demo client (agreement 1001) is "logged in", so it signs them a client session.
demo.get('/demo-session', async (c) => {
  c.header('Cache-Control', 'no-store');
  return c.json({ session: await createClientSession({ agreementId: 1001, ttlSeconds: 900 }, SESSION_SECRET) });
});
// The pages name the relay and the sandbox at their default addresses; they get this run's.
const addresses = {
  relay: `http://localhost:${relayPort}${relay.config.basePath}`,
  sandbox: `http://localhost:${sandboxPort}`,
};
const servePage = (name: string) => async (c: Context) => c.html(await demoPage(name, addresses));
demo.get('/', servePage('index.html'));
demo.get('/index.html', servePage('index.html'));
demo.get('/account.html', servePage('account.html'));
demo.get('/playground.html', servePage('playground.html'));
demo.get('/playground-options.json', async (c) => c.json(await playgroundOptions()));
demo.use('/*', serveStatic({ root: `${root}demo` }));
serve({ fetch: demo.fetch, port: demoPort, hostname: '127.0.0.1' });

console.log(`
  billing-pay demo is running

  Merchant page (open this):  http://localhost:${demoPort}/
  My account (saved methods): http://localhost:${demoPort}/account.html
  Playground (embed snippet): http://localhost:${demoPort}/playground.html
  Billing sandbox:            http://localhost:${sandboxPort}/   (client cards, saved methods)
  Relay:                      ${addresses.relay}/config

  Try agreement number AG-1001 (or e-mail client@example.com). Ctrl+C stops everything.
`);

const stop = () => void Promise.all([relay.close(), sandbox.close()]).finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
