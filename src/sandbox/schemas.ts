/**
 * The zod schemas of the request bodies the sandbox accepts, and the one way their problems are worded. Bodies are
 * strict: a field the spec does not name (a typo such as `organisation`) is refused, so integration mistakes show up
 * in tests instead of being silently ignored.
 */
import * as z from 'zod';
import { toMinorUnits } from '../eps/amount.js';
import { EMAIL_ADDRESS, MAX_EMAIL_LENGTH } from '../eps/email.js';
import { isTaxpayerNumber } from '../eps/lookup.js';
import { MAX_EPS_PARAMS } from '../eps/params.js';
import { quantityUnits } from './billing/pricing.js';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** `YYYY-MM-DD`, a real calendar date. */
export const dateSchema = z.string().refine((v) => isCalendarDate(v), 'expected a date YYYY-MM-DD');

/** `YYYY-MM-DD HH:MM:SS`, the spec's date-time format. */
export const dateTimeSchema = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2} (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(v) && isCalendarDate(v.slice(0, 10)),
    'expected a date-time YYYY-MM-DD HH:MM:SS',
  );

/** A price as a JSON number with at most two decimals, zero or more. */
const priceSchema = z
  .number()
  .nonnegative()
  .refine((v) => toMinorUnits(v) !== null, 'expected an amount with at most two decimals');

export const newUserSchema = z.strictObject({
  type: z.number().int().positive(),
  organization: text(300),
  email: z.string().trim().max(MAX_EMAIL_LENGTH).regex(EMAIL_ADDRESS, 'expected an e-mail address'),
  // Sandbox extras, so that a created client can be found by every lookup kind.
  login: z.optional(text(64)),
  full_name: z.optional(text(200)),
  taxpayer_number: z.optional(
    z.string().refine(isTaxpayerNumber, 'expected a valid taxpayer number (10 or 12 digits)'),
  ),
});

export const newAgreementSchema = z
  .strictObject({
    user_id: id,
    is_offer: z.boolean(),
    agreement_number: z.optional(text(64)),
    create_date: dateSchema,
    // Sandbox extras for the lookup kinds 6 (accounting code) and 8 (account number).
    accounting_code: z.optional(text(64)),
    account_number: z.optional(text(34)),
  })
  .superRefine((value, ctx) => {
    if (!value.is_offer && value.agreement_number === undefined) {
      ctx.addIssue({ code: 'custom', path: ['agreement_number'], message: 'required unless is_offer is true' });
    }
  });

const serviceItemSchema = z.strictObject({
  tariff_service_id: id,
  multiplicator: z
    .number()
    .positive()
    .max(1_000_000)
    .refine((v) => quantityUnits(v) !== null, 'expected a quantity with at most six decimals'),
  modifier: z.optional(z.strictObject({ new_price: priceSchema })),
});

const servicesSchema = z
  .array(serviceItemSchema)
  .min(1, 'name at least one service')
  .max(100)
  .superRefine((items, ctx) => {
    const seen = new Set<number>();
    items.forEach((item, index) => {
      if (seen.has(item.tariff_service_id))
        ctx.addIssue({ code: 'custom', path: [index, 'tariff_service_id'], message: 'this service is named twice' });
      seen.add(item.tariff_service_id);
    });
  });

export type ServiceItem = z.infer<typeof serviceItemSchema>;

export const newSubscriptionSchema = z.strictObject({
  agreement_id: id,
  tariff_id: id,
  period_id: id,
  description: z.optional(text(500)),
  subscription_start_date: z.optional(dateTimeSchema),
  services: servicesSchema,
});

export const subscriptionChangeSchema = z.strictObject({
  change_start_date: dateTimeSchema,
  description: z.optional(text(500)),
  tariff_id: z.optional(id),
  period_id: z.optional(id),
  services: z.optional(servicesSchema),
});

/** The envelope of `POST /eps_payments`; the amount, the lookup kind and `eps_params` get their own checks after it. */
export const epsPaymentSchema = z.strictObject({
  eps_uuid: z.string().min(1),
  amount: z.number(),
  agreement_param_id: z.number().int(),
  agreement_param_value: z
    .string()
    .max(254)
    .refine((v) => v.trim() !== '', 'must not be empty'),
  // zod 4 requires the `value` key even though any value is accepted: an item without it is refused.
  eps_params: z.array(z.strictObject({ name: z.string().min(1).max(64), value: z.unknown() })).max(MAX_EPS_PARAMS),
});

/** Up to three problems, each as `path: what is wrong`; enough to fix a request, short enough to log. */
export function issuesMessage(issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = pathText(issue.path);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${path ? `${path}.` : ''}${key}: not a field of this request`).join('; ');
    const what = issue.message.replace(/^Invalid input: /, '');
    if (issue.code === 'invalid_type' && what.endsWith('received undefined')) return `${path}: required`;
    return `${path || 'body'}: ${what}`;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${parts.join('; ')}${more}`;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
