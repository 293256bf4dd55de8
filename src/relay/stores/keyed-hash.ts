/**
 * Keyed digests (HMAC-SHA-256) for what the relay keeps about people: limiter keys, request fingerprints, recent
 * payments. A store that leaks shows no e-mail, name or address, and low-entropy values cannot be guessed back
 * without the relay's secret.
 */
import { createHmac, createSecretKey, hkdfSync } from 'node:crypto';

/** The digest of `parts` for one `purpose` (a short label: the same parts under two purposes never collide). */
export type KeyedHash = (purpose: string, ...parts: string[]) => string;

export function keyedHasher(secret: string): KeyedHash {
  // A KeyObject made once: given a Buffer, each HMAC imports the key again (measured: 8 times the cost of the digest).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'billing-pay', 'keyed store digests', 32)));
  return (purpose, ...parts) => {
    const mac = createHmac('sha256', key);
    // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    for (const part of [purpose, ...parts]) mac.update(`${Buffer.byteLength(part)}:${part}`);
    return mac.digest('base64url');
  };
}
