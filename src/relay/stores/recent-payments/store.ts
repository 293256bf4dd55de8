/**
 * Where the relay remembers recent payments, to ask before the same payment is made twice: in the relay's SQLite file
 * for one instance (sqlite-store.ts), in Redis for a fleet (redis-store.ts). A payment is named by a keyed digest
 * (keyed-hash.ts), never by its agreement in clear; each record holds only when the payment was sent, and is gone
 * when its window has passed.
 */

/** A payment's mark: taken now (`claimed`, with the token that lets it go), or held by one sent `at` (epoch ms). */
export type RecentClaim = { kind: 'claimed'; token: string } | { kind: 'recent'; at: number };

export interface RecentPaymentStore {
  /**
   * Marks the payment `key` as sent `at`, for `windowMs`, unless a live mark holds it: one step, atomic across every
   * relay that shares the store, so of two payments at once exactly one is sent.
   */
  claim(key: string, at: number, windowMs: number): Promise<RecentClaim>;
  /** Marks the payment as sent `at`, over any earlier mark (a payment the payer confirmed). */
  note(key: string, at: number, windowMs: number): Promise<void>;
  /** Lets go of a claim whose payment was not made (the mark is removed only while it is still this claim's). */
  release(key: string, token: string): Promise<void>;
  close(): Promise<void>;
}
