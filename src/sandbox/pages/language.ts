/**
 * Which language a page speaks to the client: the `lang` the address they return to carries (the language they chose
 * on the merchant's page, e.g. `https://shop.example/pay?lang=ru`), else the first language of their browser's
 * `Accept-Language` that the pages speak, else English.
 */
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { TEXTS, type Lang, type PageTexts } from './texts.js';

const isLang = (tag: string): tag is Lang => Object.hasOwn(TEXTS, tag);

/** The language of a tag the pages speak (`ru`, `ru-RU`, `EN-gb`), or none. */
function spokenLang(tag: string): Lang | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
  return isLang(primary) ? primary : undefined;
}

/**
 * The most wanted language of the request's `Accept-Language` that the pages speak (by `q`, then order), or none.
 * Hono parses the header; a tag counts by its primary language (`ru-RU` is `ru`), which Hono's own match does not do.
 */
export function langOfAcceptLanguage(c: Context): Lang | undefined {
  const lang = accepts(c, {
    header: 'Accept-Language',
    supports: Object.keys(TEXTS),
    default: '',
    // A stable sort: of equal `q`, the first named wins.
    match: (wanted) =>
      [...wanted]
        .filter((a) => a.q > 0)
        .sort((a, b) => b.q - a.q)
        .map((a) => spokenLang(a.type))
        .find(Boolean) ?? '',
  });
  return lang ? (lang as Lang) : undefined;
}

/** The `lang` an address carries in its query (`?lang=ru`) when the pages speak it, or none. */
export function langOfAddress(address: unknown): Lang | undefined {
  if (typeof address !== 'string' || !URL.canParse(address)) return undefined;
  const lang = new URL(address).searchParams.get('lang');
  return lang === null ? undefined : spokenLang(lang);
}

/** The texts of the page a request gets; `returnAddress`: where the client goes back to, when the page knows it. */
export function textsFor(c: Context, returnAddress?: unknown): PageTexts {
  return TEXTS[langOfAddress(returnAddress) ?? langOfAcceptLanguage(c) ?? 'en'];
}
