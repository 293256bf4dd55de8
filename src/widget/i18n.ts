/**
 * Which texts an element speaks: the language is read when it is needed (never when the module loads) — the element's
 * `lang` attribute, else the closest `[lang]` ancestor (crossing shadow roots), else the document's language — and a
 * page's `texts` are layered on the built-in texts of that language (`texts/en.ts`, `texts/ru.ts`). A page may override
 * any text, or add a language, without a fork: see `TextOverrides` and `layerTexts`.
 */
import type { LookupKey } from '../eps/lookup.js';
import { EN } from './texts/en-checkout.js';
import { METHODS_EN } from './texts/en-methods.js';
import { METHODS_RU, RU } from './texts/ru.js';
import type { Lang, PaymentMethodsTexts, Speech, Texts, TextOverrides, TextsOption } from './texts/types.js';

export type * from './texts/types.js';

export const TEXTS: Record<Lang, Texts> = { en: EN, ru: RU };

export const PAYMENT_METHODS_TEXTS: Record<Lang, PaymentMethodsTexts> = { en: METHODS_EN, ru: METHODS_RU };

/** Whether `Intl` takes `tag` (`ru-RU-` or `en-x` it refuses, and would throw wherever a number is written). */
function isLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length > 0;
  } catch {
    return false;
  }
}

/** `'ru'` for any Russian tag (`ru`, `ru-RU`), else `'en'`. */
export function toLang(tag: string | null | undefined): Lang {
  return /^ru\b/i.test(tag ?? '') ? 'ru' : 'en';
}

/**
 * The language tag in effect for an element (`'ru-RU'`, `'de'`, or `''` when nothing says): its own `lang`, else the
 * nearest ancestor's (through shadow roots), else the document's. Read on demand.
 */
export function langTagOf(el: Element): string {
  for (let node: Element | null = el; node;) {
    const tag = node.getAttribute('lang');
    if (tag) return tag;
    node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);
  }
  return el.ownerDocument.documentElement.lang;
}

/** The built-in language of an element (`'ru'` or `'en'`), from `langTagOf`. */
export function langOf(el: Element): Lang {
  return toLang(langTagOf(el));
}

/** The parts of `TextOverrides`: an option that has one of them at its top is flat (for every language). */
const PARTS = ['labels', 'kinds', 'problems', 'errors', 'missing', 'systems', 'methods'];

/**
 * The texts of an element for a language tag: its built-in language (`ru`, else English), with the page's overrides
 * on top — those for every language, then those for the tag's language (`de`), then for the exact tag (`de-CH`). A tag
 * with neither built-in texts nor overrides falls back to English (and English number formats). `builtIn` holds the
 * element's parts (`labels`, `methods`, …) in the built-in language of `tag`; each part is merged key by key.
 */
export function layerTexts<T extends object>(
  tag: string,
  option: TextsOption | null | undefined,
  builtIn: T,
): Speech<T> {
  const exact = tag.toLowerCase();
  const primary = exact.split('-')[0]!;
  const flat = option && PARTS.some((part) => part in option);
  const byTag: Record<string, TextOverrides> =
    flat || !option ? {} : Object.fromEntries(Object.entries(option).map(([k, v]) => [k.toLowerCase(), v]));
  const own = [primary, exact].flatMap((key) => (key && Object.hasOwn(byTag, key) ? [byTag[key]!] : []));
  const known = own.length > 0 || primary === 'ru' || primary === 'en';
  const layers = [flat ? (option as TextOverrides) : {}, ...own] as Record<string, object | undefined>[];
  const t = Object.fromEntries(
    Object.entries(builtIn).map(([part, texts]) => [
      part,
      Object.assign({}, texts, ...layers.map((layer) => layer[part])),
    ]),
  ) as T;
  return { locale: (known && [tag, primary].find(isLocale)) || 'en', t };
}

/** The texts of `<billing-pay>` for a language tag, with the page's `texts` (see `layerTexts`). */
export function resolveTexts(tag: string, option?: TextsOption | null): Speech {
  return layerTexts(tag, option, TEXTS[toLang(tag.split('-')[0])]);
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The text of a problem key (the relay sends keys, never sentences). "No agreement found" is worded for the lookup kind
 * in use; a key this version does not know gets the general "correct the highlighted fields".
 */
export function problemOf(t: Texts, key: string, kind?: LookupKey): string {
  if (key === 'agreement_not_found' && kind) return t.missing[kind];
  return (t.problems as Record<string, string>)[key] ?? t.errors.validation_failed;
}

/** `problemOf` with the built-in texts of `lang`. */
export function problemIn(lang: Lang, key: string): string {
  return problemOf(TEXTS[lang], key);
}
