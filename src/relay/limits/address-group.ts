/**
 * The part of a client's address that counts as one client for the rate limits. One IPv6 subscriber is routinely given
 * a whole /64 (or more), so an address of its own per request costs nothing: IPv6 addresses count by their first
 * `prefix` bits. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket's) counts as its IPv4 address.
 */
import {
  convertIPv4BinaryToString,
  convertIPv4MappedIPv6ToIPv4,
  convertIPv6BinaryToString,
  convertIPv6ToBinary,
  distinctRemoteAddr,
  isIPv4MappedIPv6,
} from 'hono/utils/ipaddr';

/** `address`'s group: an IPv4 address itself; an IPv6 address as `network/prefix`; anything else as it is. */
export function addressGroup(address: string, prefix: number): string {
  if (distinctRemoteAddr(address) !== 'IPv6') return address;
  let bits: bigint;
  try {
    bits = convertIPv6ToBinary(address);
  } catch {
    return address;
  }
  if (isIPv4MappedIPv6(bits)) return convertIPv4BinaryToString(convertIPv4MappedIPv6ToIPv4(bits));
  const hostBits = BigInt(128 - prefix);
  return `${convertIPv6BinaryToString((bits >> hostBits) << hostBits)}/${prefix}`;
}
