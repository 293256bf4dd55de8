/**
 * The tables of each element's attributes, events, CSS parts and CSS custom properties, made from
 * `custom-elements.json` (itself made from the components' JSDoc): docs/embedding.md's `api` part.
 */
import { cell, code, table } from './markdown.js';

/** An attribute, event, part or custom property of an element, as the manifest describes it. */
export interface ManifestItem {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
  fieldName?: string;
}
interface Declaration {
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  attributes?: ManifestItem[];
  events?: ManifestItem[];
  cssParts?: ManifestItem[];
  cssProperties?: ManifestItem[];
}
export interface Manifest {
  modules: { declarations?: Declaration[] }[];
}

/** The Markdown of every element of the manifest, in the manifest's order. */
export function elementTables(manifest: Manifest): string {
  const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
  return elements
    .map((d) =>
      [
        `### \`<${d.tagName}>\`\n\n${cell(d.summary)}\n`,
        table(
          ['attribute', 'property', 'type', 'default', 'description'],
          (d.attributes ?? []).map((a) => [
            code(a.name),
            code(a.fieldName),
            code(a.type?.text),
            code(a.default),
            cell(a.description),
          ]),
        ),
        table(
          ['event', 'description'],
          (d.events ?? []).map((e) => [code(e.name), cell(e.description)]),
        ),
        table(
          ['CSS part', 'description'],
          (d.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
        ),
        table(
          ['CSS custom property', 'default', 'description'],
          (d.cssProperties ?? []).map((p) => [code(p.name), cell(p.default), cell(p.description)]),
        ),
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
}
