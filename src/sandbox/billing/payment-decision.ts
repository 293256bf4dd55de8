/**
 * How the billing handles an EPS payment: what its parameters ask for (saving the card, autopayment, a test payment),
 * which test card the hosted page offers first, and the client's decision there — paying credits the balance (not
 * for a test payment), saves the card when asked, and activates or unblocks what the balance now covers.
 */
import { SYSTEMS, savesMethod, type SystemId } from '../../eps/systems.js';
import { timestamp } from './calendar.js';
import type { Charging } from './charging.js';
import { METHOD_ACTIVE, type Payment, type PaymentDecision } from './records.js';
import type { SandboxStore } from './store.js';

/** The test cards the hosted page offers, the first by default; a saved method is titled by its card. */
export const TEST_CARDS = ['Visa •••• 4242', 'Mastercard •••• 4444', 'Mir •••• 0018'] as const;

export type PaymentTerms = Pick<Payment, 'saves_method' | 'connects_autopay' | 'link_only'>;

/** What a payment's validated `eps_params` ask of the billing, by its system's rules. */
export function paymentTerms(system: SystemId, params: Record<string, unknown>): PaymentTerms {
  const spec = SYSTEMS[system];
  const saves_method = savesMethod(system, params);
  const connects_autopay = saves_method && Object.keys(spec.autopay ?? {}).every((name) => params[name] === true);
  const link_only = Object.keys(spec.linkOnly ?? {}).some((name) => params[name] === true);
  return { saves_method, connects_autopay, link_only };
}

/**
 * The test card the hosted page offers first: one the agreement has not saved yet as an active method of this
 * system (so saving twice in a row gives two cards, as a client with two cards would), else the first.
 */
export function defaultCard(store: SandboxStore, agreementId: number, system: SystemId): string {
  const saved = new Set(
    store
      .methodsOf(agreementId)
      .filter((m) => m.status === METHOD_ACTIVE && m.system === system)
      .map((m) => m.title),
  );
  return TEST_CARDS.find((card) => !saved.has(card)) ?? TEST_CARDS[0];
}

/**
 * Records the client's decision on the hosted page, once; a payment already decided is left as it is. Paying raises
 * the agreement's balance (not for a test payment, which is cancelled) and settles what that now covers; when the
 * request asked for it, the card paid with is saved — with autopayment when the request connects it. A card the
 * agreement already holds as an active method of the same system is not saved twice: that method is used (and gets
 * autopayment if this request connects it).
 */
export function decidePayment(
  billing: { store: SandboxStore; charging: Charging },
  payment: Payment,
  decision: PaymentDecision,
  card: string,
): void {
  const { store } = billing;
  if (payment.status !== 'pending') return;
  const at = timestamp(store.now());
  payment.decided_at = at;
  if (decision === 'decline') {
    payment.status = 'declined';
    return;
  }
  payment.status = 'succeeded';
  const agreement = store.agreements.get(payment.agreement_id);
  if (!agreement) throw new Error(`payment ${payment.payment_id} names a missing agreement`);
  if (!payment.link_only) {
    store.post({
      agreement_id: agreement.agreement_id,
      at,
      kind: 'payment',
      amount: payment.amount,
      description: `Payment no. ${payment.payment_id} through system ${payment.system}`,
      payment_id: payment.payment_id,
    });
    payment.credited = true;
  }
  if (payment.saves_method) {
    const known = store
      .methodsOf(agreement.agreement_id)
      .find((m) => m.status === METHOD_ACTIVE && m.system === payment.system && m.title === card);
    const method =
      known ??
      store.addPaymentMethod({
        agreement_id: agreement.agreement_id,
        enable_auto_payments: false,
        status: METHOD_ACTIVE,
        method: 'bank_card',
        title: card,
        system: payment.system,
        created_at: at,
      });
    method.enable_auto_payments ||= payment.connects_autopay;
    payment.payment_method_id = method.payment_method_id;
  }
  if (payment.credited) billing.charging.settle(payment.agreement_id, store.now());
}
