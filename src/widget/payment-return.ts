/**
 * The payer's return from the payment page. Before `<billing-pay>` sends the payer there, it names the attempt in the
 * return addresses (`billing-pay-return=<id>`, and `billing-pay-failed=<id>` in B's failure address) and remembers it
 * in the origin's `localStorage` (banking apps often bring the payer back in a new tab) and the tab's `sessionStorage`.
 * When the payer comes back to the page it expects, the element says what it honestly knows — the payment was sent to
 * the system, or (by B's failure address) it was not completed — and fires `billing-pay-return`.
 *
 * The address bar alone is never believed: a marker counts only when it names an attempt this origin remembers, for
 * this page, younger than the maximum age (an hour by default); an address without a marker counts only in the tab
 * that paid. Both markers leave the address, the attempt leaves both storages once said, and old attempts are pruned
 * on every read and write. What is kept is what the result screen and its "Try again" need: the payment (system,
 * amount, agreement lookup, payment id, time) and the form's values (the optional e-mail, phone, name and comment
 * included) — personal data kept for at most the maximum age, on the payer's own device. Storage that cannot be used
 * (a sandboxed frame, a full quota) means no message, never an error.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { canonicalAmount } from '../eps/amount.js';
import { isLookupKind } from '../eps/lookup.js';
import type { PaymentRequest } from '../eps/request.js';
import { SYSTEM_IDS, SYSTEMS } from '../eps/systems.js';
import { emit, type BillingPayReturnDetail } from './events.js';
import { newIdempotencyKey } from './relay-client.js';
import { TEXT_PARAMS, type FormValues } from './request.js';

/** The `sessionStorage` key of the tab's attempt, and the `localStorage` key of the origin's recent attempts. */
const KEY = 'billing-pay-return';
const RECENT_KEY = 'billing-pay-returns';
/** The query parameter of the return address, and of B's failure address: the attempt's id. */
export const RETURN_MARKER = 'billing-pay-return';
export const FAILED_MARKER = 'billing-pay-failed';
/** How long a remembered attempt waits for the payer's return, unless the element is told otherwise. */
export const RETURN_MAX_AGE_MS = 3_600_000;
/** The most attempts the origin keeps (the newest). */
const MAX_KEPT = 5;
/** How long the message stays (unless the payer pays again first). */
export const SHOWN_MS = 60_000;

/** The form as the payer left it for the payment page: what "Try again" puts back. */
export type ReturnFormValues = Omit<FormValues, 'returnUrl' | 'failUrl'>;

/** What is remembered: the event's detail, the form, the attempt's id, and the page the payer returns to. */
interface Attempt extends Omit<BillingPayReturnDetail, 'outcome'> {
  id: string;
  back: string;
  values: ReturnFormValues;
}

const pageOf = (href: string) => new URL(href).href.split(/[?#]/)[0]!;

/** `fn` on a storage that may not be usable (a sandboxed frame, a full quota, storage turned off): `fallback` then. */
function using<T>(storage: () => Storage, fn: (s: Storage) => T, fallback: T): T {
  try {
    return fn(storage());
  } catch {
    return fallback;
  }
}

const tab = () => sessionStorage;
const origin = () => localStorage;

const isText = (v: unknown): v is string => typeof v === 'string';

function isValues(v: Partial<ReturnFormValues> | undefined, a: Partial<Attempt>): v is ReturnFormValues {
  return (
    !!v &&
    v.system === a.system &&
    v.amount === a.amount &&
    v.lookupKind === a.lookup &&
    v.lookupValue === a.agreement &&
    TEXT_PARAMS.every((name) => isText(v[name])) &&
    typeof v.save === 'boolean' &&
    typeof v.linkOnly === 'boolean'
  );
}

/** An attempt as this version remembers it: what another version or another script wrote is not believed. */
function isAttempt(a: Partial<Attempt> | null | undefined): a is Attempt {
  return (
    !!a &&
    (SYSTEM_IDS as readonly unknown[]).includes(a.system) &&
    canonicalAmount(a.amount) === a.amount &&
    isLookupKind(a.lookup) &&
    [a.id, a.back, a.agreement, a.paymentId, a.time].every(isText) &&
    !Number.isNaN(Date.parse(a.time!)) &&
    isValues(a.values, a)
  );
}

/** The origin's recent attempts that are still believable, newest last; the rest are dropped from storage. */
function recent(maxAgeMs: number): Attempt[] {
  return using(
    origin,
    (s) => {
      const stored = JSON.parse(s.getItem(RECENT_KEY) ?? '[]') as unknown;
      const all = Array.isArray(stored) ? (stored as Partial<Attempt>[]) : [];
      const kept = all.filter((a): a is Attempt => isAttempt(a) && isFresh(a, maxAgeMs)).slice(-MAX_KEPT);
      if (kept.length !== all.length) keep(kept);
      return kept;
    },
    [],
  );
}

function keep(attempts: Attempt[]): void {
  using(
    origin,
    (s) => (attempts.length ? s.setItem(RECENT_KEY, JSON.stringify(attempts)) : s.removeItem(RECENT_KEY)),
    undefined,
  );
}

const isFresh = (a: Attempt, maxAgeMs: number) => {
  const age = Date.now() - Date.parse(a.time);
  return age >= 0 && age < maxAgeMs;
};

/** Forgets the attempt `id` (every attempt when none is named) in the tab, and `id` in the origin's list. */
function forget(id?: string): void {
  using(tab, (s) => s.removeItem(KEY), undefined);
  if (id !== undefined) {
    const all = using(origin, (s) => JSON.parse(s.getItem(RECENT_KEY) ?? '[]') as unknown, []);
    if (Array.isArray(all)) keep((all as Attempt[]).filter((a) => a?.id !== id));
  }
}

/**
 * This page's return, or `null`: takes the markers out of the address (so a reload does not repeat it) and the
 * attempt out of both storages (it is said once). An attempt for another page waits for its own.
 */
function take(maxAgeMs: number): { detail: BillingPayReturnDetail; values: ReturnFormValues } | null {
  const url = new URL(location.href);
  const returned = url.searchParams.get(RETURN_MARKER);
  const failed = url.searchParams.get(FAILED_MARKER);
  if (returned !== null || failed !== null) {
    url.searchParams.delete(RETURN_MARKER);
    url.searchParams.delete(FAILED_MARKER);
    history.replaceState(history.state, '', url.href);
  }
  const inTab = using(tab, (s) => JSON.parse(s.getItem(KEY)!) as Partial<Attempt> | null, null);
  // A reload, or Back to this page, is not the payment system sending the payer back: the attempt is not said.
  const { type } = (performance.getEntriesByType?.('navigation')[0] ?? {}) as Partial<PerformanceNavigationTiming>;
  if (type === 'reload' || type === 'back_forward') {
    forget(isAttempt(inTab) ? inTab.id : undefined);
    return null;
  }
  if (inTab && (!isAttempt(inTab) || !isFresh(inTab, maxAgeMs))) forget();
  const tabAttempt = isAttempt(inTab) && isFresh(inTab, maxAgeMs) ? inTab : null;
  const attempts = recent(maxAgeMs);
  const originUsable = using(origin, (s) => s.getItem(RECENT_KEY) === s.getItem(RECENT_KEY), false);
  const remembered = (id: string | null) => (id === null ? undefined : attempts.find((a) => a.id === id));
  // The address names the attempt (a new tab has only the origin's record), or the tab that paid holds it, and the
  // origin still does (said in another tab, it is gone there).
  const attempt =
    remembered(returned) ??
    remembered(failed) ??
    (tabAttempt && (!originUsable || remembered(tabAttempt.id)) ? tabAttempt : undefined);
  if (!attempt) return null;
  const { id, back, values, ...detail } = attempt;
  if (back !== pageOf(url.href)) return null;
  forget(id);
  // Both markers, or the return marker, name a sent payment: the weaker claim when they disagree.
  const outcome = failed === id && returned !== id ? 'not_completed' : 'sent';
  return { detail: { ...detail, outcome }, values };
}

/** The form's values, read back from the request the widget built from them. */
function valuesOf(request: PaymentRequest): ReturnFormValues {
  const spec = SYSTEMS[request.system];
  const params = Object.fromEntries(request.eps_params.map(({ name, value }) => [name, value]));
  const text = (name: string) => (typeof params[name] === 'string' ? params[name] : '');
  const save = spec.saveFlag !== undefined && params[spec.saveFlag] === true;
  return {
    system: request.system,
    amount: String(request.amount),
    lookupKind: request.agreement_param_id,
    lookupValue: request.agreement_param_value,
    email: text('email'),
    phone: text('phone'),
    name: text('name'),
    comment: text('comment'),
    save,
    linkOnly: save && !!spec.linkOnly && Object.keys(spec.linkOnly).every((name) => params[name] === true),
  };
}

export interface PaymentReturnOptions {
  /** How long an attempt waits for the payer's return, in ms (read when the element connects); default an hour. */
  maxAgeMs?: () => number;
}

export class PaymentReturn implements ReactiveController {
  /** The return found when the element first connected (`undefined`: not looked for yet). */
  private detail?: BillingPayReturnDetail | null;
  /** The form's values of that return, for "Try again". */
  private values: ReturnFormValues | null = null;
  /** 0: not said yet, 1: shown, 2: gone. */
  private phase = 0;
  private timer?: ReturnType<typeof setTimeout>;
  /**
   * This element's attempt, named by B's failure address. It stays the element's, so a request sent again after an
   * unknown outcome is the same request (and keeps its idempotency key).
   */
  private readonly id = newIdempotencyKey();

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly options: PaymentReturnOptions = {},
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    // An address that names an attempt is read at once, so the result screen comes in place of the form; any other
    // waits for `lookLater` (reading storage costs the first screen time, and an unmarked return is rare).
    if (this.detail === undefined && isMarked()) this.look();
    else if (this.detail && this.phase < 2) void this.show();
  }

  /** Whether the payer is coming back by an address the widget marked (the result screen is then likely). */
  get expected(): boolean {
    return this.detail === undefined ? isMarked() : !!this.detail;
  }

  /** Looks for a return without a marker (the tab that paid) once the first screen is shown, in idle time. */
  lookLater(): void {
    if (this.detail === undefined) whenIdle(() => this.detail === undefined && this.host.isConnected && this.look());
  }

  private look(): void {
    const found = take(this.options.maxAgeMs?.() ?? RETURN_MAX_AGE_MS);
    this.detail = found?.detail ?? null;
    this.values = found?.values ?? null;
    if (this.detail && this.phase < 2) void this.show();
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }

  /** The return, once `billing-pay-return` has fired (the element's `paymentReturn`). */
  get fired(): BillingPayReturnDetail | null {
    return (this.phase && this.detail) || null;
  }

  /** A return found and about to be said: the form waits, so it never flashes before the result screen. */
  get pending(): boolean {
    return !this.phase && !!this.detail;
  }

  /** The return while its message is shown. */
  get shown(): BillingPayReturnDetail | null {
    return this.phase === 1 ? this.detail! : null;
  }

  /**
   * The form's values of the return this element found (once it has fired), for "Try again" to put back: `null`
   * when there is none.
   */
  get tryAgain(): ReturnFormValues | null {
    return (this.phase && this.detail && this.values) || null;
  }

  /** The return address with this element's attempt id: the payer's return is then known in a new tab too. */
  returnUrl(returnUrl: string): string {
    return marked(returnUrl, RETURN_MARKER, FAILED_MARKER, this.id);
  }

  /** B's failure address: the return address with this element's attempt id as a failure. */
  failUrl(returnUrl: string): string {
    return marked(returnUrl, FAILED_MARKER, RETURN_MARKER, this.id);
  }

  /**
   * Remembers the payment the payer is about to leave for (not without the billing's payment id), in the tab and in
   * the origin's recent attempts (pruned as they are written). Without storage the payer comes back to no message.
   */
  remember(request: PaymentRequest, paymentId: string, returnUrl: string): void {
    if (!paymentId) return;
    let back: string;
    try {
      back = pageOf(returnUrl);
    } catch {
      return;
    }
    const attempt: Attempt = {
      id: this.id,
      back,
      system: request.system,
      amount: String(request.amount),
      lookup: request.agreement_param_id,
      agreement: request.agreement_param_value,
      paymentId,
      time: new Date().toISOString(),
      values: valuesOf(request),
    };
    using(tab, (s) => s.setItem(KEY, JSON.stringify(attempt)), undefined);
    const others = recent(this.options.maxAgeMs?.() ?? RETURN_MAX_AGE_MS).filter((a) => a.id !== this.id);
    keep([...others, attempt].slice(-MAX_KEPT));
  }

  /** Back to this page through the back/forward cache: the payer did not come back from the system's page. */
  forget(): void {
    forget(this.id);
  }

  /** Takes the message away (the next payment, or its time is up). */
  clear(): void {
    clearTimeout(this.timer);
    if (this.phase === 1) this.host.requestUpdate();
    this.phase = 2;
  }

  /**
   * Shows the message and fires the event once the page's own scripts could listen (they have run) and the
   * empty live region has been rendered in an earlier task (so the message is announced), then hides it after
   * `SHOWN_MS`. Again after a reconnection: the time to hide starts over.
   */
  private async show(): Promise<void> {
    await this.host.updateComplete;
    // Modules run when the document is already `interactive`, before DOMContentLoaded; whichever of it and `load` comes
    // first means the page's scripts have run.
    if (document.readyState !== 'complete')
      await new Promise((resolve) => {
        for (const name of ['DOMContentLoaded', 'load']) addEventListener(name, resolve, { once: true });
      });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.host.isConnected || this.phase > 1) return;
      if (!this.phase) {
        this.phase = 1;
        this.host.requestUpdate();
        emit(this.host, 'billing-pay-return', this.detail!);
      }
      this.timer = setTimeout(() => this.clear(), SHOWN_MS);
    });
  }
}

/** Whether the page's address holds either marker (read without touching storage). */
function isMarked(): boolean {
  const query = new URLSearchParams(location.search);
  return query.has(RETURN_MARKER) || query.has(FAILED_MARKER);
}

/** Runs `fn` when the main thread is idle (`requestIdleCallback`, else a timer where the browser has none). */
export function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 1000 });
  else setTimeout(fn, 50);
}

/** `address` with `marker` set to `id` and `other` taken out; as given when it is not an absolute URL. */
function marked(address: string, marker: string, other: string, id: string): string {
  try {
    const url = new URL(address);
    url.searchParams.delete(other);
    url.searchParams.set(marker, id);
    return url.href;
  } catch {
    return address;
  }
}
