/**
 * Autopayments: the billing charges an agreement's saved method, on one of the spec's three triggers, for the
 * agreement's recommended payment — and charges nothing when that is 0 or when no method with autopayment connected
 * is left (a method disabled by `DELETE /payment_methods/{id}` or on the client card is never charged again). With
 * several, the latest saved one is used. In the sandbox an autopayment always succeeds; it is credited at once, and
 * what it now covers is activated or unblocked.
 */
import { formatMinorUnits } from '../../eps/amount.js';
import { timestamp } from './calendar.js';
import type { Charging } from './charging.js';
import { METHOD_ACTIVE, type Autopayment, type AutopaymentTrigger, type PaymentMethod } from './records.js';
import type { SandboxStore } from './store.js';

/** How each trigger reads in the journal and on the client card. */
export const TRIGGER_TEXT: Readonly<Record<AutopaymentTrigger, string>> = {
  before_period: 'before a new period',
  blocking: 'financial blocking',
  hourly: 'hourly sweep',
};

/** The method autopayments of an agreement use: its latest active one with autopayment connected. */
export function autopaymentMethodOf(store: SandboxStore, agreementId: number): PaymentMethod | undefined {
  return store
    .methodsOf(agreementId)
    .filter((m) => m.status === METHOD_ACTIVE && m.enable_auto_payments)
    .at(-1);
}

export class Autopayments {
  constructor(
    private readonly store: SandboxStore,
    private readonly charging: Charging,
  ) {}

  /** Fires one trigger for an agreement at `at`: charges the recommended payment by its method, if any is due. */
  fire(agreementId: number, trigger: AutopaymentTrigger, at: number, subscriptionId?: number): Autopayment | undefined {
    const method = autopaymentMethodOf(this.store, agreementId);
    if (!method) return undefined;
    const amount = this.charging.recommendedPayment(agreementId, at);
    const about = subscriptionId === undefined ? {} : { subscription_id: subscriptionId };
    if (amount === 0n) {
      this.store.record({
        at: timestamp(at),
        kind: 'autopayment_skipped',
        agreement_id: agreementId,
        ...about,
        trigger,
        payment_method_id: method.payment_method_id,
        text: `Autopayment (${TRIGGER_TEXT[trigger]}): nothing to pay, the recommended payment is 0`,
      });
      return undefined;
    }
    const autopayment = this.store.addAutopayment({
      agreement_id: agreementId,
      payment_method_id: method.payment_method_id,
      system: method.system,
      trigger,
      amount,
      at: timestamp(at),
      ...about,
    });
    this.store.post({
      agreement_id: agreementId,
      at: autopayment.at,
      kind: 'autopayment',
      amount,
      description: `Autopayment no. ${autopayment.autopayment_id} (${TRIGGER_TEXT[trigger]}) by method ${method.payment_method_id}`,
      autopayment_id: autopayment.autopayment_id,
      ...about,
    });
    this.store.record({
      at: autopayment.at,
      kind: 'autopayment',
      agreement_id: agreementId,
      ...about,
      trigger,
      payment_method_id: method.payment_method_id,
      amount: formatMinorUnits(amount),
      text: `Autopayment no. ${autopayment.autopayment_id} (${TRIGGER_TEXT[trigger]}): ${formatMinorUnits(amount)} by method ${method.payment_method_id} (${method.title})`,
    });
    this.charging.settle(agreementId, at);
    return autopayment;
  }

  /** Whether the hourly sweep looks at an agreement: negative balance, or a subscription awaiting or blocked. */
  sweeps(agreementId: number): boolean {
    const agreement = this.store.agreements.get(agreementId);
    if (!agreement) return false;
    return (
      agreement.balance < 0n ||
      this.store
        .subscriptionsOf(agreementId)
        .some((s) => s.billing.state === 'awaiting_activation' || s.billing.state === 'blocked')
    );
  }
}
