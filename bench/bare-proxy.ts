/**
 * The references the relay is measured against: the least a proxy in front of `POST /eps_payments` can do. It gets a
 * bearer token once, then for each request reads the body, adds the `eps_uuid`, forwards it over a keep-alive agent
 * with the token, and sends the answer back. No validation, origin check, rate limit, idempotency, metrics or logs.
 * `startBareProxy` is written with `node:http` alone; `startHonoProxy` with the relay's own stack (Hono on
 * `@hono/node-server`, undici), to tell what the stack costs from what the relay's own work costs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Agent, request } from 'undici';

export interface BareProxyOptions {
  /** The billing base URL, `…/api/rest/v1`. */
  baseUrl: string;
  username: string;
  password: string;
  epsUuid: string;
  /** Upstream sockets; the relay's undici pool has 256. */
  maxSockets?: number;
}

export async function startBareProxy(options: BareProxyOptions): Promise<{ url: string; close(): Promise<void> }> {
  const bearer = await bearerToken(options);
  const target = new URL(`${options.baseUrl}/eps_payments`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 256 });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: string;
      try {
        body = JSON.stringify({
          ...(JSON.parse(Buffer.concat(chunks).toString()) as object),
          eps_uuid: options.epsUuid,
        });
      } catch {
        res.writeHead(400).end();
        return;
      }
      const upstream = http.request(target, {
        method: 'POST',
        agent,
        headers: {
          authorization: bearer,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function startHonoProxy(options: BareProxyOptions): Promise<{ url: string; close(): Promise<void> }> {
  const bearer = await bearerToken(options);
  const target = `${options.baseUrl}/eps_payments`;
  const agent = new Agent({ connections: options.maxSockets ?? 256 });
  const app = new Hono();
  app.post('/eps_payments', async (c) => {
    const body = JSON.stringify({ ...(await c.req.json<object>()), eps_uuid: options.epsUuid });
    const answer = await request(target, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: bearer, 'content-type': 'application/json' },
      body,
    });
    return c.body(await answer.body.text(), answer.statusCode as ContentfulStatusCode, {
      'content-type': 'application/json',
    });
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await agent.close();
    },
  };
}

async function bearerToken(options: BareProxyOptions): Promise<string> {
  const basic = Buffer.from(`${options.username}:${options.password}`).toString('base64');
  const auth = await fetch(`${options.baseUrl}/auth`, { headers: { authorization: `Basic ${basic}` } });
  const { response } = (await auth.json()) as { response: { token: string } };
  return `Bearer ${response.token}`;
}
