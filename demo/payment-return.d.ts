// Types of payment-return.js, for the tests (test/widget/demo.test.ts) that import it.
export interface PaymentReturn {
  /** The payment's number, digits only. */
  id: string;
  status: 'succeeded' | 'declined' | 'other';
}
export function readPaymentReturn(search: string): PaymentReturn | null;
export function paymentReturnText(payment: PaymentReturn, lang: string | null | undefined): string;
export interface PageWindow {
  location: { href: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  document: { documentElement: { lang: string } };
}
export function showPaymentReturn(region: HTMLElement, win?: PageWindow): (() => void) | null;
