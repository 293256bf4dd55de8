/**
 * The billing sandbox as one Hono app: it wires the parts, each a sub-app of its own — the billing REST API under
 * `/api/rest/v1` (`api/`), the JSON control API under `/sandbox` (`control-api.ts`), the pages for people
 * (`pages/admin.ts`) and the payment systems' hosted pages under `/pay` (`pages/hosted-pages.ts`) — and answers
 * every refusal in one place. What the sandbox does: docs/sandbox.md; its choices where the spec is silent:
 * docs/choices.md.
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { billingApi } from './api/billing-api.js';
import { API_PREFIX, isApiPath } from './api/request.js';
import { controlAuth } from './auth.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './config.js';
import { controlApi } from './control-api.js';
import { errorBody } from './http.js';
import { OperationError } from './operations.js';
import { adminPages } from './pages/admin.js';
import { hostedPages } from './pages/hosted-pages.js';
import { textsFor } from './pages/language.js';
import { messagePage, SANDBOX_CSS } from './pages/layout.js';
import { PageRefusal } from './pages/refusal.js';
import { TEXTS } from './pages/texts.js';
import { createSandboxState, type SandboxState } from './state.js';

/** The sandbox's options (but where it listens, which the server decides), and that address once it listens. */
export interface SandboxAppOptions extends Omit<SandboxOptions, 'port' | 'host'> {
  /** Where the sandbox listens: the origin of `confirmation_url` without `publicUrl`; default the request's. */
  listenUrl?: () => string;
}

const HTML_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  // `same-origin`, not `no-referrer`: the pages' own form posts then carry their Origin (cross-site.ts).
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  // The pages speak the client's language (pages/language.ts).
  Vary: 'Accept-Language',
};

export function createSandboxApp(
  options: SandboxAppOptions = {},
  state: SandboxState = createSandboxState(options),
): Hono {
  const username = options.username ?? SANDBOX_DEFAULTS.username;
  const password = options.password ?? SANDBOX_DEFAULTS.password;
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const linkOrigin = (c: Context) =>
    (publicUrl ?? options.listenUrl?.() ?? new URL(c.req.url).origin).replace(/\/+$/, '');

  const app = new Hono();
  // Whatever the billing had to do by now is done before any request looks at it.
  app.use('*', async (_c, next) => {
    state.scheduler.catchUp();
    await next();
  });
  app.route(
    API_PREFIX,
    billingApi(state, { username, password, epsUuids: options.epsUuids ?? SANDBOX_DEFAULTS.epsUuids, linkOrigin }),
  );

  app.get('/sandbox.css', (c) =>
    c.body(SANDBOX_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'max-age=300' }),
  );
  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_HEADERS)) c.res.headers.set(name, value);
    }
  });
  const control = controlAuth(username, password, options.controlToken || undefined);
  app.route('/sandbox', controlApi(state, control, publicUrl));
  app.route('/', adminPages(state, control, publicUrl));
  app.route('/pay', hostedPages(state));

  app.notFound((c) => {
    if (answersJson(c.req.path)) return c.json(errorBody(404, 'no such endpoint'), 404);
    const t = textsFor(c);
    return c.html(messagePage(t, t.refusal.notFound, t.refusal.noPage), 404);
  });

  // Every refusal of every part: JSON for the APIs, a page for people; an unexpected error is logged and answered 500.
  app.onError((error, c) => {
    let status: ContentfulStatusCode = 500;
    let message = 'internal sandbox error';
    if (error instanceof HTTPException || error instanceof OperationError) {
      status = error.status;
      message = error.message || 'request refused';
    } else {
      console.error('billing sandbox: unexpected error', error);
    }
    const headers: Record<string, string> = {};
    if (error instanceof HTTPException) error.res?.headers.forEach((value, name) => (headers[name] = value));
    if (answersJson(c.req.path)) return c.json(errorBody(status, message), status, headers);
    // A page's own refusal speaks the client's language; the sandbox's controls answer in English.
    const t = error instanceof PageRefusal ? (error.texts ?? textsFor(c)) : TEXTS.en;
    if (error instanceof PageRefusal) message = t.refusal[error.key];
    return c.html(messagePage(t, status === 404 ? t.refusal.notFound : t.refusal.refused, message), status, headers);
  });
  return app;
}

/** The billing API and the control API answer in JSON; everything else is a page. */
function answersJson(path: string): boolean {
  return isApiPath(path) || path === '/sandbox' || path.startsWith('/sandbox/');
}
