/**
 * The billing's bearer token, fetched once and shared: refreshed about a minute before it runs out (a tenth of its
 * life when that is shorter), never by more than one call at a time.
 */
export interface IssuedToken {
  token: string;
  /** Lifetime in milliseconds. */
  lifetimeMs: number;
}

const MAX_MARGIN_MS = 60_000;

export class TokenCache {
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

  /** A new token now, whatever the cache holds (shared with a refresh already under way). */
  refresh(): Promise<string> {
    return (this.#pending ??= this.#refresh());
  }

  /** Forgets `token` after the billing refused it, unless a newer one has replaced it already. */
  invalidate(token: string): void {
    if (this.#current?.token === token) this.#current = undefined;
  }

  async #refresh(): Promise<string> {
    try {
      const { token, lifetimeMs } = await this.issue();
      const issuedAt = this.now();
      const margin = Math.min(MAX_MARGIN_MS, lifetimeMs / 10);
      this.#current = { token, refreshAt: issuedAt + lifetimeMs - margin, expiresAt: issuedAt + lifetimeMs };
      return token;
    } finally {
      this.#pending = undefined;
    }
  }
}
