// The events of <billing-pay> the demo pages log (src/widget/events.ts has each one's detail).
export const PAY_EVENTS = [
  'billing-pay-ready',
  'billing-pay-submit',
  'billing-pay-redirect',
  'billing-pay-error',
  'billing-pay-return',
];
