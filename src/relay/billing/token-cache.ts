/**
 * The billing's bearer token, fetched once and shared by the calls of one instance: refreshed about a minute before it
 * runs out (a tenth of its life when that is shorter), never by more than one call at a time. (A fleet on Redis shares
 * one: fleet-token.ts.)
 */
export interface IssuedToken {
  token: string;
  /** Lifetime in milliseconds. */
  lifetimeMs: number;
}

/** Where the billing client gets its token. */
export interface TokenSource {
  /** A token that is valid now. */
  get(): Promise<string>;
  /** Forgets `token` after the billing refused it, unless a newer one has replaced it already. */
  invalidate(token: string): void;
}

const MAX_MARGIN_MS = 60_000;

/** When a token issued at `issuedAt` is renewed, and when it runs out. */
export function tokenTimes(issuedAt: number, lifetimeMs: number): { refreshAt: number; expiresAt: number } {
  return {
    refreshAt: issuedAt + lifetimeMs - Math.min(MAX_MARGIN_MS, lifetimeMs / 10),
    expiresAt: issuedAt + lifetimeMs,
  };
}

export class TokenCache implements TokenSource {
  #current?: { token: string; refreshAt: number; expiresAt: number };
  #pending?: Promise<string>;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token that is valid now. */
  async get(): Promise<string> {
    const current = this.#current;
    const now = this.now();
    if (current && now < current.refreshAt) return current.token;
    const refresh = (this.#pending ??= this.#refresh());
    // Inside the margin the old token still works: use it while the new one is on its way.
    if (current && now < current.expiresAt) {
      refresh.catch(() => {});
      return current.token;
    }
    return refresh;
  }

  /** Forgets `token` after the billing refused it, unless a newer one has replaced it already. */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  async #refresh(): Promise<string> {
    try {
      const { token, lifetimeMs } = await this.issue();
      this.#current = { token, ...tokenTimes(this.now(), lifetimeMs) };
      return token;
    } finally {
      this.#pending = undefined;
    }
  }
}
