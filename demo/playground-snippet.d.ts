// Types of playground-snippet.js, for the tests (test/widget/playground.test.ts) that import it.
export type AttributeValue = string | true;
export function relayUrl(relay: string, path: string): string;
export function attributeHtml(name: string, value: AttributeValue): string;
export function elementHtml(tag: string, attributes: [string, AttributeValue][]): string;
export function contentSecurityPolicy(relay: string, pageOrigin: string): string;
export function allowedOriginsLine(pageOrigin: string): string;
export function relayHints(relay: string): string;
export function textsHint(relay: string, texts: { file: string; integrity: string }): string;
export const RESERVED_HEIGHT: string;
export function reservationCss(tag?: string): string;
export function scriptHtml(relay: string, bundle: { file: string; integrity: string }): string;
export interface EmbedOptions {
  relay: string;
  pageOrigin: string;
  /** The widget's entry of dist/bundles.json. */
  bundle: { file: string; integrity: string };
  /** The entry of the page's language's texts in dist/bundles.json (`billing-pay-ru.json`), for a page not in English. */
  texts?: { file: string; integrity: string };
  tag?: string;
  attributes: [string, AttributeValue][];
}
export function embedSnippet(options: EmbedOptions): { html: string; csp: string; env: string; css: string };
