/**
 * N of the billing's first autopayment trigger: a saved method is charged N whole days before each new period of a
 * subscription. The billing's operator sets it (default 1); the relay is told it (`AUTOPAYMENT_LEAD_DAYS`) and passes
 * it to the widget in `/config` (`autopayLeadDays`), which tells the payer; the sandbox plays it.
 */
export const DEFAULT_AUTOPAY_LEAD_DAYS = 1;
export const MAX_AUTOPAY_LEAD_DAYS = 365;

/** A whole number of days from 1 to `MAX_AUTOPAY_LEAD_DAYS`. */
export const isAutopayLeadDays = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_AUTOPAY_LEAD_DAYS;
