/**
 * Loads a late module (`*.late.ts`): code the first screen does not need, fetched after it. A built bundle knows each
 * one's file and SHA-384 (`__BP_LATE__`, written by the build) and inserts a `<script type="module" integrity
 * crossorigin>` for it, which the browser refuses on a wrong hash. The module takes what it shares with the bundle
 * (Lit, the texts…) from the page's registry and hands its exports back there. A failed load is an error for the
 * caller, never retried through `import()` (which would run the file unchecked). From the sources (tests, a page's own
 * bundler) the module is imported.
 */
import type { LateModules } from './modules.js';

/** Set by the build: each late module's file name (beside the bundle) and integrity. */
declare const __BP_LATE__: Record<keyof LateModules, { file: string; integrity: string }>;

/**
 * What this bundle lends each late module: a function per module that answers the values, by position, when the module
 * runs; filled by the build (scripts/build-late.ts, vite.config.ts).
 */
const SHARED: Record<string, unknown> = {};

/** The one registry of a page: the shared modules, and the exports each late module handed in. */
interface Registry {
  shared: Record<string, unknown>;
  modules: Record<string, unknown>;
}

const REGISTRY = Symbol.for('billing-pay');

/** The Trusted Types policy (`billing-pay`) that vouches for the late modules' addresses, where the browser has them. */
let policy: { createScriptURL(url: string): unknown } | undefined;

/**
 * `url` as a page that requires Trusted Types takes it (the page's `trusted-types` must name `billing-pay`): one of the
 * `late` files. The table is passed in: the build writes it out at each place that names `__BP_LATE__`.
 */
function scriptUrl(url: string, late: typeof __BP_LATE__): unknown {
  const types = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): typeof policy } })
    .trustedTypes;
  if (!types) return url;
  policy ??= types.createPolicy('billing-pay', {
    createScriptURL: (address: string) => {
      if (!Object.values(late).some(({ file }) => new URL(file, import.meta.url).href === address))
        throw new TypeError(`billing-pay loads no script from ${address}`);
      return address;
    },
  });
  return policy!.createScriptURL(url);
}
const loading = new Map<string, Promise<unknown>>();

/** A late module's exports, loaded once; a failed load may be tried again (by a new pinned script). */
export function loadLate<K extends keyof LateModules>(name: K): Promise<LateModules[K]> {
  let pending = loading.get(name);
  if (!pending) {
    pending = fetchLate(name).catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, pending);
  }
  return pending as Promise<LateModules[K]>;
}

async function fetchLate<K extends keyof LateModules>(name: K): Promise<LateModules[K]> {
  if (typeof __BP_LATE__ !== 'object')
    return (await (await import('./modules.js')).LATE_SOURCES[name]()) as LateModules[K];
  const late = __BP_LATE__;
  const { file, integrity } = late[name];
  const scope = globalThis as { [REGISTRY]?: Registry };
  const registry = (scope[REGISTRY] ??= { shared: SHARED, modules: {} });
  const script = document.createElement('script');
  script.type = 'module';
  script.integrity = integrity;
  script.crossOrigin = 'anonymous';
  script.src = scriptUrl(new URL(file, import.meta.url).href, late) as string;
  try {
    // A module script's load event comes after it has run, and so after it handed in its exports.
    await new Promise((resolve, reject) => {
      script.addEventListener('load', resolve);
      script.addEventListener('error', () =>
        reject(new Error(`${file}: not loaded, or not the file this bundle pins`)),
      );
      document.head.append(script);
    });
  } finally {
    script.remove();
  }
  const exports = registry.modules[name];
  if (!exports) throw new Error(`${file} ran but handed in nothing`);
  return exports as LateModules[K];
}
