/**
 * `npm run build`, last step: the relay and the sandbox as plain JavaScript for `node`, each one self-contained file
 * with its server dependencies bundled in (esbuild): `dist/relay/server.js` (`npm run relay`, the package's
 * `billing-pay-relay` bin) and `dist/sandbox/server.js` (`npm run sandbox`). So a production install needs no dev
 * dependency, and the published package no server dependency. Each file keeps its source's depth under dist/, so the
 * relay finds the widget bundles at `../../dist/` from either. The licences of what is bundled go to
 * `dist/relay/THIRD-PARTY-LICENSES.txt` (and the sandbox's beside it). What a server imports only when configured
 * (`import()`: the relay's OpenTelemetry, for traces) is a chunk of its own under `chunks/`, never read otherwise.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const ENTRIES = { relay: 'src/relay/bin.ts', sandbox: 'src/sandbox/server.ts' };

for (const [name, entry] of Object.entries(ENTRIES)) {
  const outfile = `dist/${name}/server.js`;
  // Chunks are named by their hash: those of an earlier build would stay beside the new ones.
  rmSync(`dist/${name}/chunks`, { recursive: true, force: true });
  const result = await build({
    entryPoints: { server: entry },
    outdir: `dist/${name}`,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    minifySyntax: true,
    minifyWhitespace: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // Bundled CommonJS packages (pino, redis, undici…) `require` Node's modules: give ES modules a `require`.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
  });
  const licences = bundledPackages(Object.keys(result.metafile.inputs));
  writeFileSync(`dist/${name}/THIRD-PARTY-LICENSES.txt`, licences.text);
  const chunks = Object.keys(result.metafile.outputs).filter((output) => output !== outfile).length;
  console.log(
    `${outfile}: ${result.metafile.outputs[outfile]!.bytes} B (+ ${chunks} chunks), ${licences.count} packages bundled`,
  );
}

/** Each bundled package's name, version, licence and licence text, from the inputs esbuild read. */
function bundledPackages(inputs: string[]): { count: number; text: string } {
  const roots = new Set(inputs.flatMap((input) => input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []));
  const parts = [...roots].sort().map((root) => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    let text = '';
    for (const file of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE', 'LICENSE-MIT']) {
      try {
        text = readFileSync(`${root}/${file}`, 'utf8').trim();
        break;
      } catch {
        // try the next spelling
      }
    }
    return `${pkg.name}@${pkg.version} (${pkg.license ?? 'see its package'})\n\n${text || '(no licence file in the package)'}\n`;
  });
  return { count: parts.length, text: parts.join(`\n${'-'.repeat(80)}\n\n`) };
}
