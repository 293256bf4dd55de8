/**
 * The plain-HTML embed of `<billing-pay>` as the docs write it, made from one function: the bench times it
 * (bench/ready.ts) and the browser tests load it (test/widget/e2e-stack.ts). With `hints`, two links come first, in
 * `<head>`: a preconnect to the relay's origin and a preload of the relay's `/config` — the request the widget makes
 * first, so it starts with the page instead of after the bundle has arrived and run.
 */

export interface EmbedOptions {
  /** The relay's base URL, as the element's `relay` attribute has it. */
  relay: string;
  /** The bundle's hashed name and its integrity (`npm run build`'s output, or the relay's `GET /bundles.json`). */
  bundle: { file: string; integrity: string };
  /** The preconnect and preload hints (default: with them). */
  hints?: boolean;
  /** More attributes of the element, as written (`lookup="5 7" currency="RUB"`). */
  attributes?: string;
}

/** `{relay}/{path}`, as the widget makes it (src/widget/relay-client.ts, `relayUrl`). */
export function relayPath(relay: string, path: string): string {
  return `${relay.replace(/\/+$/, '')}/${path}`;
}

/** What goes into `<head>`: the hints (if any) and the script. */
export function embedHead({ relay, bundle, hints = true }: EmbedOptions): string {
  const lines = hints
    ? [
        `<link rel="preconnect" href="${new URL(relay).origin}" crossorigin>`,
        `<link rel="preload" href="${relayPath(relay, 'config')}" as="fetch" crossorigin>`,
      ]
    : [];
  lines.push(
    `<script type="module" src="${relayPath(relay, bundle.file)}"`,
    `        integrity="${bundle.integrity}" crossorigin="anonymous"></script>`,
  );
  return lines.join('\n');
}

/** The element where the form goes, in `<body>`. */
export function embedElement({ relay, attributes }: EmbedOptions): string {
  return `<billing-pay relay="${relay}"${attributes ? ` ${attributes}` : ''}></billing-pay>`;
}
