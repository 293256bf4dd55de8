/**
 * This element's payment attempt on its way out, made once per element by the submit chain: the return addresses that
 * name it (`billing-pay-return=<id>`, and `billing-pay-failed=<id>` in B's failure address, read by payment-return.ts
 * when the payer comes back), and the attempt remembered before the page is left. One per element, so a request sent
 * again after an unknown outcome is the same request (and keeps its idempotency key).
 */
import type { PaymentRequest } from '../eps/request.js';
import { FAILED_MARKER, RETURN_MARKER, type PaymentReturn, type ReturnModule } from './payment-return.js';
import { newIdempotencyKey } from './payment-sender.js';

export class Attempt {
  readonly id = newIdempotencyKey();

  constructor(private readonly returned: PaymentReturn) {
    returned.attempt = this.id;
  }

  /** The return address with this attempt's id: the payer's return is then known in a new tab too. */
  returnUrl(address: string): string {
    return marked(address, RETURN_MARKER, FAILED_MARKER, this.id);
  }

  /** B's failure address: the return address with this attempt's id as a failure. */
  failUrl(address: string): string {
    return marked(address, FAILED_MARKER, RETURN_MARKER, this.id);
  }

  /**
   * Remembers the payment the payer is about to leave for (not without the billing's payment id), in the tab and in
   * the origin's recent attempts, with the return module: at once when it is here (loaded before the payment was
   * sent), so the page is left right after.
   */
  remember(request: PaymentRequest, paymentId: string, returnUrl: string): void | Promise<void> {
    const { returned } = this;
    const write = (module: ReturnModule) => module.remember(this.id, request, paymentId, returnUrl, returned.maxAgeMs);
    return returned.module ? write(returned.module) : returned.preload().then(write);
  }
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
