/**
 * Clickjacking: a page of another site may frame the merchant's page, hide it and lure the payer's clicks onto its
 * buttons. An element that acts on money or saved methods asks `framingRefused` first: inside a frame whose ancestors
 * are of another origin, it refuses unless the page names them in `frame-origins` (`*`: any).
 */
import { PayError } from './pay-error.js';

/** An ancestor whose origin the browser does not tell (no `location.ancestorOrigins`, and not readable). */
const UNKNOWN = '';

/** The origins of the frames around this document that are not its own (`UNKNOWN` where they cannot be read). */
export function foreignAncestors(win: Window = window): string[] {
  if (win.top === win) return [];
  const own = win.location.origin;
  const listed = win.location.ancestorOrigins as DOMStringList | undefined;
  if (listed) return [...listed].filter((origin) => origin !== own);
  const found: string[] = [];
  // Without the list (Firefox): up the chain, a parent of another origin throws on reading its location.
  for (let w: Window = win; w !== w.parent;) {
    w = w.parent;
    try {
      if (w.location.origin !== own) found.push(w.location.origin);
    } catch {
      found.push(UNKNOWN);
    }
  }
  return found;
}

/** The origins a `frame-origins` value names (space or comma separated); `*` stands for any. */
export function parseFrameOrigins(value: string | null | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** Whether an element must refuse to act here: framed by an origin that `frameOrigins` does not name. */
export function framingRefused(frameOrigins: string | null | undefined, win: Window = window): boolean {
  const allowed = parseFrameOrigins(frameOrigins);
  if (allowed.includes('*')) return false;
  return foreignAncestors(win).some((origin) => origin === UNKNOWN || !allowed.includes(origin));
}

/** The failure an element shows when it refuses: `framed`. */
export const framedError = (): PayError =>
  new PayError('framing', 'framed', 'Framed by an origin not in frame-origins.');
