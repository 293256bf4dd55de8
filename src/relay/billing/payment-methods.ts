/**
 * The client's view of their saved payment methods: only those of their own agreement, only display fields.
 */
export interface PublicPaymentMethod {
  id: number;
  autopayment: boolean;
  /** Display data the billing gives (a masked card, the kind, …), passed through when present. */
  [display: string]: string | number | boolean;
}

const DISPLAY_FIELDS = [
  'title',
  'method',
  'system',
  'card_mask',
  'masked_pan',
  'card_last4',
  'card_brand',
  'expires',
  'created_at',
];

export interface OwnershipRule {
  /** The field of a record that names its agreement (`PAYMENT_METHODS_AGREEMENT_FIELD`, `agreement_id` by default). */
  agreementField: string;
  /**
   * The merchant's declaration that its billing lists only the agreement asked for (`PAYMENT_METHODS_TRUST_BILLING_SCOPE`):
   * a record that does not name its agreement is then taken as the session's. Off by default.
   */
  trustScope: boolean;
}

/**
 * Keeps the records the relay can prove belong to `agreementId`, and fails closed: a record that names another
 * agreement is dropped, and so is one that names none — the billing is asked for one agreement, but a billing that
 * ignores the scope parameter would list everyone's methods — unless the merchant has declared that its billing scopes
 * the list (`trustScope`). Only what is kept is listed, and only what is listed can be disabled.
 */
export function ownPaymentMethods(
  records: Record<string, unknown>[],
  agreementId: number,
  rule: OwnershipRule,
): PublicPaymentMethod[] {
  return records
    .filter((r) => {
      const named = r[rule.agreementField];
      if (named === undefined || named === null) return rule.trustScope;
      return (
        (typeof named === 'number' || (typeof named === 'string' && /^[1-9]\d{0,15}$/.test(named))) &&
        Number(named) === agreementId
      );
    })
    .filter((r) => Number.isSafeInteger(r.payment_method_id))
    .map((r) => {
      const method: PublicPaymentMethod = {
        id: r.payment_method_id as number,
        autopayment: r.enable_auto_payments === true,
      };
      for (const field of DISPLAY_FIELDS) {
        const value = r[field];
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') method[field] = value;
      }
      return method;
    });
}
