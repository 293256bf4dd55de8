/**
 * Saying a return (payment-return.ts says which are believed): the attempt the address or the tab names, taken from
 * the storage, then the message shown and `billing-pay-return` fired, and the message gone after a while. Loaded with
 * the result screen (late/return.late.ts), off the first screen's path.
 */
import { emit } from './events.js';
import type { Markers, PaymentReturn } from './payment-return.js';
import { take } from './return-store.js';

/** How long the message stays (unless the payer pays again first). */
export const SHOWN_MS = 60_000;

/** The attempt `markers` (or the tab) name, if it is believed, is this element's return: said once. */
export function found(r: PaymentReturn, markers: Markers): void {
  const attempt = take(r.maxAgeMs, markers);
  r.detail = attempt?.detail ?? null;
  r.values = attempt?.values ?? null;
  if (r.detail && r.phase < 2) void show(r);
}

/**
 * Shows the message and fires the event once the page's own scripts could listen (they have run) and the empty live
 * region has been rendered in an earlier task (so the message is announced), then hides it after `SHOWN_MS`. Again
 * after a reconnection: the time to hide starts over.
 */
export async function show(r: PaymentReturn): Promise<void> {
  const { host } = r;
  await host.updateComplete;
  // Modules run when the document is already `interactive`, before DOMContentLoaded; whichever of it and `load` comes
  // first means the page's scripts have run.
  if (document.readyState !== 'complete')
    await new Promise((resolve) => {
      for (const name of ['DOMContentLoaded', 'load']) addEventListener(name, resolve, { once: true });
    });
  clearTimeout(r.timer);
  r.timer = setTimeout(() => {
    if (!host.isConnected || r.phase > 1) return;
    if (!r.phase) {
      r.phase = 1;
      host.requestUpdate();
      emit(host, 'billing-pay-return', r.detail!);
    }
    r.timer = setTimeout(() => r.clear(), SHOWN_MS);
  });
}
