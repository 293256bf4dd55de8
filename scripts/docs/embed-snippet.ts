/**
 * The embed snippet the docs show (README.md, docs/embedding.md): the preconnect and preload hints, the hashed bundle
 * with its `integrity` and `crossorigin`, and the element. The bundle's name and hash change with every build, so the
 * snippet is made from `dist/bundles.json` by `npm run build` and always matches the bundle the relay serves.
 */
import type { BundleManifest } from '../../src/relay/widget-assets.js';

/** The relay address the docs' snippets use: a merchant's relay under its own origin. */
export const EXAMPLE_RELAY = 'https://pay.shop.example/relay';

/** The page's `<head>` lines that load `bundle` (`billing-pay.js`) from `relay`, then the page's `element`. */
export function embedSnippet(manifest: BundleManifest, element: string, relay = EXAMPLE_RELAY, bundle = 'billing-pay.js') {
  const entry = manifest[bundle];
  if (!entry) throw new Error(`dist/bundles.json has no ${bundle}: run npm run build`);
  return [
    `<link rel="preconnect" href="${new URL(relay).origin}" crossorigin>`,
    `<link rel="preload" as="fetch" crossorigin href="${relay}/config">`,
    `<script type="module" src="${relay}/${entry.file}" integrity="${entry.integrity}" crossorigin="anonymous"></script>`,
    '',
    element,
  ].join('\n');
}

/** The snippet as a Markdown `html` block. */
export const embedBlock = (manifest: BundleManifest, element: string): string =>
  `\`\`\`html\n${embedSnippet(manifest, element)}\n\`\`\`\n`;
