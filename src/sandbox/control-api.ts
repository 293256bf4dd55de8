/**
 * The sandbox's JSON control API, mounted under `/sandbox` (outside the billing's `/api/rest/v1`): what a merchant's
 * test suite scripts, like Stripe's test clocks and test helpers. Every route needs the sandbox's Basic credentials or
 * its control token. Answers are plain JSON objects; a refusal is `{code, error: {message}}` with that HTTP status
 * (answered by the app's one error handler).
 *
 * - `GET /clock`; `POST /clock` `{"advance": "P1D" | seconds}` or `{"to": "2026-05-01T00:00:00Z"}` → `{from, now,
 *   events}`; `POST /clock/freeze`, `POST /clock/unfreeze`
 * - `GET /settings`; `PATCH /settings` `{"autopayment_lead_days": 3}`
 * - `GET /agreements`, `GET /agreements/{id}` (balance, recommended payment, subscriptions, ledger, payments,
 *   autopayments, methods); `POST /agreements/{id}/payment-methods/{method}/disable`
 * - `GET /faults`, `POST /faults` `{"target": "eps_payments", "status": 500, "times": 2}`, `DELETE /faults`
 * - `POST /reset`
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import * as z from 'zod';
import { refuseCrossSite } from './cross-site.js';
import type { Fault, FaultRoute } from './faults.js';
import { isJsonType, limitBody } from './http.js';
import {
  OperationError,
  agreementList,
  agreementReport,
  clearFaults,
  clockView,
  disableMethod,
  faultsView,
  freezeClock,
  moveClock,
  reset,
  setFault,
  setLeadDays,
  settings,
  unfreezeClock,
  type FaultsView,
} from './operations.js';
import { recordId } from './billing/records.js';
import { issuesMessage } from './schemas.js';
import type { SandboxState } from './state.js';

const moveSchema = z.strictObject({
  advance: z.optional(z.union([z.string(), z.number()])),
  to: z.optional(z.string()),
});

const settingsSchema = z.strictObject({ autopayment_lead_days: z.number() });

const TARGETS = { auth: 'auth', eps_payments: 'epsPayments', any: 'any' } as const satisfies Record<string, FaultRoute>;

/** A fault's fields as the control API writes them, and as `Fault` holds them (`reset: true` is `drop`). */
const FAULT_FIELDS = {
  status: 'status',
  delay_ms: 'delayMs',
  garbage: 'garbage',
  reset: 'drop',
  retry_after: 'retryAfter',
  times: 'times',
} as const satisfies Record<string, keyof Fault>;

const faultSchema = z
  .strictObject({
    target: z.enum(Object.keys(TARGETS) as [keyof typeof TARGETS, ...(keyof typeof TARGETS)[]]),
    status: z.optional(z.number().int().min(400).max(599)),
    delay_ms: z.optional(z.number().int().min(1).max(60_000)),
    garbage: z.optional(z.string().max(10_000)),
    reset: z.optional(z.literal(true)),
    retry_after: z.optional(z.number().int().min(0).max(86_400)),
    times: z.optional(z.number().int().min(1).max(10_000)),
  })
  .superRefine((value, ctx) => {
    const outcomes = [value.status, value.garbage, value.reset].filter((v) => v !== undefined).length;
    if (outcomes > 1) ctx.addIssue({ code: 'custom', path: [], message: 'give one of status, garbage or reset' });
    if (outcomes === 0 && value.delay_ms === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'give status, delay_ms, garbage or reset' });
    if (value.retry_after !== undefined && value.status === undefined)
      ctx.addIssue({ code: 'custom', path: ['retry_after'], message: 'only with status' });
  });

const NO_STORE = { 'Cache-Control': 'no-store' };

export function controlApi(ctx: SandboxState, auth: MiddlewareHandler, publicUrl?: string): Hono {
  const api = new Hono();
  api.use('*', refuseCrossSite(publicUrl), auth);
  api.use('*', limitBody(16));

  api.get('/clock', (c) => c.json(clockView(ctx), 200, NO_STORE));
  api.post('/clock', async (c) => {
    const jump = moveClock(ctx, await body(c, moveSchema));
    return c.json({ from: jump.from, now: jump.to, events: jump.events }, 200, NO_STORE);
  });
  api.post('/clock/freeze', (c) => c.json(freezeClock(ctx), 200, NO_STORE));
  api.post('/clock/unfreeze', (c) => c.json(unfreezeClock(ctx), 200, NO_STORE));

  api.get('/settings', (c) => c.json(settings(ctx), 200, NO_STORE));
  api.patch('/settings', async (c) =>
    c.json(setLeadDays(ctx, (await body(c, settingsSchema)).autopayment_lead_days), 200, NO_STORE),
  );

  api.get('/agreements', (c) => c.json({ agreements: agreementList(ctx) }, 200, NO_STORE));
  api.get('/agreements/:id', (c) => c.json(agreementReport(ctx, idOf(c.req.param('id'), 'agreement')), 200, NO_STORE));
  api.post('/agreements/:id/payment-methods/:method/disable', (c) =>
    c.json(
      disableMethod(ctx, idOf(c.req.param('id'), 'agreement'), idOf(c.req.param('method'), 'payment method')),
      200,
      NO_STORE,
    ),
  );

  api.get('/faults', (c) => c.json({ faults: wireFaults(faultsView(ctx)) }, 200, NO_STORE));
  api.post('/faults', async (c) => {
    const { target, ...input } = await body(c, faultSchema);
    return c.json(
      { faults: wireFaults(setFault(ctx, TARGETS[target], renamed(input, FAULT_FIELDS) as Fault)) },
      200,
      NO_STORE,
    );
  });
  api.delete('/faults', (c) => c.json({ faults: wireFaults(clearFaults(ctx)) }, 200, NO_STORE));

  api.post('/reset', (c) => c.json(reset(ctx), 200, NO_STORE));
  return api;
}

/** The faults set, written as `POST /faults` takes them: `{eps_payments: {status: 429, retry_after: 5, times: 1}}`. */
function wireFaults(faults: FaultsView): Record<string, Record<string, unknown>> {
  const targetOf = inverse(TARGETS);
  const fieldOf = inverse(FAULT_FIELDS);
  return Object.fromEntries(
    Object.entries(faults).map(([route, fault]) => [targetOf[route] ?? route, renamed(fault, fieldOf)]),
  );
}

/** `{a: 'b'}` → `{b: 'a'}`. */
function inverse(names: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([from, to]) => [to, from]));
}

/** The fields of `record` under their names in `names`; one left out, undefined or false is not written. */
function renamed(record: object, names: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).flatMap(([name, value]) =>
      value === undefined || value === false || !Object.hasOwn(names, name) ? [] : [[names[name], value]],
    ),
  );
}

/** The JSON body (an empty one reads as `{}`), checked by `schema`; 415 when not JSON, 400 when invalid. */
async function body<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  const text = await c.req.text();
  if (text.trim() && !isJsonType(c)) {
    throw new HTTPException(415, { message: 'Content-Type must be application/json' });
  }
  let value: unknown = {};
  try {
    if (text.trim()) value = JSON.parse(text);
  } catch {
    throw new HTTPException(400, { message: 'the body is not valid JSON' });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HTTPException(400, { message: issuesMessage(parsed.error.issues) });
  return parsed.data;
}

function idOf(text: string | undefined, what: string): number {
  const id = recordId(text);
  if (id === undefined) throw new OperationError(400, `${what} id: expected a positive integer`);
  return id;
}
