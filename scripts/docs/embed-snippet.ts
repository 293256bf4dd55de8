/**
 * The embed snippet the docs show (README.md, docs/embedding.md): the preconnect and preload hints, the hashed bundle
 * with its `integrity` and `crossorigin`, and the element — made by the one maker of the embed
 * (demo/playground-snippet.js). The bundle's name and hash change with every build, so the snippet is made from
 * `dist/bundles.json` by `npm run build` and always matches the bundle the relay serves.
 */
import {
  elementHtml,
  relayHints,
  reservationCss,
  scriptHtml,
  type AttributeValue,
} from '../../demo/playground-snippet.js';
import type { BundleManifest } from '../../src/relay/assets/widget-assets.js';

/** The relay address the docs' snippets use: a merchant's relay under its own origin. */
export const EXAMPLE_RELAY = 'https://pay.shop.example/relay';

/** The element's attributes in docs/embedding.md's "Plain HTML": the page the bench times (bench/ready.ts). */
export const EMBED_ATTRIBUTES: [string, AttributeValue][] = [
  ['lookup', '5 7'],
  ['currency', 'RUB'],
  ['texts', '{"ru": {"labels": {"pay": "Оплатить счёт"}}}'],
];

/** The page's `<head>` lines that load `bundle` (`billing-pay.js`) from `relay`, then the element. */
export function embedSnippet(
  manifest: BundleManifest,
  attributes: [string, AttributeValue][],
  relay = EXAMPLE_RELAY,
  bundle = 'billing-pay.js',
): string {
  const entry = manifest[bundle];
  if (!entry) throw new Error(`dist/bundles.json has no ${bundle}: run npm run build`);
  return [
    relayHints(relay),
    scriptHtml(relay, entry),
    '',
    elementHtml('billing-pay', [['relay', relay], ...attributes]),
  ].join('\n');
}

/** The snippet as a Markdown `html` block, then the rule for the page's stylesheet that keeps the form's place. */
export const embedBlock = (manifest: BundleManifest, attributes: [string, AttributeValue][]): string =>
  `\`\`\`html\n${embedSnippet(manifest, attributes)}\n\`\`\`\n\nIn the page's stylesheet:\n\n\`\`\`css\n${reservationCss()}\n\`\`\`\n`;
