/**
 * The client's view of their saved payment methods: only those of their own agreement, only display fields.
 */
export interface PublicPaymentMethod {
  id: number;
  autopayment: boolean;
  /** Display data the billing gives (a masked card, the kind, …), passed through when present. */
  [display: string]: string | number | boolean;
}

const DISPLAY_FIELDS = ['title', 'method', 'system', 'card_mask', 'masked_pan', 'card_last4', 'card_brand', 'expires', 'created_at'];

/**
 * Keeps the records that belong to `agreementId`. The billing is asked for that agreement only, but how it scopes
 * the list is not documented: a record that names another agreement is dropped here as well.
 */
export function ownPaymentMethods(records: Record<string, unknown>[], agreementId: number): PublicPaymentMethod[] {
  return records
    .filter((r) => r.agreement_id === undefined || Number(r.agreement_id) === agreementId)
    .filter((r) => Number.isSafeInteger(r.payment_method_id))
    .map((r) => {
      const method: PublicPaymentMethod = { id: r.payment_method_id as number, autopayment: r.enable_auto_payments === true };
      for (const field of DISPLAY_FIELDS) {
        const value = r[field];
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') method[field] = value;
      }
      return method;
    });
}
