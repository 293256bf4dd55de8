/**
 * The only code that talks to the billing service: a pooled keep-alive undici client with explicit timeouts, the
 * shared bearer token, and the mapping of every upstream failure to a clear relay error.
 */
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { ValidPayment } from '../../eps/request.js';
import { isRecord } from '../../eps/is-record.js';
import { isAgreementNotFound } from './agreement-not-found.js';
import { billingMessage, envelopeResponse } from './answer.js';
import { exchange } from './exchange.js';
import type { RelayConfig } from '../config/load.js';
import { RelayError } from '../http/errors.js';
import type { Logger } from 'pino';
import type { LogSecrets } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { FleetTokenCache, type RedisTokenCommands } from './fleet-token.js';
import { TokenCache, type TokenSource } from './token-cache.js';
import type { Traces } from '../observability/traces.js';

type BillingConfig = Pick<
  RelayConfig,
  'billingBaseUrl' | 'billingUsername' | 'billingPassword' | 'billingTimeoutMs' | 'tokenTtlUnit' | 'agreementNotFound'
> &
  Partial<Pick<RelayConfig, 'billingMaxResponseBytes' | 'tokenSecret' | 'tokenSecretPrevious' | 'redisKeyPrefix'>>;

/** The largest billing answer read when the configuration does not say (`BILLING_MAX_RESPONSE_BYTES`). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Each call the relay makes, and its path as a template: what metrics and spans name it by, without its values. */
const OPERATIONS = {
  auth: '/auth',
  tariffs: '/tariffs',
  eps_payments: '/eps_payments',
  payment_methods: '/payment_methods',
  payment_methods_delete: '/payment_methods/{id}',
} as const;

type Operation = keyof typeof OPERATIONS;

interface BillingAnswer {
  status: number;
  body: unknown;
  /** The billing's `Retry-After`, in whole seconds, when it sent one. */
  retryAfterSeconds?: number;
}

export class BillingClient {
  /** Keep-alive connections to the billing's one origin (a `Pool`: no URL parsed nor origin looked up per call). */
  readonly #pool: Pool;
  /** The base URL's path (`/api/rest/v1`), before each call's own. */
  readonly #basePath: string;
  readonly #tokens: TokenSource;
  readonly #basic: string;
  #probe?: { at: number; result: Promise<void> };

  private readonly metrics?: Metrics;
  /** Told every secret this client holds (the Basic value, each token as it is issued), for the logs to scrub. */
  private readonly secrets?: LogSecrets;
  private readonly traces?: Traces;

  /** With `redis`, the token is the fleet's (fleet-token.ts); else this instance's own. */
  constructor(
    private readonly config: BillingConfig,
    options: {
      metrics?: Metrics;
      redis?: RedisTokenCommands;
      secrets?: LogSecrets;
      traces?: Traces;
      logger?: Logger;
    } = {},
  ) {
    const { metrics, redis, secrets, traces, logger } = options;
    this.metrics = metrics;
    this.secrets = secrets;
    this.traces = traces;
    const base = new URL(config.billingBaseUrl);
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#pool = new Pool(base.origin, {
      connections: 256,
      keepAliveTimeout: 10_000,
      connect: { timeout: config.billingTimeoutMs },
      headersTimeout: config.billingTimeoutMs,
      bodyTimeout: config.billingTimeoutMs,
      // A larger (or endless) answer destroys its connection as soon as it passes the limit: nothing more is read.
      maxResponseSize: config.billingMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    });
    this.#basic = `Basic ${Buffer.from(`${config.billingUsername}:${config.billingPassword}`).toString('base64')}`;
    secrets?.add(config.billingPassword);
    secrets?.add(this.#basic.slice('Basic '.length));
    const issue = () => this.#issueToken();
    this.#tokens = redis
      ? new FleetTokenCache(issue, {
          redis,
          secrets: [
            config.tokenSecret ?? `${config.billingBaseUrl}\n${config.billingUsername}\n${config.billingPassword}`,
            ...(config.tokenSecretPrevious ? [config.tokenSecretPrevious] : []),
          ],
          onForeignToken: () =>
            logger?.warn(
              'the billing token in Redis is sealed under a TOKEN_SECRET this relay does not know: it uses a token of its own, unshared, until that one expires; during a rotation give the relays on the new secret TOKEN_SECRET_PREVIOUS (docs/operating.md, "Rotating secrets")',
            ),
          lockMs: longestTokenMs(config.billingTimeoutMs),
          ...(config.redisKeyPrefix && { prefix: config.redisKeyPrefix }),
        })
      : new TokenCache(issue);
  }

  /**
   * Proves that the billing answers and accepts the relay's token now: `GET /tariffs`, a read without effects, with the
   * token the payments use. Never a `GET /auth` of its own, which a billing that keeps one live token would take as a
   * new session, revoking the one the fleet pays with. Probes closer together than `READY_PROBE_MS` share one.
   */
  ready(): Promise<void> {
    const now = Date.now();
    if (!this.#probe || now - this.#probe.at >= READY_PROBE_MS) {
      this.#probe = {
        at: now,
        result: this.#authorized('tariffs', 'GET', '/tariffs').then((answer) => void successResponse(answer)),
      };
    }
    return this.#probe.result;
  }

  /**
   * `POST /eps_payments`. The body is built from validated fields only, plus the system's `eps_uuid` held here.
   * `beforeSend` runs once the token is at hand, last before the request leaves; if it throws, nothing is sent.
   */
  async createPayment(
    payment: ValidPayment,
    epsUuid: string,
    beforeSend?: () => Promise<void>,
  ): Promise<Record<string, unknown>> {
    const answer = await this.#authorized(
      'eps_payments',
      'POST',
      '/eps_payments',
      billingPaymentJson(payment, epsUuid),
      beforeSend,
    );
    // 403 and 429 say nothing about the payment: the relay is not allowed, or the billing is busy. Either refuses the
    // request unread, so the Idempotency-Key stays free for the retry. Other 4xx refuse the payment itself.
    if (answer.status === 403) {
      throw new RelayError('billing_error', {
        message: 'The billing service does not allow the relay to create payments (status 403).',
        billingReached: false,
      });
    }
    if (answer.status === 429) {
      throw new RelayError('billing_unavailable', {
        status: 503,
        message: 'The billing service is busy; try again in a moment.',
        billingReached: false,
        retryable: true,
        retryAfterSeconds: answer.retryAfterSeconds ?? 5,
      });
    }
    // A lookup that finds nothing: the payer's own mistake, on a field they can correct. No payment was created, so
    // the Idempotency-Key stays free (a retry, the same or corrected, goes to the billing and never replays this).
    if (isAgreementNotFound(answer.status, answer.body, this.config.agreementNotFound)) {
      throw new RelayError('agreement_not_found', {
        fields: { agreement_param_value: 'agreement_not_found' },
        billingReached: false,
        billingMessage: billingMessage(answer.body),
      });
    }
    if (answer.status >= 400 && answer.status < 500) throw paymentRefusal(answer);
    return successResponse(answer);
  }

  /** `GET /payment_methods` with `status_list` = [2] (current methods) for one agreement. */
  async listPaymentMethods(agreementId: number, agreementParam: string): Promise<Record<string, unknown>[]> {
    const query = new URLSearchParams({ status_list: '2', [agreementParam]: String(agreementId) });
    const answer = await this.#authorized('payment_methods', 'GET', `/payment_methods?${query}`);
    if (answer.status >= 400 && answer.status < 500) {
      throw new RelayError('billing_error', {
        message: `The billing service refused the list (status ${answer.status}).`,
        billingMessage: billingMessage(answer.body),
      });
    }
    const response = successResponse(answer);
    const list = [response.payment_methods, response.items, response.data].find(Array.isArray);
    return (list ?? []).filter(isRecord);
  }

  /** `DELETE /payment_methods/{id}`: disables the method and its autopayment. */
  async disablePaymentMethod(paymentMethodId: number): Promise<void> {
    const answer = await this.#authorized('payment_methods_delete', 'DELETE', `/payment_methods/${paymentMethodId}`);
    if (answer.status === 404) throw new RelayError('not_found', { message: 'There is no such payment method.' });
    if (answer.status >= 300) {
      throw new RelayError('billing_error', { message: `The billing service answered with status ${answer.status}.` });
    }
  }

  /**
   * A call with the bearer token. On a 401 the token is refreshed and the call made once more: the billing refused
   * it before doing anything. A second 401 means the billing does not accept the relay.
   */
  async #authorized(
    operation: Operation,
    method: Dispatcher.HttpMethod,
    path: string,
    body?: string,
    beforeSend?: () => Promise<void>,
  ): Promise<BillingAnswer> {
    let token = await this.#freshToken();
    await beforeSend?.();
    let answer = await this.#send(operation, method, path, token, body);
    if (answer.status === 401) {
      this.#tokens.invalidate(token);
      token = await this.#freshToken();
      answer = await this.#send(operation, method, path, token, body);
    }
    if (answer.status === 401) {
      throw new RelayError('billing_error', {
        message: 'The billing service refused the relay’s credentials.',
        billingReached: false,
      });
    }
    return answer;
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  /** A token for a call; failing to get one means the call was never sent. */
  async #freshToken(): Promise<string> {
    try {
      const token = await this.#tokens.get();
      // Whoever issued it (this instance or another of the fleet), it is a secret from now on.
      this.secrets?.addToken(token);
      return token;
    } catch (error) {
      if (!(error instanceof RelayError)) throw error;
      throw new RelayError(error.code, {
        status: error.status,
        message: error.message,
        cause: error.cause,
        billingReached: false,
        retryable: error.retryable,
      });
    }
  }

  /**
   * One call, tried a second time only when the first never left the relay (connection refused): a request that
   * may have reached the billing is never sent again.
   */
  async #send(
    operation: Operation,
    method: Dispatcher.HttpMethod,
    path: string,
    token: string,
    body?: string,
  ): Promise<BillingAnswer> {
    try {
      return await this.#call(operation, method, path, `Bearer ${token}`, body);
    } catch (error) {
      if (error instanceof RelayError && !error.billingReached) {
        await delay(RESEND_DELAY_MS);
        return this.#call(operation, method, path, `Bearer ${token}`, body);
      }
      throw error;
    }
  }

  /** `GET /auth`, retried with backoff: asking for a token twice is harmless. */
  async #issueToken() {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const issued = await this.#issueTokenOnce();
        this.metrics?.tokenRefreshes.inc();
        return issued;
      } catch (error) {
        const retryable = error instanceof RelayError && error.retryable;
        if (!retryable || attempt >= AUTH_ATTEMPTS) throw error;
        await delay(AUTH_BACKOFF_MS * 3 ** (attempt - 1));
      }
    }
  }

  async #issueTokenOnce() {
    const answer = await this.#call('auth', 'GET', '/auth', this.#basic);
    const response = answer.status === 200 ? envelopeResponse(answer.body) : null;
    const token = response?.token;
    const expiresIn = response?.expires_in;
    if (answer.status === 401 || answer.status === 403) {
      throw new RelayError('billing_error', {
        message: 'The billing service refused the relay’s credentials.',
        billingReached: false,
      });
    }
    if (typeof token !== 'string' || !token || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
      throw new RelayError('billing_error', {
        message: `The billing service did not issue a token (status ${answer.status}).`,
        billingReached: false,
        retryable: answer.status >= 500,
      });
    }
    return { token, lifetimeMs: this.config.tokenTtlUnit === 's' ? expiresIn * 1000 : expiresIn };
  }

  #call(
    operation: Operation,
    method: Dispatcher.HttpMethod,
    path: string,
    authorization: string,
    body?: string,
  ): Promise<BillingAnswer> {
    const call = (trace: Record<string, string>) => this.#exchange(operation, method, path, authorization, body, trace);
    return this.traces ? this.traces.billingCall({ operation, method, route: OPERATIONS[operation] }, call) : call({});
  }

  /** `trace`: the trace context headers of the call's span, when the relay traces. */
  async #exchange(
    operation: Operation,
    method: Dispatcher.HttpMethod,
    path: string,
    authorization: string,
    body: string | undefined,
    trace: Record<string, string>,
  ): Promise<BillingAnswer> {
    const timer = this.metrics?.billingLatency.startTimer({ operation });
    try {
      const headers =
        body === undefined
          ? { ...trace, authorization, accept: 'application/json' }
          : { ...trace, authorization, accept: 'application/json', 'content-type': 'application/json' };
      const res = await exchange(
        this.#pool,
        { method, path: this.#basePath + path, headers, body },
        this.config.billingTimeoutMs,
      );
      timer?.({ outcome: String(res.status) });
      const retryAfter = res.headers['retry-after'];
      const retryAfterSeconds =
        typeof retryAfter === 'string' && /^\d{1,6}$/.test(retryAfter) ? Number(retryAfter) : undefined;
      return {
        status: res.status,
        body: parseJson(res.text),
        ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
      };
    } catch (error) {
      const relayError = upstreamError(error);
      timer?.({ outcome: relayError.code });
      throw relayError;
    }
  }
}

/**
 * The billing's request as JSON text. The amount is written as the canonical decimal text the model produced
 * ("1500.50"), so it reaches the billing as a JSON number without ever being a binary float.
 */
export function billingPaymentJson(payment: ValidPayment, epsUuid: string): string {
  const rest = JSON.stringify({
    agreement_param_id: payment.agreement_param_id,
    agreement_param_value: payment.agreement_param_value,
    eps_params: Object.entries(payment.params).map(([name, value]) => ({ name, value })),
  });
  if (!/^\d+\.\d{2}$/.test(payment.amount)) throw new Error('amount is not canonical');
  return `{"eps_uuid":${JSON.stringify(epsUuid)},"amount":${payment.amount},${rest.slice(1)}`;
}

const AUTH_ATTEMPTS = 3;
const RESEND_DELAY_MS = 100;
/** A load balancer may probe readiness every second: the billing sees one `GET /auth` per this many ms at most. */
const READY_PROBE_MS = 5_000;
const AUTH_BACKOFF_MS = 100;
/**
 * The longest a call with the bearer token can take, each billing call being cut at `timeoutMs`: a token (every
 * `GET /auth` try and its backoff), the call and its one resend after a refused connection; after a 401 all of it
 * once more. An Idempotency-Key stays locked longer than this, so no retry can start while the payment may still go.
 */
export function longestAuthorizedCallMs(timeoutMs: number): number {
  const send = 2 * timeoutMs + RESEND_DELAY_MS;
  return 2 * (longestTokenMs(timeoutMs) + send);
}

/** The longest a token can take: every `GET /auth` try, each cut at `timeoutMs`, and the backoff between them. */
function longestTokenMs(timeoutMs: number): number {
  let token = AUTH_ATTEMPTS * timeoutMs;
  for (let attempt = 1; attempt < AUTH_ATTEMPTS; attempt += 1) token += AUTH_BACKOFF_MS * 3 ** (attempt - 1);
  return token;
}

/** Failures that happen before a single byte of the request is sent. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function upstreamError(error: unknown): RelayError {
  if (error instanceof RelayError) return error;
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  const notSent = code !== undefined && NOT_SENT.has(code);
  const name = (error as { name?: string }).name;
  const timedOut =
    name === 'TimeoutError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    code === 'UND_ERR_CONNECT_TIMEOUT';
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new RelayError('billing_error', {
      message: 'The billing service answered more than the relay reads (BILLING_MAX_RESPONSE_BYTES).',
      cause: error,
    });
  }
  const options = { cause: error, billingReached: !notSent, retryable: true };
  if (timedOut) return new RelayError('billing_timeout', { ...options });
  return new RelayError('billing_unavailable', { ...options });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `response` of a 2xx answer; anything else is the billing's failure. */
function successResponse(answer: BillingAnswer): Record<string, unknown> {
  if (answer.status >= 300) {
    throw new RelayError('billing_error', { message: `The billing service answered with status ${answer.status}.` });
  }
  const response = envelopeResponse(answer.body);
  if (!response) throw new RelayError('billing_error');
  return response;
}

/**
 * The relay's answer to a billing 4xx on `POST /eps_payments` (other than 401, 403 and 429): its own code and message.
 * The billing's text is never passed to the browser as free text (it may carry anything: internal names, other
 * clients' data, markup); it goes to the request's log line. (The agreement not found has its own code, above.)
 */
function paymentRefusal(answer: BillingAnswer): RelayError {
  return new RelayError('billing_rejected', { billingMessage: billingMessage(answer.body) });
}
