/**
 * A browser must not be made to use the sandbox's credentials from another site: a form or a script there posting to
 * the pages' forms or to the control API. A request the browser marks as not from the sandbox's own pages
 * (`Sec-Fetch-Site` other than `same-origin`, or `none` for one the person made), or, from a browser that does not
 * send that header, whose `Origin` is not the sandbox's own — or is `null`, as for a sandboxed frame — is refused.
 * The sandbox's own origin is its public URL when one is configured (a proxy in front may rewrite `Host`), else the
 * origin the request was sent to. A request with neither header (curl, a script) comes from no page and goes through.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

export function refuseCrossSite(publicUrl: string | undefined): MiddlewareHandler {
  const configured = publicUrl === undefined ? undefined : new URL(publicUrl).origin;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && isCrossSite(c, configured ?? new URL(c.req.url).origin))
      throw new HTTPException(403, { message: "Requests from a page are accepted from the sandbox's own pages only." });
    await next();
  };
}

function isCrossSite(c: Context, own: string): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = c.req.header('origin');
  if (origin === undefined) return false;
  return !URL.canParse(origin) || new URL(origin).origin !== own;
}
