/**
 * The widget bundles served like a CDN's assets. `npm run build` (scripts/build-assets.ts) writes, beside each bundle
 * `dist/NAME.js`, its brotli and gzip forms (`NAME.js.br`, `NAME.js.gz`) and `dist/bundles.json`: each bundle's
 * content-hashed file name and its Subresource Integrity hash. The relay serves
 * - `/NAME.<hash>.js`: `Cache-Control: public, max-age=31536000, immutable` (new content, new name);
 * - `/NAME.js`: the same bytes, cached for 5 minutes, for pages that do not pin a version;
 * - `/bundles.json`: the manifest, revalidated on every use;
 * each in brotli, gzip or as it is by `Accept-Encoding` (`Vary: Accept-Encoding`), with a strong ETag per encoding
 * and 304 on `If-None-Match`. Nothing is compressed per request.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { RelayError } from '../http/errors.js';

export const MANIFEST_FILE = 'bundles.json';

/** `dist/bundles.json`: for each bundle (`billing-pay.js`), its content-hashed name and SRI hash. */
export type BundleManifest = Record<string, { file: string; integrity: string }>;

/** The `integrity` attribute's value for these bytes: `sha384-` and the base64 digest. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** `billing-pay.js` → `billing-pay.<10 hex digits of the content's SHA-384>.js` (and so for `.json`). */
export function hashedName(name: string, bytes: Uint8Array): string {
  return name.replace(/\.(js|json)$/, `.${createHash('sha384').update(bytes).digest('hex').slice(0, 10)}.$1`);
}

type Encoding = 'br' | 'gzip' | 'identity';

interface Form {
  body: Uint8Array;
  etag: string;
}

interface Asset {
  type: string;
  cacheControl: string;
  /** What each encoding sends; an asset without compressed forms is always sent as it is. */
  forms: { identity: Form; br?: Form; gzip?: Form };
}

/** Every URL the relay serves a bundle or the manifest under, by path name. */
export type WidgetAssets = Map<string, Asset>;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';

/**
 * Reads the manifest and every bundle with its compressed forms from `dir`, and checks them: a file whose SHA-384 is
 * not the manifest's, or a compressed form that is not the bundle, means a partial build, and the page's integrity
 * check would refuse the script — better not to start serving it. Throws when a file is missing or does not match.
 */
export async function loadWidgetAssets(dir: string): Promise<WidgetAssets> {
  const manifestBytes = await readFile(`${dir}${MANIFEST_FILE}`);
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as BundleManifest;
  const assets: WidgetAssets = new Map();
  for (const [name, { file, integrity }] of Object.entries(manifest)) {
    const [identity, br, gzip] = await Promise.all(['', '.br', '.gz'].map((ext) => readFile(`${dir}${name}${ext}`)));
    if (integrityOf(identity!) !== integrity || hashedName(name, identity!) !== file) {
      throw new Error(`${dir}${name} does not match ${MANIFEST_FILE}: run \`npm run build\` again`);
    }
    if (!decodesTo(br!, brotliDecompressSync, identity!) || !decodesTo(gzip!, gunzipSync, identity!)) {
      throw new Error(`${dir}${name}.br or .gz is not ${name}: run \`npm run build\` again`);
    }
    const forms = encodedForms(identity!, br!, gzip!);
    const type = name.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
    assets.set(name, { type, cacheControl: SHORT, forms });
    assets.set(file, { type, cacheControl: IMMUTABLE, forms });
  }
  // The manifest is small: served as it is, checked against its ETag each time it is used.
  const etag = `"${createHash('sha384').update(manifestBytes).digest('hex').slice(0, 20)}"`;
  assets.set(MANIFEST_FILE, {
    type: 'application/json; charset=utf-8',
    cacheControl: 'no-cache',
    forms: { identity: { body: manifestBytes, etag } },
  });
  return assets;
}

function decodesTo(encoded: Uint8Array, decode: (bytes: Uint8Array) => Buffer, identity: Buffer): boolean {
  try {
    return decode(encoded).equals(identity);
  } catch {
    return false;
  }
}

function encodedForms(identity: Uint8Array, br: Uint8Array, gzip: Uint8Array): Asset['forms'] {
  // Strong ETags differ by encoding: the bytes on the wire differ.
  const tag = createHash('sha384').update(identity).digest('hex').slice(0, 20);
  return {
    identity: { body: identity, etag: `"${tag}"` },
    br: { body: br, etag: `"${tag}-br"` },
    gzip: { body: gzip, etag: `"${tag}-gz"` },
  };
}

/**
 * The route handler for `GET /:file`. `load` gives the assets (read once and kept by the caller); when they cannot be
 * read (the widget is not built), every asset is a 404 that says so.
 */
export function serveWidgetAssets(load: () => Promise<WidgetAssets | null>): MiddlewareHandler {
  return async (c: Context, next) => {
    const assets = await load();
    const asset = assets?.get(c.req.param('file') ?? '');
    if (!asset) {
      if (!assets) throw new RelayError('not_found', { message: 'The widget has not been built (npm run build).' });
      return next();
    }
    const compressed = asset.forms.br !== undefined;
    const encoding = compressed ? pickEncoding(c.req.header('accept-encoding')) : 'identity';
    const { body, etag } = asset.forms[encoding] ?? asset.forms.identity;
    c.header('Cache-Control', asset.cacheControl);
    // Public files: any page may run them, whatever ALLOWED_ORIGINS says (no credentials, so `*`).
    c.header('Access-Control-Allow-Origin', '*');
    c.header('ETag', etag);
    if (compressed) c.header('Vary', 'Accept-Encoding', { append: true });
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
    if (encoding !== 'identity') c.header('Content-Encoding', encoding);
    c.header('Content-Length', String(body.byteLength));
    return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': asset.type });
  };
}

/** The best encoding the client accepts (`br;q=0` refuses brotli; `*` stands for any not named). */
export function pickEncoding(header: string | undefined): Encoding {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

/** `If-None-Match` compares weakly (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches anything. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
