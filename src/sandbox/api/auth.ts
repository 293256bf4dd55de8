/** `GET /auth`: the sandbox's Basic credentials for a bearer token (`{token, expires_in}`). */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { basicMatches } from '../auth.js';
import type { ApiContext, ApiEnv } from './request.js';

export function authRoutes(
  { state, count, fault }: ApiContext,
  credentials: { username: string; password: string },
): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get('/', count('auth'), fault('auth'), (c) => {
    if (!basicMatches(c.req.header('authorization'), credentials.username, credentials.password)) {
      const res = new Response(null, {
        headers: { 'WWW-Authenticate': 'Basic realm="billing-sandbox", charset="UTF-8"' },
      });
      throw new HTTPException(401, { message: 'valid HTTP Basic credentials are required', res });
    }
    return c.json({ code: 200, response: state.tokens.issue() }, 200);
  });
  return routes;
}
