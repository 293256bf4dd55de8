/**
 * `billing-pay/vue`: registers `<billing-pay>`, as `billing-pay` does, and tells Vue's template type checker (vue-tsc,
 * Vue's editor extension) the properties and events of both elements, so `@billing-pay-error="(e) => …"` gets a typed
 * `e.detail`. `<billing-payment-methods>` is typed here but registered by `billing-pay/payment-methods`.
 */
import type { LitElement } from 'lit';
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { BillingPay } from './billing-pay.js';
import type { BillingPaymentMethods } from './billing-payment-methods.js';
import type { BillingPayEvents, BillingPaymentMethodsEvents } from './events.js';

export * from './billing-pay.js';

/** An element's own properties: neither LitElement's (nor so HTMLElement's) nor its methods. */
type OwnProps<E> = {
  [K in Exclude<keyof E, keyof LitElement> as E[K] extends (...args: never[]) => unknown ? never : K]?: E[K];
};

/**
 * What Vue's type checker reads of a custom element (after Vue's guide, "Web Components and TypeScript"): its props,
 * and its events as emits. Never used at run time.
 */
export type VueElement<E extends HTMLElement, Events> = new () => E & {
  /** @deprecated For template type checking only: the element has no `$props`. */
  $props: HTMLAttributes & OwnProps<E> & PublicProps;
  /** @deprecated For template type checking only: the element has no `$emit`. */
  $emit: EmitFn<{ [K in keyof Events]: (event: CustomEvent<Events[K]>) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'billing-pay': VueElement<BillingPay, BillingPayEvents>;
    'billing-payment-methods': VueElement<BillingPaymentMethods, BillingPaymentMethodsEvents>;
  }
}
