/**
 * The billing sandbox as a Hono app: the billing REST API of the spec under `/api/rest/v1`, the hosted payment
 * pages that play the three payment systems, and the client card.
 *
 * Choices where the spec is silent (our choices, mirrored in the README):
 * - Errors use the envelope `{code, error: {message}}` with the HTTP status equal to `code`: 400 invalid body or
 *   parameter, 401 missing/unknown/revoked/expired token or bad Basic credentials, 404 unknown id (in the path or as
 *   a reference in the body) and an agreement lookup that finds nothing (`agreement not found`), 409 an agreement
 *   number, accounting code or account number already used, 413 a body over 64 KB, 415 a body that is not
 *   `application/json`. Messages name the field and the problem.
 * - Request bodies are strict: unknown fields are refused (400), so typos show up in tests.
 * - `expires_in` is in seconds (600 by default). A token is random, lives that long, and is refused once expired.
 * - `PATCH /subscriptions/{id}` answers 200 `{subscription_id, version}`. `change_start_date` must be later than the
 *   start of the current version and may lie in the past (the billing then recalculates at once); a change of the
 *   period length may not start in the past. Fields left out are carried over (period and services must be given
 *   again when the tariff changes). `description` and `subscription_start_date` of a new subscription are optional
 *   (the start defaults to now); a `multiplicator` has at most six decimals.
 * - `GET /tariffs` → `{tariffs: [{tariff_id, name}]}`; `/periods` → `{periods: [{period_id, name, months}]}`;
 *   `/services` → `{services: [{tariff_service_id, name, price}]}`, prices as decimal text ("990.00"): the price of
 *   one unit for one month; a period of m months costs m times as much.
 * - Time: one sandbox clock (`clock.ts`), UTC. It starts at the real time or a given one, and runs with real time or
 *   stands still until moved (`clock: {start, frozen}`; `SANDBOX_START`, `SANDBOX_CLOCK`); the control API
 *   (`control-api.ts`, `/sandbox/…`, behind the Basic credentials or a control token) and the pages' forms move it
 *   forward only, and every event on the way is processed in time order, once (`scheduler.ts`). Bearer tokens live by
 *   this clock: moving it past `expires_in` expires them.
 * - Charging (`charging.ts`): periods are aligned to the calendar (monthly: from the 1st). Each period is charged in
 *   advance at its start, in full, with the version in force then — only if the balance covers it: otherwise nothing
 *   is charged and the subscription enters financial blocking (its first period: awaits activation). A start inside a
 *   period is charged pro rata. A version taking effect inside a charged period recalculates it pro rata by time
 *   (old terms up to the change, new terms from it), posting the difference as a `recalculation` at the change; a
 *   back-dated one recalculates every period it touches at once; charges are never edited. A new period length ends
 *   the current period at the change (the rest credited) and starts a calendar period there. Money arriving (a
 *   payment, an autopayment, a recalculation's credit) activates or unblocks a subscription when it covers the rest
 *   of the current period, charged from that moment; blocked time is never charged. Amounts are exact: minor units, quantities in millionths, one half-up rounding
 *   per charge.
 * - Recommended payment: what the balance lacks to pay, for each subscription, its next period (active, scheduled)
 *   or the rest of its current period (blocked, awaiting activation); 0 when nothing is lacking.
 * - Autopayments (`autopayments.ts`): by the agreement's latest saved method with autopayment connected, for the
 *   recommended payment, never for 0; trigger 1 at 00:00 N days (option `autopaymentLeadDays`, default 1) before each
 *   period start (a first period too), if that moment was still ahead when the period start became known; trigger
 *   2 when a subscription enters blocking; trigger 3 at every HH:30 for agreements with a negative balance or a
 *   subscription awaiting activation or blocked. Events at one instant go: versions, period starts (charges,
 *   blocking), trigger 2, trigger 1, trigger 3. Events the billing learns of late (a start or change in the past)
 *   are processed at once and fire no autopayment for the past. An autopayment always succeeds in the sandbox; it is
 *   kept in `store.autopayments` and the ledger, not among the EPS payments.
 * - Client cards: `GET /` (every client) and `GET /agreements/{id}` (one agreement: balance, recommended payment,
 *   subscriptions with versions and states, charges, payments and autopayments, saved methods); "Disable
 *   autopayment" posts to `/agreements/{id}/payment-methods/{method}/disable` and comes back (303).
 * - `POST /eps_payments` answers 201 `{payment_id, status: 'pending', amount: '1500.50', confirmation_url}`. The
 *   amount must be a JSON number > 0 with at most two decimals and at most 15 significant digits (so it reads
 *   exactly). `eps_params` follow the billing's rules (`BILLING_POLICY` of the shared model), looser than this
 *   product's: `save_payment_method` alone saves a method without autopayment, `cancel_payment` needs no saving,
 *   booleans may be the texts "true"/"false"; only `enable_autopayments` without saving is refused. The agreement is found by every lookup kind; a client-level kind (login, full name, e-mail, client id =
 *   user_id, taxpayer number) takes the client's first agreement; e-mail and full name ignore case.
 * - The hosted page `POST /pay/{id}` (`decision=pay|decline`) redirects 303 to the system's return URL with
 *   `payment_id` and `status=succeeded|declined` set in its query; without a return URL it shows the outcome. A
 *   payment is decided once; `card` picks one of three test cards. A test payment (A with `cancel_payment`) is not
 *   credited. A card the agreement already holds (active, same system) is not saved twice.
 * - The client id (lookup kind 10) is the `user_id`. `POST /users` also takes the sandbox extras `login`,
 *   `full_name`, `taxpayer_number`, and `POST /agreements` `accounting_code`, `account_number`, so created records
 *   can be found by every lookup kind.
 * - Payment method status 2 = active, 3 = disabled. `status_list` is read from the query in any usual form
 *   (`2`, `2,3`, `[2]`, `status_list[]=2`, repeated); without it every method is listed; `agreement_id` filters.
 *   `DELETE /payment_methods/{id}` answers 200 `{payment_method_id, status: 3, enable_auto_payments: false}` and is
 *   idempotent.
 * - For tests: every API request is logged in `calls` (refused ones too), `counts` counts `GET /auth` and
 *   `POST /eps_payments`, and a fault applies before authentication (it plays an outage of the whole service).
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as z from 'zod';
import { amountProblem, formatMinorUnits, toMinorUnits } from '../eps/amount.js';
import { LOOKUP_KINDS, isLookupKind } from '../eps/lookup.js';
import { problemText } from '../eps/messages.js';
import { BILLING_POLICY, SYSTEM_IDS, SYSTEMS, readBooleans, systemParamsSchema, type SystemId } from '../eps/systems.js';
import { mountAdmin } from './admin.js';
import { basicMatches, bearerAuth, controlAuth } from './auth.js';
import { parseTimestamp, timestamp } from './calendar.js';
import { SANDBOX_DEFAULTS } from './config.js';
import { controlApi } from './control-api.js';
import { injectFaults, type SandboxFaults } from './faults.js';
import { messagePage, outcomePage, paymentPage, SANDBOX_CSS } from './pages.js';
import {
  epsPaymentSchema,
  issuesMessage,
  newAgreementSchema,
  newSubscriptionSchema,
  newUserSchema,
  subscriptionChangeSchema,
  type ServiceItem,
} from './schemas.js';
import { createSandboxState, type SandboxCall, type SandboxCounts, type SandboxState, type SandboxStateOptions } from './state.js';
import { findAgreement } from './agreement-lookup.js';
import { TEST_CARDS, decidePayment, defaultCard, paymentTerms } from './payment-decision.js';
import type { Payment, SubscriptionService, Tariff } from './records.js';

export const API_PREFIX = '/api/rest/v1';

/** The largest amount, in minor units: 15 significant digits, so a JSON number carries it exactly. */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999n;

export interface SandboxAppOptions extends SandboxStateOptions {
  /** Basic credentials of `GET /auth`; default `demo` / `demo-secret`. */
  username?: string;
  password?: string;
  /** The `eps_uuid` of each payment system; default `sandbox-eps-a`, `-b`, `-c`. */
  epsUuids?: Record<SystemId, string>;
  /** Origin of the hosted pages in `confirmation_url` (no trailing slash); default the origin of each request. */
  publicUrl?: string | (() => string);
  /** A token that opens the control API (`Authorization: Bearer <it>`) besides the Basic credentials; default none. */
  controlToken?: string;
}

type ParsedBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'invalid' };
type Env = { Variables: { call: SandboxCall; body: ParsedBody } };

const HTML_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export function createSandboxApp(options: SandboxAppOptions = {}, state: SandboxState = createSandboxState(options)): Hono<Env> {
  const username = options.username ?? SANDBOX_DEFAULTS.username;
  const password = options.password ?? SANDBOX_DEFAULTS.password;
  const epsUuids = options.epsUuids ?? SANDBOX_DEFAULTS.epsUuids;
  const systemOf = new Map(SYSTEM_IDS.map((system) => [epsUuids[system], system]));
  if (systemOf.size !== SYSTEM_IDS.length || [...systemOf.keys()].some((uuid) => !uuid)) {
    throw new TypeError('epsUuids needs three different, non-empty identifiers (A, B, C)');
  }
  const { store, tokens, faults, clock, scheduler } = state;
  const publicUrl = (c: Context) => {
    const configured = typeof options.publicUrl === 'function' ? options.publicUrl() : options.publicUrl;
    return (configured ?? new URL(c.req.url).origin).replace(/\/+$/, '');
  };
  const bearer = bearerAuth(tokens);
  const fault = (route: keyof SandboxFaults) => injectFaults(faults, route, state.closing.signal);
  const count = (route: keyof SandboxCounts): MiddlewareHandler => async (_c, next) => {
    state.counts[route] += 1;
    await next();
  };

  const api = new Hono<Env>();
  api.use('*', recordCall(state.calls));
  api.use('*', fault('any'));
  api.use('*', bodyLimit({ maxSize: 64 * 1024, onError: () => { throw new HTTPException(413, { message: 'the body is larger than 64 KB' }); } }));
  api.use('*', readBody);

  api.get('/auth', count('auth'), fault('auth'), (c) => {
    if (!basicMatches(c.req.header('authorization'), username, password)) {
      const res = new Response(null, { headers: { 'WWW-Authenticate': 'Basic realm="billing-sandbox", charset="UTF-8"' } });
      throw new HTTPException(401, { message: 'valid HTTP Basic credentials are required', res });
    }
    return c.json({ code: 200, response: tokens.issue() }, 200);
  });

  api.post('/users', bearer, (c) => {
    const user = store.addUser(jsonBody(c, newUserSchema));
    return c.json({ code: 201, response: { user_id: user.user_id } }, 201);
  });

  api.post('/agreements', bearer, (c) => {
    const input = jsonBody(c, newAgreementSchema);
    if (!store.users.has(input.user_id)) throw notFound(`user ${input.user_id} not found`);
    for (const key of ['agreement_number', 'accounting_code', 'account_number'] as const) {
      const value = input[key];
      if (value !== undefined && [...store.agreements.values()].some((a) => a[key] === value)) {
        throw new HTTPException(409, { message: `${key}: ${value} is already used by another agreement` });
      }
    }
    const agreement = store.addAgreement(input);
    return c.json({ code: 200, response: { agreement_id: agreement.agreement_id } }, 200);
  });

  api.post('/subscriptions', bearer, (c) => {
    const input = jsonBody(c, newSubscriptionSchema);
    if (!store.agreements.has(input.agreement_id)) throw notFound(`agreement ${input.agreement_id} not found`);
    const tariff = tariffOf(input.tariff_id);
    checkTerms(tariff, input.period_id, input.services);
    const subscription = store.addSubscription({
      agreement_id: input.agreement_id,
      tariff_id: input.tariff_id,
      period_id: input.period_id,
      description: input.description ?? '',
      starts_at: input.subscription_start_date ?? timestamp(clock.millis()),
      services: input.services.map(toSubscriptionService),
    });
    scheduler.catchUp();
    return c.json({ code: 200, response: { subscription_id: subscription.subscription_id } }, 200);
  });

  api.patch('/subscriptions/:id', bearer, (c) => {
    const id = pathId(c, 'subscription');
    const input = jsonBody(c, subscriptionChangeSchema);
    const subscription = store.subscriptions.get(id);
    if (!subscription) throw notFound(`subscription ${id} not found`);
    const current = subscription.versions.at(-1)!;
    const tariffChanged = input.tariff_id !== undefined && input.tariff_id !== current.tariff_id;
    if (tariffChanged && (input.period_id === undefined || input.services === undefined)) {
      throw badRequest('period_id and services are required when tariff_id changes');
    }
    if (input.change_start_date <= current.starts_at) {
      throw badRequest(`change_start_date must be later than the start of the current version (${current.starts_at})`);
    }
    const tariffId = input.tariff_id ?? current.tariff_id;
    const periodId = input.period_id ?? current.period_id;
    const tariff = tariffOf(tariffId);
    checkTerms(tariff, periodId, input.services ?? []);
    const months = (t: Tariff, id: number) => t.periods.find((p) => p.period_id === id)?.months;
    if (months(tariff, periodId) !== months(tariffOf(current.tariff_id), current.period_id) && parseTimestamp(input.change_start_date) < clock.millis()) {
      throw badRequest(`change_start_date: a change of the period length cannot start in the past (the sandbox time is ${timestamp(clock.millis())})`);
    }
    const version = store.addVersion(subscription, {
      starts_at: input.change_start_date,
      tariff_id: tariffId,
      period_id: periodId,
      description: input.description ?? current.description,
      services: input.services ? input.services.map(toSubscriptionService) : current.services.map((s) => ({ ...s })),
    });
    scheduler.catchUp();
    return c.json({ code: 200, response: { subscription_id: subscription.subscription_id, version: version.version } }, 200);
  });

  api.get('/tariffs', bearer, (c) => {
    const tariffs = [...store.tariffs.values()].map((t) => ({ tariff_id: t.tariff_id, name: t.name }));
    return c.json({ code: 200, response: { tariffs } }, 200);
  });

  api.get('/tariffs/:id/periods', bearer, (c) => {
    const periods = tariffOf(pathId(c, 'tariff')).periods.map((p) => ({ ...p }));
    return c.json({ code: 200, response: { periods } }, 200);
  });

  api.get('/tariffs/:id/services', bearer, (c) => {
    const services = tariffOf(pathId(c, 'tariff')).services.map((s) => ({
      tariff_service_id: s.tariff_service_id,
      name: s.name,
      price: formatMinorUnits(s.price),
    }));
    return c.json({ code: 200, response: { services } }, 200);
  });

  api.post('/eps_payments', count('epsPayments'), fault('epsPayments'), bearer, (c) => {
    const input = jsonBody(c, epsPaymentSchema);
    const system = systemOf.get(input.eps_uuid);
    if (!system) throw badRequest('eps_uuid: not one of the payment systems of this billing');

    const amountIssue = amountProblem(input.amount, MAX_AMOUNT_MINOR);
    if (amountIssue) throw badRequest(`amount: ${problemText(amountIssue)} (${amountIssue})`);
    const amount = toMinorUnits(input.amount)!;

    const kind = input.agreement_param_id;
    if (!isLookupKind(kind)) throw badRequest(`agreement_param_id: ${kind} is not one of ${LOOKUP_KINDS.join(', ')}`);

    const names = new Set<string>();
    for (const { name } of input.eps_params) {
      if (names.has(name)) throw badRequest(`eps_params.${name}: ${problemText('duplicate_param')} (duplicate_param)`);
      names.add(name);
    }
    // Object.fromEntries defines own properties, so a parameter named `__proto__` stays an (unknown) parameter.
    // The sandbox plays the billing's rules, looser than this product's (saving without autopayment, "true" as text).
    const params = readBooleans(system, Object.fromEntries(input.eps_params.map(({ name, value }) => [name, value])), BILLING_POLICY);
    const paramCheck = systemParamsSchema(system, BILLING_POLICY).safeParse(params);
    if (!paramCheck.success) {
      const problems = paramCheck.error.issues.flatMap((issue) => {
        const names = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
        return names.map((name) => `eps_params.${name}: ${problemText(issue.message)} (${issue.message})`);
      });
      throw badRequest(problems.join(' '));
    }

    const agreement = findAgreement(store, kind, input.agreement_param_value);
    if (!agreement) throw notFound('agreement not found');

    const payment = store.addPayment({
      system,
      eps_uuid: input.eps_uuid,
      agreement_id: agreement.agreement_id,
      amount,
      agreement_param_id: kind,
      agreement_param_value: input.agreement_param_value,
      params,
      ...paymentTerms(system, params),
    });
    const response = {
      payment_id: payment.payment_id,
      status: payment.status,
      amount: formatMinorUnits(payment.amount),
      confirmation_url: `${publicUrl(c)}/pay/${payment.payment_id}`,
    };
    return c.json({ code: 201, response }, 201);
  });

  api.get('/payment_methods', bearer, (c) => {
    const statuses = statusList(c);
    const agreementText = c.req.query('agreement_id');
    let agreementId: number | undefined;
    if (agreementText !== undefined) {
      if (!/^[1-9]\d{0,14}$/.test(agreementText)) throw badRequest('agreement_id: expected a positive integer');
      agreementId = Number(agreementText);
      if (!store.agreements.has(agreementId)) throw notFound(`agreement ${agreementId} not found`);
    }
    const methods = [...store.paymentMethods.values()]
      .filter((m) => (statuses === undefined || statuses.includes(m.status)) && (agreementId === undefined || m.agreement_id === agreementId))
      .map((m) => ({ ...m }));
    return c.json({ code: 200, response: { payment_methods: methods } }, 200);
  });

  api.delete('/payment_methods/:id', bearer, (c) => {
    const id = pathId(c, 'payment method');
    const method = store.paymentMethods.get(id);
    if (!method) throw notFound(`payment method ${id} not found`);
    store.disableMethod(method);
    const response = { payment_method_id: id, status: method.status, enable_auto_payments: method.enable_auto_payments };
    return c.json({ code: 200, response }, 200);
  });

  const app = new Hono<Env>();
  // Whatever the billing had to do by now is done before any request looks at it.
  app.use('*', async (_c, next) => {
    scheduler.catchUp();
    await next();
  });
  app.route(API_PREFIX, api);

  app.get('/sandbox.css', (c) => c.body(SANDBOX_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'max-age=300' }));
  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_HEADERS)) c.res.headers.set(name, value);
    }
  });
  const control = controlAuth(username, password, options.controlToken || undefined);
  app.route('/sandbox', controlApi(state, control));
  mountAdmin(app, state, control);

  app.get('/pay/:id', (c) => {
    const payment = hostedPayment(c);
    if (payment.status !== 'pending') return c.html(outcomePage(payment, returnUrlOf(payment)));
    return c.html(paymentPage(payment, store.agreements.get(payment.agreement_id), defaultCard(store, payment.agreement_id, payment.system)));
  });

  app.post('/pay/:id', bodyLimit({ maxSize: 4 * 1024 }), async (c) => {
    const payment = hostedPayment(c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const decision = form.decision;
    if (decision !== 'pay' && decision !== 'decline') throw new HTTPException(400, { message: 'Choose Pay or Decline.' });
    const card = form.card ?? defaultCard(store, payment.agreement_id, payment.system);
    if (typeof card !== 'string' || !(TEST_CARDS as readonly string[]).includes(card)) throw new HTTPException(400, { message: 'Choose one of the test cards.' });
    decidePayment(state, payment, decision, card);
    const target = returnUrlOf(payment);
    return target ? c.redirect(target, 303) : c.html(outcomePage(payment, undefined));
  });

  app.notFound((c) => {
    if (isApiPath(c.req.path) || c.req.path.startsWith('/sandbox/')) return c.json(errorBody(404, 'no such endpoint'), 404);
    return c.html(messagePage('Not found', 'There is no page at this address.'), 404);
  });

  app.onError((error, c) => {
    let status: ContentfulStatusCode = 500;
    let message = 'internal sandbox error';
    if (error instanceof HTTPException) {
      status = error.status;
      message = error.message || 'request refused';
    } else {
      console.error('billing sandbox: unexpected error', error);
    }
    const headers: Record<string, string> = {};
    if (error instanceof HTTPException) error.res?.headers.forEach((value, name) => (headers[name] = value));
    if (isApiPath(c.req.path)) return c.json(errorBody(status, message), status, headers);
    return c.html(messagePage(status === 404 ? 'Not found' : 'Request refused', message), status, headers);
  });

  /** A tariff by id, or 404. */
  function tariffOf(id: number): Tariff {
    const tariff = store.tariffs.get(id);
    if (!tariff) throw notFound(`tariff ${id} not found`);
    return tariff;
  }

  /** The period and every service must belong to the tariff. */
  function checkTerms(tariff: Tariff, periodId: number, services: readonly ServiceItem[]): void {
    if (!tariff.periods.some((p) => p.period_id === periodId)) throw notFound(`period ${periodId} not found on tariff ${tariff.tariff_id}`);
    for (const { tariff_service_id: id } of services) {
      if (!tariff.services.some((s) => s.tariff_service_id === id)) throw notFound(`service ${id} not found on tariff ${tariff.tariff_id}`);
    }
  }

  function hostedPayment(c: Context<Env>): Payment {
    const text = c.req.param('id') ?? '';
    const payment = /^[1-9]\d{0,14}$/.test(text) ? store.payments.get(Number(text)) : undefined;
    if (!payment) throw notFound('There is no payment with this number.');
    return payment;
  }

  return app;
}

/** Records every API request in `calls` before anything can refuse it, then notes the status answered. */
function recordCall(calls: SandboxCall[]): MiddlewareHandler<Env> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const call: SandboxCall = {
      method: c.req.method,
      path: url.pathname.slice(API_PREFIX.length) || '/',
      query: url.search.slice(1),
      authorization: c.req.header('authorization') ?? null,
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
const readBody: MiddlewareHandler<Env> = async (c, next) => {
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
function jsonBody<T>(c: Context<Env>, schema: z.ZodType<T>): T {
  const body = c.get('body');
  if (body.kind === 'empty') throw badRequest('a JSON body is required');
  if (!/^application\/json\s*(?:;|$)/i.test(c.req.header('content-type') ?? '')) {
    throw new HTTPException(415, { message: 'Content-Type must be application/json' });
  }
  if (body.kind === 'invalid') throw badRequest('the body is not valid JSON');
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) throw badRequest(issuesMessage(parsed.error.issues));
  return parsed.data;
}

/**
 * `status_list` in the query in any usual form (`2`, `2,3`, `[2,3]`, `status_list[]=2`, `status_list[0]=2`,
 * repeated); `undefined` when absent (every status). (A GET body cannot carry it: the Fetch API drops it.)
 */
function statusList(c: Context<Env>): number[] | undefined {
  const url = new URL(c.req.url);
  const texts = [...url.searchParams].filter(([key]) => /^status_list(?:\[\d*\])?$/.test(key)).map(([, value]) => value);
  if (!texts.length) return undefined;
  const items: unknown[] = texts.flatMap((text) => {
    const trimmed = text.trim();
    if (!trimmed.startsWith('[')) return trimmed.split(',').map((part) => part.trim());
    try {
      const value: unknown = JSON.parse(trimmed);
      return Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? String(v) : null)) : [null];
    } catch {
      return [null];
    }
  });
  if (!items.length || !items.every((item) => typeof item === 'string' && /^\d{1,9}$/.test(item))) {
    throw badRequest('status_list: expected integers, such as status_list=2 or status_list=2,3');
  }
  return items.map(Number);
}

/** Where the client goes after the decision, with `payment_id` and `status` in the query. */
export function returnUrlOf(payment: Payment): string | undefined {
  const spec = SYSTEMS[payment.system];
  const failUrl = spec.failUrl && payment.status === 'declined' ? payment.params[spec.failUrl] : undefined;
  const base = typeof failUrl === 'string' ? failUrl : payment.params[spec.returnUrl];
  if (typeof base !== 'string' || payment.status === 'pending') return undefined;
  const url = new URL(base);
  url.searchParams.set('payment_id', String(payment.payment_id));
  url.searchParams.set('status', payment.status);
  return url.href;
}

function toSubscriptionService(item: ServiceItem): SubscriptionService {
  const service: SubscriptionService = { tariff_service_id: item.tariff_service_id, multiplicator: item.multiplicator };
  if (item.modifier) service.new_price = toMinorUnits(item.modifier.new_price)!;
  return service;
}

function pathId(c: Context<Env>, what: string): number {
  const text = c.req.param('id') ?? '';
  if (!/^[1-9]\d{0,14}$/.test(text)) throw badRequest(`${what} id: expected a positive integer`);
  return Number(text);
}

function errorBody(code: number, message: string) {
  return { code, error: { message } };
}

function badRequest(message: string): HTTPException {
  return new HTTPException(400, { message });
}

function notFound(message: string): HTTPException {
  return new HTTPException(404, { message });
}

function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}
