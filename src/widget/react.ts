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
import {
  BillingPay as BillingPayElement,
  type BillingPayErrorDetail,
  type BillingPayReadyDetail,
  type BillingPayRedirectDetail,
  type BillingPaySubmitDetail,
} from './billing-pay.js';
import {
  BillingPaymentMethods as BillingPaymentMethodsElement,
  type BillingPaymentMethodsErrorDetail,
  type SavedPaymentMethod,
} from './billing-payment-methods.js';

/** `<billing-pay>` as a React component. */
export const BillingPay = createComponent({
  tagName: 'billing-pay',
  elementClass: BillingPayElement,
  react: React,
  events: {
    onBillingPayReady: 'billing-pay-ready' as EventName<CustomEvent<BillingPayReadyDetail>>,
    onBillingPaySubmit: 'billing-pay-submit' as EventName<CustomEvent<BillingPaySubmitDetail>>,
    onBillingPayRedirect: 'billing-pay-redirect' as EventName<CustomEvent<BillingPayRedirectDetail>>,
    onBillingPayError: 'billing-pay-error' as EventName<CustomEvent<BillingPayErrorDetail>>,
  },
  displayName: 'BillingPay',
});

/** `<billing-payment-methods>` as a React component. */
export const BillingPaymentMethods = createComponent({
  tagName: 'billing-payment-methods',
  elementClass: BillingPaymentMethodsElement,
  react: React,
  events: {
    onBillingPaymentMethodsChange: 'billing-payment-methods-change' as EventName<CustomEvent<SavedPaymentMethod[]>>,
    onBillingPaymentMethodsError: 'billing-payment-methods-error' as EventName<CustomEvent<BillingPaymentMethodsErrorDetail>>,
  },
  displayName: 'BillingPaymentMethods',
});
