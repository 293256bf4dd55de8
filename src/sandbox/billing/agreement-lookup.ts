/**
 * Which agreement a payment goes to: `agreement_param_id` names one of the spec's lookup kinds and
 * `agreement_param_value` the value to look for. A value that names a client (login, full name, e-mail, client id =
 * `user_id`, taxpayer number) selects that client's first agreement (lowest id). Values are compared after trimming;
 * e-mail and full name ignore case, and a full name also ignores repeated spaces.
 */
import type { LookupKind } from '../../eps/lookup.js';
import type { Agreement, User } from './records.js';
import type { SandboxStore } from './store.js';

/** The agreement found by `kind` and `rawValue`, or `undefined` when there is none. */
export function findAgreement(store: SandboxStore, kind: LookupKind, rawValue: string): Agreement | undefined {
  const value = rawValue.trim();
  const agreements = [...store.agreements.values()];
  const id = /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  switch (kind) {
    case 5:
      return agreements.find((a) => a.agreement_number === value);
    case 6:
      return agreements.find((a) => a.accounting_code === value);
    case 8:
      return agreements.find((a) => a.account_number === value);
    case 11:
      return id === undefined ? undefined : store.agreements.get(id);
    case 14: {
      const invoice = id === undefined ? undefined : store.invoices.get(id);
      return invoice && store.agreements.get(invoice.agreement_id);
    }
    default:
      return clientsMatching(store, kind, value)
        .map((user) => store.agreementsOf(user.user_id)[0])
        .find((agreement) => agreement !== undefined);
  }
}

function clientsMatching(store: SandboxStore, kind: 1 | 4 | 7 | 10 | 15, value: string): User[] {
  const users = [...store.users.values()].sort((a, b) => a.user_id - b.user_id);
  const folded = (text: string | undefined) => text?.trim().replace(/\s+/g, ' ').toLowerCase();
  switch (kind) {
    case 1:
      return users.filter((u) => u.login === value);
    case 4:
      return users.filter((u) => u.full_name !== undefined && folded(u.full_name) === folded(value));
    case 7:
      return users.filter((u) => u.email.toLowerCase() === value.toLowerCase());
    case 10:
      return users.filter((u) => /^\d{1,15}$/.test(value) && u.user_id === Number(value));
    case 15:
      return users.filter((u) => u.taxpayer_number === value);
  }
}
