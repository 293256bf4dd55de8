/**
 * The built-in texts of each language. English is in the bundle; another language is a file of its own, fetched when
 * an element first speaks it. A built bundle knows each file's name and SHA-384 (`__BP_TEXTS__`, written by the build)
 * and fetches it with `integrity`, so the text files are pinned like the bundle; a file that fails its check is an
 * error, never shown. From the sources (tests, a bundler of the page's own) the module is imported instead.
 */
import { PayError } from '../pay-error.js';
import { EN_FIRST } from './en.js';
import type { FirstTexts, Lang, PaymentMethodsTexts, Texts } from './types.js';

/** One language's texts for both elements. */
export interface Catalog {
  /**
   * Whole in a language file, and in English once the late modules added theirs (`addEnglish`); the first screen's until
   * then.
   */
  pay: FirstTexts;
  /** In a language file; English's are in `<billing-payment-methods>` itself (`METHODS_EN`), not in every bundle. */
  methods?: PaymentMethodsTexts;
}

/** Part of the English texts, as a late module brings it. */
export type EnglishPart = Partial<Omit<Texts, 'labels' | 'errors'>> & {
  labels?: Partial<Texts['labels']>;
  errors?: Partial<Texts['errors']>;
};

/** Set by the build: each language file's name (beside the bundle) and integrity. */
declare const __BP_TEXTS__: Record<Exclude<Lang, 'en'>, { file: string; integrity: string }>;

const catalogs: Partial<Record<Lang, Catalog>> = { en: { pay: EN_FIRST } };
const loading = new Map<Lang, Promise<Catalog>>();

/** A language's texts if they are here, else `undefined` (see `loadCatalog`). */
export function catalogOf(lang: Lang): Catalog | undefined {
  return catalogs[lang];
}

/**
 * English a late module brings for what it says (the submit chain's texts, the result screen's labels), added to the
 * catalog: a new one, so every element's texts are layered again at its next update.
 */
export function addEnglish(part: EnglishPart): void {
  const { pay } = catalogs.en!;
  catalogs.en = {
    pay: { ...pay, ...part, labels: { ...pay.labels, ...part.labels }, errors: { ...pay.errors, ...part.errors } },
  };
}

/** A language's texts, fetched once; a failed fetch may be tried again. */
export function loadCatalog(lang: Lang): Promise<Catalog> {
  const here = catalogs[lang];
  if (here) return Promise.resolve(here);
  let pending = loading.get(lang);
  if (!pending) {
    pending = fetchCatalog(lang as Exclude<Lang, 'en'>).then(
      (catalog) => (catalogs[lang] = catalog),
      (error: unknown) => {
        loading.delete(lang);
        throw new PayError('network', 'load_failed', `The ${lang} texts could not be loaded.`, { cause: error });
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

async function fetchCatalog(lang: Exclude<Lang, 'en'>): Promise<Catalog> {
  if (typeof __BP_TEXTS__ === 'object') {
    const { file, integrity } = __BP_TEXTS__[lang];
    const answer = await fetch(new URL(file, import.meta.url), { integrity });
    if (!answer.ok) throw new Error(`${file}: ${answer.status}`);
    return (await answer.json()) as Catalog;
  }
  const { RU, METHODS_RU } = await import('./ru.js');
  return { pay: RU, methods: METHODS_RU };
}
