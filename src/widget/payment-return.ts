/**
 * The payer's return from the payment page. Before `<billing-pay>` sends the payer there, it remembers the attempt in
 * the tab's `sessionStorage`; when the payer comes back to the page it expects, in that tab, the element says what it
 * honestly knows — the payment was sent to the system, or (by the system's own failure address, B's) it was not
 * completed — and fires `billing-pay-return`. The address bar alone is never believed: the failure marker counts only
 * when it names the remembered attempt, and nothing else in the address is read. Storage that cannot be used (a
 * sandboxed frame, a full quota) means no message, never an error.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { canonicalAmount } from '../eps/amount.js';
import { isLookupKind } from '../eps/lookup.js';
import type { PaymentRequest } from '../eps/request.js';
import { SYSTEM_IDS } from '../eps/systems.js';
import { emit, type BillingPayReturnDetail } from './events.js';
import { newIdempotencyKey } from './relay-client.js';

/** The `sessionStorage` key of the remembered attempt. */
const KEY = 'billing-pay-return';
/** The query parameter of B's failure address: the attempt's id. */
export const FAILED_MARKER = 'billing-pay-failed';
/** How long a remembered attempt waits for the payer's return. */
const KEPT_MS = 3_600_000;
/** How long the message stays (unless the payer pays again first). */
export const SHOWN_MS = 60_000;

/** What is remembered: the event's detail, the attempt's id, and the page (origin and path) the payer returns to. */
interface Attempt extends Omit<BillingPayReturnDetail, 'outcome'> {
  id: string;
  back: string;
}

const pageOf = (href: string) => new URL(href).href.split(/[?#]/)[0]!;

/** Forgets the remembered attempt (storage that cannot be used holds none). */
function forget(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was remembered.
  }
}

/** An attempt as this version remembers it: what another version or another script wrote is not believed. */
function isAttempt(a: Partial<Attempt> | null): a is Attempt {
  return (
    !!a &&
    (SYSTEM_IDS as readonly unknown[]).includes(a.system) &&
    canonicalAmount(a.amount) === a.amount &&
    isLookupKind(a.lookup) &&
    [a.id, a.back, a.agreement, a.paymentId, a.time].every((s) => typeof s === 'string')
  );
}

/**
 * The remembered attempt as this page's return, or `null`; takes the marker out of the address (so a reload does not
 * repeat it) and the attempt out of storage (it is said once). An attempt for another page waits for its own.
 */
function take(): BillingPayReturnDetail | null {
  const url = new URL(location.href);
  const marker = url.searchParams.get(FAILED_MARKER);
  if (marker !== null) {
    url.searchParams.delete(FAILED_MARKER);
    history.replaceState(history.state, '', url.href);
  }
  // A reload, or Back to this page, is not the payment system sending the payer back: the attempt is not said.
  const { type } = (performance.getEntriesByType?.('navigation')[0] ?? {}) as Partial<PerformanceNavigationTiming>;
  if (type === 'reload' || type === 'back_forward') {
    forget();
    return null;
  }
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY)!) as Partial<Attempt> | null;
    if (!isAttempt(stored)) {
      if (stored) forget();
      return null;
    }
    const { id, back, ...attempt } = stored;
    const fresh = Date.now() - Date.parse(attempt.time) < KEPT_MS;
    if (fresh && back !== pageOf(url.href)) return null;
    forget();
    return fresh ? { ...attempt, outcome: marker === id ? 'not_completed' : 'sent' } : null;
  } catch {
    return null;
  }
}

export class PaymentReturn implements ReactiveController {
  /** The return found when the element first connected (`undefined`: not looked for yet). */
  private detail?: BillingPayReturnDetail | null;
  /** 0: not said yet, 1: shown, 2: gone. */
  private phase = 0;
  private timer?: ReturnType<typeof setTimeout>;
  /**
   * This element's attempt, named by B's failure address. It stays the element's, so a request sent again after an
   * unknown outcome is the same request (and keeps its idempotency key).
   */
  private readonly id = newIdempotencyKey();

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    if (this.detail === undefined) this.detail = take();
    if (this.detail && this.phase < 2) void this.show();
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }

  /** The return, once `billing-pay-return` has fired (the element's `paymentReturn`). */
  get fired(): BillingPayReturnDetail | null {
    return (this.phase && this.detail) || null;
  }

  /** The return while its message is shown. */
  get shown(): BillingPayReturnDetail | null {
    return this.phase === 1 ? this.detail! : null;
  }

  /** B's failure address: the return address with this element's attempt id. */
  failUrl(returnUrl: string): string {
    try {
      const url = new URL(returnUrl);
      url.searchParams.set(FAILED_MARKER, this.id);
      return url.href;
    } catch {
      return returnUrl;
    }
  }

  /** Remembers the payment the payer is about to leave for (not without the billing's payment id). */
  remember(request: PaymentRequest, paymentId: string, returnUrl: string): void {
    if (!paymentId) return;
    try {
      const attempt: Attempt = {
        id: this.id,
        back: pageOf(returnUrl),
        system: request.system,
        amount: String(request.amount),
        lookup: request.agreement_param_id,
        agreement: request.agreement_param_value,
        paymentId,
        time: new Date().toISOString(),
      };
      sessionStorage.setItem(KEY, JSON.stringify(attempt));
    } catch {
      // No storage: the payer comes back to no message.
    }
  }

  /** Back to this page through the back/forward cache: the payer did not come back from the system's page. */
  forget(): void {
    forget();
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
