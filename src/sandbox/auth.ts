/**
 * Authentication of the sandbox: HTTP Basic for `GET /auth`, which issues random bearer tokens that live
 * `ttlSeconds`; every other endpoint needs one that is known, not revoked and not expired.
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
  ) {}

  issue(): { token: string; expires_in: number } {
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
