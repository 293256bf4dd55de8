/**
 * Authentication of the sandbox: HTTP Basic for `GET /auth`, which issues random bearer tokens that live
 * `ttlSeconds` of sandbox time (so moving the clock expires them) — with `liveTokens: 'one'`, each new one revoking
 * those before, as a session-based billing does; every other endpoint needs one that is known, not
 * revoked and not expired. The control API takes the same Basic credentials, or the control token when one is set.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';

export type TokenCheck = 'valid' | 'unknown' | 'expired';

export class TokenBook {
  readonly #expiry = new Map<string, number>();

  constructor(
    readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
    private readonly liveTokens: 'many' | 'one' = 'many',
  ) {}

  issue(): { token: string; expires_in: number } {
    if (this.liveTokens === 'one') this.#expiry.clear();
    this.#prune();
    const token = randomBytes(24).toString('base64url');
    this.#expiry.set(token, this.now() + this.ttlSeconds * 1000);
    return { token, expires_in: this.ttlSeconds };
  }

  check(token: string): TokenCheck {
    const expiresAt = this.#expiry.get(token);
    if (expiresAt === undefined) return 'unknown';
    if (this.now() >= expiresAt) {
      this.#expiry.delete(token);
      return 'expired';
    }
    return 'valid';
  }

  /** After the clock was set back by `ms` (a reset): each token keeps the lifetime it had left. */
  shift(ms: number): void {
    for (const [token, expiresAt] of this.#expiry) this.#expiry.set(token, expiresAt - ms);
  }

  /** Forgets every token issued so far: the next call with one of them is answered 401. */
  revokeAll(): void {
    this.#expiry.clear();
  }

  #prune(): void {
    const now = this.now();
    for (const [token, expiresAt] of this.#expiry) if (now >= expiresAt) this.#expiry.delete(token);
  }
}

/** True when the `Authorization` header carries exactly these Basic credentials (compared in constant time). */
export function basicMatches(header: string | undefined, username: string, password: string): boolean {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const same = (a: string, b: string) => timingSafeEqual(sha256(a), sha256(b));
  // Both halves are always compared, so the time taken does not tell which one was wrong.
  const userOk = same(decoded.slice(0, colon), username);
  const passwordOk = same(decoded.slice(colon + 1), password);
  return userOk && passwordOk;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Refuses a request without a valid `Authorization: Bearer <token>` with 401. */
export function bearerAuth(tokens: TokenBook): MiddlewareHandler {
  return async (c, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '');
    const state = match ? tokens.check(match[1]!) : 'missing';
    if (state !== 'valid') {
      const message = {
        missing: 'an Authorization: Bearer <token> header is required',
        unknown: 'the bearer token is not valid (unknown or revoked)',
        expired: 'the bearer token has expired',
      }[state];
      const headers = { 'WWW-Authenticate': `Bearer realm="billing-sandbox", error="invalid_token"` };
      throw new HTTPException(401, { message, res: new Response(null, { headers }) });
    }
    await next();
  };
}

/**
 * Guards the sandbox's control API and the pages' forms: the sandbox's Basic credentials, or `Authorization: Bearer
 * <controlToken>` when a control token is configured. A refusal asks for Basic, so a browser prompts once.
 */
export function controlAuth(username: string, password: string, controlToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const bearer = /^Bearer +(\S+) *$/i.exec(header ?? '');
    const ok = bearer
      ? controlToken !== undefined && timingSafeEqual(sha256(bearer[1]!), sha256(controlToken))
      : basicMatches(header, username, password);
    if (!ok) {
      const res = new Response(null, {
        headers: { 'WWW-Authenticate': 'Basic realm="billing-sandbox control", charset="UTF-8"' },
      });
      throw new HTTPException(401, {
        message: "the sandbox's Basic credentials (or its control token) are required",
        res,
      });
    }
    await next();
  };
}
