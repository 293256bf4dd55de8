/**
 * `npm run build`, after Vite: for each page bundle `dist/*.js` and language file `dist/*.json`, its brotli (`.br`) and gzip (`.gz`) forms and its
 * entry in `dist/bundles.json` (content-hashed name, Subresource Integrity hash), which the relay serves
 * (src/relay/assets/widget-assets.ts). Prints each bundle's `integrity` for the page's `<script>` tag.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { MANIFEST_FILE, hashedName, integrityOf, type BundleManifest } from '../src/relay/assets/widget-assets.js';

/** Compresses every `*.js` of `dir` (a path ending in `/`) and writes the manifest; returns it. */
export function writeBundleAssets(dir: string, log: (line: string) => void = () => {}): BundleManifest {
  const manifest: BundleManifest = {};
  for (const name of readdirSync(dir)
    .filter((file) => /\.js$|\.json$/.test(file) && file !== MANIFEST_FILE)
    .sort()) {
    const bytes = readFileSync(`${dir}${name}`);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    writeFileSync(`${dir}${name}.br`, br);
    writeFileSync(`${dir}${name}.gz`, gzip);
    const entry = { file: hashedName(name, bytes), integrity: integrityOf(bytes) };
    manifest[name] = entry;
    log(
      `${name}: ${bytes.length} B, ${gzip.length} B gzip, ${br.length} B brotli; served as /${entry.file}\n  integrity="${entry.integrity}"`,
    );
  }
  writeFileSync(`${dir}${MANIFEST_FILE}`, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeBundleAssets(fileURLToPath(new URL('../dist/', import.meta.url)), (line) => console.log(`dist/${line}`));
}
