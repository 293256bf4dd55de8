/**
 * The rules for web addresses, shared by the relay and the widget: which text is an http(s) address the model
 * takes (every return URL), and which address a client may be sent to as a payment page.
 */
import { isCleanText } from './clean-text.js';

/**
 * An http(s) address that reads as it parses: written with `//` after the scheme, no backslash (a parser reads it as
 * `/`), no user info (`user:pw@`, even empty), no character the parser would drop or encode silently in its host, and
 * clean text. Such an address is forwarded as `canonicalUrl` gives it, never as the client wrote it.
 */
export function isHttpUrl(value: string): boolean {
  return parseHttpUrl(value) !== null;
}

/** The address parsed, when `isHttpUrl` takes it; else `null`. */
function parseHttpUrl(value: string): URL | null {
  if (!isCleanText(value) || value.includes('\\')) return null;
  const written = /^https?:\/\/([^/?#]*)/i.exec(value);
  if (!written || written[1]!.includes('@')) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // The host and port as written are the ones parsed (no IDN, number or percent-encoded forms that read as another).
  const authority = written[1]!.toLowerCase();
  return authority === url.host || authority === `${url.host}:${url.protocol === 'https:' ? 443 : 80}` ? url : null;
}

/**
 * An address a page may link to (`<a href>`): an http(s) address `isHttpUrl` takes, absolute or relative to `base`
 * (the page's address), written as clean text. Answers it resolved, or `null` for anything else (`javascript:`, `data:`,
 * a text with control characters, an unparsable one).
 */
export function linkHref(value: string, base: string): string | null {
  // An empty text would resolve to the page itself: it names no address.
  if (!value.trim() || !isCleanText(value)) return null;
  try {
    const { href } = new URL(value, base);
    return isHttpUrl(href) ? href : null;
  } catch {
    return null;
  }
}

/** The WHATWG serialisation of an address `isHttpUrl` accepts: what the relay checked is what it forwards. */
export function canonicalUrl(value: string): string {
  return new URL(value).href;
}

/**
 * A page a client may be sent to to pay: an address `isHttpUrl` takes, on `https:`, or on `http:` to this machine
 * (`localhost`, `127.0.0.1`, `[::1]`: the sandbox and the demo), never with user info. With `from` (the address of
 * the page the client is on; the widget passes its own), `http:` is followed only from a page on this machine over
 * `http:` too: a merchant's page on `https:`, or on any other host, never sends the client to an unencrypted page.
 * The relay, which does not know the page, checks without it. Answers the page in its WHATWG serialisation (what is
 * handed on), or `null`: the address is parsed once.
 */
export function paymentPage(address: string, from?: string): string | null {
  const url = parseHttpUrl(address);
  const safe =
    url !== null &&
    (url.protocol === 'https:' || (isLocalHttp(url) && (from === undefined || isLocalHttp(new URL(from)))));
  return safe ? url.href : null;
}

/** Whether `paymentPage` takes the address. */
export function isPaymentPage(address: string, from?: string): boolean {
  return paymentPage(address, from) !== null;
}

/**
 * This machine, by the names its own services use (`localhost`, `127.0.0.1`, `[::1]`): where plain `http:` may go —
 * the payment pages of the sandbox and the demo, and the relay's billing (`BILLING_BASE_URL`) when it is the sandbox.
 */
export const isLoopbackHost = (hostname: string): boolean => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);

const isLocalHttp = (url: URL) => url.protocol === 'http:' && isLoopbackHost(url.hostname);
