/**
 * What the origin remembers of the payer's attempts (payment-return.ts says what is believed and why): the tab's
 * attempt in `sessionStorage`, the origin's recent ones in `localStorage`, read back and checked. Loaded with the
 * result screen (late/return.late.ts), off the first screen's path.
 */
import { canonicalAmount } from '../eps/amount.js';
import { isLookupKind } from '../eps/lookup.js';
import type { PaymentRequest } from '../eps/request.js';
import { SYSTEM_IDS, SYSTEMS } from '../eps/systems.js';
import type { BillingPayReturnDetail } from './events.js';
import { pageOf, TAB_KEY, type Markers, type ReturnFormValues } from './payment-return.js';
import { TEXT_PARAMS } from './request.js';

/** The `sessionStorage` key of the tab's attempt, and the `localStorage` key of the origin's recent attempts. */
const KEY = TAB_KEY;
const RECENT_KEY = 'billing-pay-returns';
/** The most attempts the origin keeps (the newest). */
const MAX_KEPT = 5;

/** What is remembered: the event's detail, the form, the attempt's id, and the page the payer returns to. */
interface Attempt extends Omit<BillingPayReturnDetail, 'outcome'> {
  id: string;
  back: string;
  values: ReturnFormValues;
}

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
export function forget(id?: string): void {
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
export function take(
  maxAgeMs: number,
  { returned, failed }: Markers,
): { detail: BillingPayReturnDetail; values: ReturnFormValues } | null {
  const url = new URL(location.href);
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

/**
 * Remembers the payment the payer is about to leave for as attempt `id` (not without the billing's payment id), in the
 * tab and in the origin's recent attempts (pruned as they are written). Without storage the payer comes back to no
 * message.
 */
export function remember(
  id: string,
  request: PaymentRequest,
  paymentId: string,
  returnUrl: string,
  maxAgeMs: number,
): void {
  if (!paymentId) return;
  let back: string;
  try {
    back = pageOf(returnUrl);
  } catch {
    return;
  }
  const attempt: Attempt = {
    id,
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
  const others = recent(maxAgeMs).filter((a) => a.id !== id);
  keep([...others, attempt].slice(-MAX_KEPT));
}
