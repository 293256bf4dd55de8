/**
 * React components for the elements (`billing-pay/react`), made with `@lit/react`: properties are set as
 * properties (so `texts` takes an object), and each event has an `on…` prop with a typed `detail`.
 *
 * ```tsx
 * import { BillingPay } from 'billing-pay/react';
 * <BillingPay relay="https://pay.shop.example/relay" lang="ru" onBillingPayRedirect={(e) => console.log(e.detail.url)} />
 * ```
 *
 * Importing this module registers the elements (where `customElements` exists) and touches no DOM, so server
 * rendering frameworks may import it; on the server the tags are rendered empty and come to life in the browser.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { BillingPay as BillingPayElement } from './billing-pay.js';
import { BillingPaymentMethods as BillingPaymentMethodsElement } from './billing-payment-methods.js';
import { PAY_EVENTS, PAYMENT_METHODS_EVENTS } from './events.js';

export type {
  BillingPayErrorDetail,
  BillingPayReadyDetail,
  BillingPayRedirectDetail,
  BillingPayReturnDetail,
  BillingPaySubmitDetail,
  BillingPaymentMethodsErrorDetail,
} from './events.js';
export type { SavedPaymentMethod } from './session-client.js';

/** `billing-pay-ready` → `BillingPayReady`. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>;

/** The `on…` props of an element's events (`onBillingPayReady: 'billing-pay-ready'`), from events.ts. */
type EventProps<E> = { [K in keyof E & string as `on${Pascal<K>}`]: EventName<CustomEvent<E[K]>> };

function eventProps<E extends object>(events: E): EventProps<E> {
  const pascal = (name: string) => name.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
  return Object.fromEntries(Object.keys(events).map((name) => [`on${pascal(name)}`, name])) as EventProps<E>;
}

/** `<billing-pay>` as a React component. */
export const BillingPay = createComponent({
  tagName: 'billing-pay',
  elementClass: BillingPayElement,
  react: React,
  events: eventProps(PAY_EVENTS),
  displayName: 'BillingPay',
});

/** `<billing-payment-methods>` as a React component. */
export const BillingPaymentMethods = createComponent({
  tagName: 'billing-payment-methods',
  elementClass: BillingPaymentMethodsElement,
  react: React,
  events: eventProps(PAYMENT_METHODS_EVENTS),
  displayName: 'BillingPaymentMethods',
});
