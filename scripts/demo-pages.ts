/**
 * What `npm start` (scripts/start.ts) serves beside the demo's static files, written once so the browser tests
 * (web-test-runner.config.js) serve the pages the same way: the pages with this run's relay and sandbox addresses, and
 * what the playground (demo/playground.html) builds its form from.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { LOOKUPS, LOOKUP_KINDS } from '../src/eps/lookup.js';
import { SYSTEM_IDS } from '../src/eps/systems.js';
import { TEXTS } from '../src/widget/i18n.js';
import type { Manifest, ManifestItem } from './docs/element-tables.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The addresses the demo pages are written with (`npm start`'s default ports). */
const WRITTEN = { relay: 'http://localhost:8787', sandbox: 'http://localhost:8790' };

/**
 * A demo page (`demo/NAME`) with the relay's and the sandbox's addresses of this run in place of the written ones. The
 * relay's may have a path (`BASE_PATH`); the Content-Security-Policy gets its origin, since a source with a path
 * allows that one URL only.
 */
export async function demoPage(name: string, addresses: { relay: string; sandbox: string }): Promise<string> {
  const page = await readFile(`${ROOT}demo/${name}`, 'utf8');
  const relayOrigin = new URL(addresses.relay).origin;
  return page
    .replace(
      /(http-equiv="Content-Security-Policy"\s+content=")([^"]*)/,
      (_, start: string, policy: string) => start + policy.replaceAll(WRITTEN.relay, relayOrigin),
    )
    .replaceAll(WRITTEN.relay, addresses.relay)
    .replaceAll(WRITTEN.sandbox, addresses.sandbox);
}

/** An attribute of `<billing-pay>`, as the custom-elements manifest describes it. */
type ManifestAttribute = Pick<ManifestItem, 'name' | 'type' | 'default' | 'description'>;

export interface PlaygroundOptions {
  tag: 'billing-pay';
  /** The element's attributes, from custom-elements.json (made by `npm run build` from the element's JSDoc). */
  attributes: ManifestAttribute[];
  systems: readonly string[];
  /** Every lookup kind with its English name (the widget's own text). */
  kinds: { kind: number; name: string }[];
  /** The languages built into the widget. */
  languages: string[];
}

/** The playground's `playground-options.json`. Throws when the manifest is missing (`npm run build` makes it). */
export async function playgroundOptions(): Promise<PlaygroundOptions> {
  const manifest = JSON.parse(await readFile(`${ROOT}custom-elements.json`, 'utf8')) as Manifest;
  const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'billing-pay');
  if (!element?.attributes) throw new Error('custom-elements.json has no <billing-pay>: run `npm run build`');
  return {
    tag: 'billing-pay',
    attributes: element.attributes.map(({ name, type, default: value, description }) => ({
      name,
      type,
      default: value,
      description,
    })),
    systems: SYSTEM_IDS,
    kinds: LOOKUP_KINDS.map((kind) => ({ kind, name: TEXTS.en.kinds[LOOKUPS[kind].key] })),
    languages: Object.keys(TEXTS),
  };
}
