/**
 * The state of one sandbox: its clock, the billing data and the rules that act on it, the tokens issued, and what
 * tests inspect (the calls received, the counts, the faults set); its creation and its seeding (the data of
 * `billing/seed.ts`). The routes, the operations and `startSandbox` all read and change this one object.
 */
import { TokenBook } from './auth.js';
import { Autopayments } from './billing/autopayments.js';
import { Charging } from './billing/charging.js';
import { SandboxClock } from './billing/clock.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './config.js';
import type { SandboxFaults } from './faults.js';
import { Scheduler } from './billing/scheduler.js';
import { seedRecords, seedStart, seedSubscriptions } from './billing/seed.js';
import { SandboxStore } from './billing/store.js';

/** One API request as it reached the sandbox. */
export interface SandboxCall {
  method: string;
  /** Path under the API prefix: `/eps_payments`. */
  path: string;
  /** The raw query string without `?` (`''` when none). */
  query: string;
  authorization: string | null;
  /** The caller's W3C trace context, when it sent one (the relay does, with traces on). */
  traceparent: string | null;
  /** The body parsed as JSON; `undefined` when there was none or it was not JSON. */
  body: unknown;
  /** The body as received, to assert its exact text (`"amount":1500.50`). */
  rawBody: string;
  /** The HTTP status answered. */
  status?: number;
}

export interface SandboxCounts {
  /** Requests to `GET /auth`, answered or not. */
  auth: number;
  /** Requests to `POST /eps_payments`, answered or not. */
  epsPayments: number;
}

export interface SandboxState {
  /** The one source of sandbox time. */
  clock: SandboxClock;
  store: SandboxStore;
  charging: Charging;
  autopayments: Autopayments;
  /** Processes charges and triggers up to the clock's time; moves the clock. */
  scheduler: Scheduler;
  tokens: TokenBook;
  calls: SandboxCall[];
  counts: SandboxCounts;
  faults: SandboxFaults;
  /** Aborted when the sandbox closes, to cut injected delays short. */
  closing: AbortController;
  /** N as configured at start-up, which a reset restores. */
  startLeadDays: number;
}

/** A sandbox's state, seeded, its history (the seeded months) already processed. */
export function createSandboxState(
  options: Pick<SandboxOptions, 'tokenTtlSeconds' | 'liveTokens' | 'clock' | 'autopaymentLeadDays'> = {},
): SandboxState {
  const ttl = options.tokenTtlSeconds ?? SANDBOX_DEFAULTS.tokenTtlSeconds;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new TypeError(`tokenTtlSeconds must be a positive integer, not ${ttl}`);
  const clock = new SandboxClock(options.clock);
  const store = new SandboxStore(() => clock.millis());
  const charging = new Charging(store);
  const autopayments = new Autopayments(store, charging);
  const startLeadDays = options.autopaymentLeadDays ?? SANDBOX_DEFAULTS.autopaymentLeadDays;
  const state: SandboxState = {
    clock,
    store,
    charging,
    autopayments,
    scheduler: new Scheduler(store, clock, charging, autopayments, { leadDays: startLeadDays }),
    // Tokens live by the sandbox clock: moving it past `expires_in` expires them.
    tokens: new TokenBook(ttl, () => clock.millis(), options.liveTokens ?? SANDBOX_DEFAULTS.liveTokens),
    calls: [],
    counts: { auth: 0, epsPayments: 0 },
    faults: {},
    closing: new AbortController(),
    startLeadDays,
  };
  seed(state);
  return state;
}

/**
 * Empties the store and plants the seed, dated by the clock as it stands, then lets the billing process its history
 * (the charges of the seeded months): at start-up and on every reset.
 */
export function seed({ clock, store, scheduler, startLeadDays }: SandboxState): void {
  store.clear();
  seedRecords(store);
  const since = seedStart(clock.millis());
  scheduler.reset(since, startLeadDays);
  seedSubscriptions(store, since);
  scheduler.catchUp();
}
