/**
 * Which language a page speaks to the client: the `lang` the address they return to carries (the language they chose
 * on the merchant's page, e.g. `https://shop.example/pay?lang=ru`), else the first language of their browser's
 * `Accept-Language` that the pages speak, else English.
 */
import type { Context } from 'hono';
import { TEXTS, type Lang, type PageTexts } from './texts.js';

const isLang = (tag: string): tag is Lang => Object.hasOwn(TEXTS, tag);

/** The language of a tag the pages speak (`ru`, `ru-RU`, `EN-gb`), or none. */
function spokenLang(tag: string): Lang | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
  return isLang(primary) ? primary : undefined;
}

/** The most wanted language of an `Accept-Language` header that the pages speak (by `q`, then order), or none. */
export function langOfAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const wanted = header.split(',').flatMap((entry, order) => {
    const [tag = '', ...params] = entry.split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const lang = spokenLang(tag);
    const weight = q === undefined ? 1 : Number(q);
    return lang && weight > 0 ? [{ lang, weight, order }] : [];
  });
  wanted.sort((a, b) => b.weight - a.weight || a.order - b.order);
  return wanted[0]?.lang;
}

/** The `lang` an address carries in its query (`?lang=ru`) when the pages speak it, or none. */
export function langOfAddress(address: unknown): Lang | undefined {
  if (typeof address !== 'string' || !URL.canParse(address)) return undefined;
  const lang = new URL(address).searchParams.get('lang');
  return lang === null ? undefined : spokenLang(lang);
}

/** The texts of the page a request gets; `returnAddress`: where the client goes back to, when the page knows it. */
export function textsFor(c: Context, returnAddress?: unknown): PageTexts {
  return TEXTS[langOfAddress(returnAddress) ?? langOfAcceptLanguage(c.req.header('accept-language')) ?? 'en'];
}
