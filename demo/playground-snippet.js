// The embed of `<billing-pay>`, made once: the playground's output (demo/playground.js), the page the bench times
// (bench/ready.ts) and the tests load (test/widget/e2e-stack.ts) — the HTML a merchant pastes into their page (its
// Content-Security-Policy, the relay hints, the widget's script with its integrity, the element) and the line their
// relay's `.env` needs. Pure functions of what the merchant chose: no DOM, so the tests call them as they are.

/** `{relay}/{path}`, as the widget builds it (src/widget/relay-client.ts `relayUrl`): the relay may have a path. */
export function relayUrl(relay, path) {
  const base = new URL(relay);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(path, base).href;
}

/**
 * One attribute as HTML: a boolean one (`true`) by its name alone, any other quoted. The quote is `"`, or `'` when the
 * value holds `"` and no `'` (JSON reads better so); `&`, `<`, `>` and the quote are escaped, so any text the merchant
 * typed comes back from the parser exactly as it was typed, and can close nothing.
 */
export function attributeHtml(name, value) {
  if (value === true) return name;
  const text = String(value);
  const quote = text.includes('"') && !text.includes("'") ? "'" : '"';
  const escaped = text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll(quote, quote === '"' ? '&quot;' : '&#39;');
  return `${name}=${quote}${escaped}${quote}`;
}

/** An element's start and end tags with these attributes, one per line when there are several. */
export function elementHtml(tag, attributes) {
  const parts = attributes.map(([name, value]) => attributeHtml(name, value));
  const inline = `<${[tag, ...parts].join(' ')}>`;
  const open = inline.length <= 100 ? inline : `<${tag}\n${parts.map((p) => `  ${p}`).join('\n')}\n>`;
  return `${open}</${tag}>`;
}

/**
 * The policy a page with the widget needs. The widget loads its script from the relay (`script-src`) and talks only to
 * the relay (`connect-src`, which also covers the preload of `/config`). Nothing else: its styles are constructed
 * stylesheets (`adoptedStyleSheets`), which `style-src` does not govern, so no `'unsafe-inline'`; it runs no `eval`;
 * its form never submits (the widget posts with `fetch`), so `form-action` needs nothing for it; it goes to the payment
 * page by `location.assign`, a navigation no directive restricts. `'self'` keeps the page's own files working.
 */
export function contentSecurityPolicy(relay, pageOrigin) {
  const relayOrigin = new URL(relay).origin;
  const sources = relayOrigin === pageOrigin ? "'self'" : `'self' ${relayOrigin}`;
  return [
    "default-src 'self'",
    `script-src ${sources}`,
    `connect-src ${sources}`,
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The header every page with the widget is sent with, so no page of another origin shows it in a frame (clickjacking);
 * a `<meta>` policy cannot carry `frame-ancestors`, so it goes as a header of its own.
 */
export const FRAME_ANCESTORS_HEADER = "Content-Security-Policy: frame-ancestors 'self'";

/** The relay's `.env` line that lets the merchant's page use it. */
export function allowedOriginsLine(pageOrigin) {
  return `ALLOWED_ORIGINS=${pageOrigin}`;
}

/**
 * The relay hints for `<head>`: a preconnect to the relay's origin (the script and `/config` are fetched with CORS and
 * without credentials: `crossorigin` warms that connection) and a preload of `/config` exactly as the widget requests
 * it, so the widget's first request starts with the page and its answer is taken from the preload.
 */
export function relayHints(relay) {
  return [
    `<link rel="preconnect" ${attributeHtml('href', new URL(relay).origin)} crossorigin>`,
    `<link rel="preload" as="fetch" crossorigin ${attributeHtml('href', relayUrl(relay, 'config'))}>`,
  ].join('\n');
}

/**
 * For a page in a language other than English: a preload of that language's texts (`billing-pay-ru.json` of
 * bundles.json), fetched at once beside the script instead of after it. The widget fetches the same file with the same
 * integrity, so it takes the preload.
 */
export function textsHint(relay, texts) {
  return elementHtml('link', [
    ['rel', 'preload'],
    ['as', 'fetch'],
    ['crossorigin', true],
    ['href', relayUrl(relay, texts.file)],
    ['integrity', texts.integrity],
  ]);
}

/**
 * The height the page keeps for the form before the widget's script has run, so nothing below it moves when the form
 * is drawn: the tallest the docs' form is (`lookup="5 7"`, English or Russian, 320 px wide or more) in Chromium, Firefox
 * and WebKit at the default root font size, rounded up (test/widget/reserved-height.test.ts measures it).
 */
export const RESERVED_HEIGHT = '46rem';

/**
 * The rule for the page's own stylesheet that keeps that place (a strict policy's `style-src 'self'` allows no inline
 * style): the element is a block of at least `RESERVED_HEIGHT` from the first paint, defined or not.
 */
export function reservationCss(tag = 'billing-pay') {
  return `${tag} {
  display: block;
  min-block-size: ${RESERVED_HEIGHT};
}`;
}

/** The widget's script from the relay, under its content-hashed name, with its integrity. */
export function scriptHtml(relay, bundle) {
  return elementHtml('script', [
    ['type', 'module'],
    ['src', relayUrl(relay, bundle.file)],
    ['integrity', bundle.integrity],
    ['crossorigin', 'anonymous'],
  ]);
}

/**
 * The embed snippet. `bundle` is the build's entry for the widget's script (dist/bundles.json, as the relay publishes
 * it at `/bundles.json`): its content-hashed file name and its integrity. `attributes`: `[name, value]` pairs, the
 * value `true` for a boolean attribute, in the order to write them (`relay` is put first). `texts`: the entry of the
 * page's language's texts, for a page not in English (`textsHint`).
 * Answers `{html, csp, env, css}`: the HTML for the page, its policy alone (to send as a header instead), the relay's
 * line, and for `<billing-pay>` the rule of the page's stylesheet that keeps the form's place (`reservationCss`; `''`
 * for another element).
 */
export function embedSnippet({ relay, pageOrigin, bundle, texts, tag = 'billing-pay', attributes }) {
  const csp = contentSecurityPolicy(relay, pageOrigin);
  const html = [
    `<!-- Send the page with the HTTP header ${FRAME_ANCESTORS_HEADER} (a <meta> cannot carry it) -->`,
    '<!-- In <head>: the page’s policy (or send it as a Content-Security-Policy header), the relay hints, the widget -->',
    `<meta ${attributeHtml('http-equiv', 'Content-Security-Policy')} ${attributeHtml('content', csp)}>`,
    relayHints(relay),
    ...(texts ? [textsHint(relay, texts)] : []),
    scriptHtml(relay, bundle),
    '',
    '<!-- In <body>, where the payment form goes -->',
    elementHtml(tag, [['relay', relay], ...attributes.filter(([name]) => name !== 'relay')]),
    '',
  ].join('\n');
  const css = tag === 'billing-pay' ? `${reservationCss(tag)}\n` : '';
  return { html, csp, env: `${allowedOriginsLine(pageOrigin)}\n`, css };
}
