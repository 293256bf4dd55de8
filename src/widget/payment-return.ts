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
import type { BillingPayReturnDetail } from './events.js';
import { loadLate } from './late/load.js';
import type { LateModules } from './late/modules.js';
import { PayError } from './pay-error.js';
import type { FormValues } from './request.js';

/** The page of an address: what an attempt returns to, and what a return is compared with (return-store.ts). */
export const pageOf = (href: string) => new URL(href).href.split(/[?#]/)[0]!;

/** The `sessionStorage` key of the tab's attempt (return-store.ts). */
export const TAB_KEY = 'billing-pay-return';
/** The query parameter of the return address, and of B's failure address: the attempt's id. */
export const RETURN_MARKER = 'billing-pay-return';
export const FAILED_MARKER = 'billing-pay-failed';
/** How long a remembered attempt waits for the payer's return, unless the element is told otherwise. */
export const RETURN_MAX_AGE_MS = 3_600_000;

/** The form as the payer left it for the payment page: what "Try again" puts back. */
export type ReturnFormValues = Omit<FormValues, 'returnUrl' | 'failUrl'>;

export interface PaymentReturnOptions {
  /** How long an attempt waits for the payer's return, in ms (read when the element connects); default an hour. */
  maxAgeMs?: () => number;
  /** The result screen's module could not be had (`load_failed`): the payer is told, the form stays. */
  onLoadFailed?: (failure: PayError) => void;
}

/** The late module of the return: the storage of attempts and the result screen. */
export type ReturnModule = LateModules['return'];

/** The return module, loaded once; a failure is the payer's `load_failed`, never code run unchecked. */
export function loadReturn(): Promise<ReturnModule> {
  return loadLate('return').catch((error: unknown) => {
    throw new PayError('network', 'load_failed', 'The return could not be loaded.', { cause: error });
  });
}

export class PaymentReturn implements ReactiveController {
  /** The return found when the element first connected (`undefined`: not looked for yet, `null`: none). */
  detail?: BillingPayReturnDetail | null;
  /** The form's values of that return, for "Try again". */
  values: ReturnFormValues | null = null;
  /** 0: not said yet, 1: shown, 2: gone. */
  phase = 0;
  timer?: ReturnType<typeof setTimeout>;
  /** A return is being looked into (its module loading); `waiting`: one the form waits for (see `lookLater`). */
  private looking = false;
  private waiting = false;
  /** The result screen and the storage of attempts, once loaded. */
  module?: ReturnModule;
  /** The id of this element's attempt, once its submit chain has named one (attempt.ts). */
  attempt?: string;

  constructor(
    readonly host: ReactiveControllerHost & HTMLElement,
    private readonly options: PaymentReturnOptions = {},
  ) {
    host.addController(this);
  }

  /** How long an attempt waits for the payer's return, in ms. */
  get maxAgeMs(): number {
    return this.options.maxAgeMs?.() ?? RETURN_MAX_AGE_MS;
  }

  hostConnected(): void {
    // An address that names an attempt is looked into at once (its module loads beside /config), and the result screen
    // comes in place of the form; any other waits for `lookLater` (storage and the module cost the first screen).
    const markers = this.detail === undefined && takeMarkers();
    if (markers) void this.look(markers, true);
    // Back in the page with a return found (its module is here): said if not yet, its time to hide starting over.
    else if (this.detail && this.phase < 2) void this.module!.show(this);
  }

  /** Looks for a return without a marker (the tab that paid) once the first screen is shown, in idle time. */
  lookLater(): void {
    whenIdle(() => {
      if (this.detail !== undefined || this.looking || !this.host.isConnected) return;
      // Only a tab that holds an attempt needs the module; any other has no return to say. The form waits only for an
      // attempt that returns to this page: another page's leaves it usable.
      const back = tabAttemptPage();
      if (back === null) this.detail = null;
      else void this.look({ returned: null, failed: null }, back === pageOf(location.href));
    });
  }

  private async look(markers: Markers, wait: boolean): Promise<void> {
    this.looking = true;
    this.waiting = wait;
    if (wait) this.host.requestUpdate();
    try {
      this.module = await loadReturn();
    } catch (error) {
      this.detail = null;
      // Told only where the form waited for it: on a usable form, Pay says it if the payment needs the module.
      if (wait) this.options.onLoadFailed?.(error as PayError);
      return;
    } finally {
      this.looking = false;
      if (wait) {
        this.waiting = false;
        this.host.requestUpdate();
      }
    }
    this.module.found(this, markers);
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }

  /** The return, once `billing-pay-return` has fired (the element's `paymentReturn`). */
  get fired(): BillingPayReturnDetail | null {
    return (this.phase && this.detail) || null;
  }

  /**
   * A return the form waits for being looked into, or one about to be said: the form waits, so it never flashes before
   * the result screen.
   */
  get pending(): boolean {
    return !this.phase && (this.waiting || !!this.detail);
  }

  /**
   * The form's values of the return this element found (once it has fired), for "Try again" to put back: `null`
   * when there is none.
   */
  get tryAgain(): ReturnFormValues | null {
    return (this.phase && this.detail && this.values) || null;
  }

  /** Loads the return module (rejects with `load_failed`) and keeps it. */
  async preload(): Promise<ReturnModule> {
    return (this.module ??= await loadReturn());
  }

  /** Back to this page through the back/forward cache: the payer did not come back from the system's page. */
  forget(): void {
    // Remembered only through the module: without it there is nothing to forget.
    if (this.attempt) this.module?.forget(this.attempt);
  }

  /** Takes the message away (the next payment, or its time is up). */
  clear(): void {
    clearTimeout(this.timer);
    if (this.phase === 1) this.host.requestUpdate();
    this.phase = 2;
  }
}

/**
 * The page this tab's attempt returns to, read without the module (`''` when it does not say); `null` when the tab
 * holds none, or nothing it can read (the module would not either). The module checks the rest.
 */
function tabAttemptPage(): string | null {
  try {
    const held = sessionStorage.getItem(TAB_KEY);
    if (held === null) return null;
    const { back } = (JSON.parse(held) ?? {}) as { back?: unknown };
    return typeof back === 'string' ? back : '';
  } catch {
    return null;
  }
}

/** The attempt ids the page's address names (`null`: none), as the payment system brought the payer back. */
export interface Markers {
  returned: string | null;
  failed: string | null;
}

/**
 * Takes the markers out of the page's address at once (a reload or a shared link does not repeat the return), and
 * answers them; `null` when there are none.
 */
function takeMarkers(): Markers | null {
  const url = new URL(location.href);
  const markers = { returned: url.searchParams.get(RETURN_MARKER), failed: url.searchParams.get(FAILED_MARKER) };
  if (markers.returned === null && markers.failed === null) return null;
  url.searchParams.delete(RETURN_MARKER);
  url.searchParams.delete(FAILED_MARKER);
  history.replaceState(history.state, '', url.href);
  return markers;
}

/** Runs `fn` when the main thread is idle (`requestIdleCallback`, else a timer where the browser has none). */
export function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 1000 });
  else setTimeout(fn, 50);
}
