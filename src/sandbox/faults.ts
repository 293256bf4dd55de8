/**
 * Fault injection for tests: `sandbox.faults.epsPayments = { status: 503, times: 1 }` makes the next payment request
 * fail; `{ delayMs: 300 }` makes every one slow until the fault is cleared. The object is read on every request, so a
 * test may set, change or delete a fault at any time.
 */
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface Fault {
  /** Answer this HTTP status with the error envelope instead of handling the request. */
  status?: number;
  /** Wait this long first (then answer `status`, or handle the request normally). */
  delayMs?: number;
  /** Close the connection without answering (after `delayMs`), as a billing that crashes mid-request. */
  drop?: boolean;
  /** Answer 200 with this text instead of JSON, as a billing behind a misconfigured proxy. */
  garbage?: string;
  /** With `status`: the `Retry-After` header, in seconds (a 429 or 503 that says when to come back). */
  retryAfter?: number;
  /** With `status`: the error text repeats the request's credentials, as a careless billing does. */
  echoCredentials?: boolean;
  /** Apply to this many requests, then clear itself; absent: until the test clears it. */
  times?: number;
}

/**
 * The routes that can be made to fail (`auth` and `epsPayments` also count their requests in `sandbox.counts`);
 * `any`: every API request, before its own route's fault.
 */
export interface SandboxFaults {
  auth?: Fault;
  epsPayments?: Fault;
  any?: Fault;
}

export type FaultRoute = keyof SandboxFaults;

/** Applies `faults[route]`, if set, to the request. `signal` cuts a delay short when the sandbox closes. */
export function injectFaults(faults: SandboxFaults, route: FaultRoute, signal: AbortSignal): MiddlewareHandler {
  return async (c, next) => {
    const fault = faults[route];
    if (fault?.times !== undefined) {
      if (fault.times <= 1) delete faults[route];
      if (fault.times <= 0) return next();
      fault.times -= 1;
    }
    if (fault?.delayMs) await sleep(fault.delayMs, signal);
    if (fault?.drop) {
      (c.env as { incoming?: { socket: { destroy(): void } } } | undefined)?.incoming?.socket.destroy();
      return new Response(null, { status: 500 });
    }
    if (fault?.garbage !== undefined) return c.body(fault.garbage, 200, { 'content-type': 'text/html' });
    if (fault?.status !== undefined) {
      const res =
        fault.retryAfter === undefined
          ? undefined
          : new Response(null, { headers: { 'Retry-After': String(fault.retryAfter) } });
      const echo = fault.echoCredentials
        ? `; ${c.req.header('authorization') ?? 'no credentials'} may not do this`
        : '';
      throw new HTTPException(fault.status as ContentfulStatusCode, {
        message: `fault injected by the sandbox (status ${fault.status})${echo}`,
        res,
      });
    }
    await next();
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
