/**
 * What every route of the billing API shares: the prefix, the request log, the body read once, the checks of a JSON
 * body and of an id in the path, and the refusals. A refusal is an `HTTPException`; the app's one error handler
 * answers it as `{code, error: {message}}` with that status.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type * as z from 'zod';
import type { FaultRoute } from '../faults.js';
import { isJsonType } from '../http.js';
import { recordId } from '../billing/records.js';
import { issuesMessage } from '../schemas.js';
import type { SandboxCall, SandboxCounts, SandboxState } from '../state.js';

export const API_PREFIX = '/api/rest/v1';

type ParsedBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'invalid' };
export type ApiEnv = { Variables: { call: SandboxCall; body: ParsedBody } };

/** What the resources' routes are given: the state, and the guards they put in front of their handlers. */
export interface ApiContext {
  state: SandboxState;
  /** Refuses a request without a valid bearer token (401). */
  bearer: MiddlewareHandler;
  /** Applies the fault set on a route, if any. */
  fault(route: FaultRoute): MiddlewareHandler;
  /** Counts the requests of a route in `counts`, answered or not. */
  count(route: keyof SandboxCounts): MiddlewareHandler;
}

/** Records every API request in `calls` before anything can refuse it, then notes the status answered. */
export function recordCall(calls: SandboxCall[]): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const call: SandboxCall = {
      method: c.req.method,
      path: url.pathname.slice(API_PREFIX.length) || '/',
      query: url.search.slice(1),
      authorization: c.req.header('authorization') ?? null,
      traceparent: c.req.header('traceparent') ?? null,
      body: undefined,
      rawBody: '',
    };
    calls.push(call);
    c.set('call', call);
    await next();
    call.status = c.res.status;
  };
}

/** Reads the body once, for the log and for the handler. */
export const readBody: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const text = await c.req.text();
  const call = c.get('call');
  call.rawBody = text;
  if (!text.trim()) {
    c.set('body', { kind: 'empty' });
  } else {
    try {
      const value: unknown = JSON.parse(text);
      call.body = value;
      c.set('body', { kind: 'json', value });
    } catch {
      c.set('body', { kind: 'invalid' });
    }
  }
  await next();
};

/** The JSON body, checked by `schema`; 415 when it is not JSON, 400 when it is missing, malformed or invalid. */
export function jsonBody<T>(c: Context<ApiEnv>, schema: z.ZodType<T>): T {
  const body = c.get('body');
  if (body.kind === 'empty') throw badRequest('a JSON body is required');
  if (!isJsonType(c)) {
    throw new HTTPException(415, { message: 'Content-Type must be application/json' });
  }
  if (body.kind === 'invalid') throw badRequest('the body is not valid JSON');
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) throw badRequest(issuesMessage(parsed.error.issues));
  return parsed.data;
}

/** The `:id` of the path as a positive integer, or 400 naming `what`. */
export function pathId(c: Context<ApiEnv>, what: string): number {
  const id = recordId(c.req.param('id'));
  if (id === undefined) throw badRequest(`${what} id: expected a positive integer`);
  return id;
}

export function badRequest(message: string): HTTPException {
  return new HTTPException(400, { message });
}

export function notFound(message: string): HTTPException {
  return new HTTPException(404, { message });
}

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}
