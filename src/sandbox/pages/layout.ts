/**
 * The layout of every sandbox page and its one stylesheet, the message page, and how an agreement is named. Every
 * value is escaped by `hono/html`; there is no script at all, so the pages work under the strict
 * Content-Security-Policy the app sends with them.
 */
import { html, raw } from 'hono/html';
import type { Agreement } from '../billing/records.js';
import type { PageTexts } from './texts.js';

export type Html = ReturnType<typeof html>;

export const SANDBOX_CSS = `:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#f6f8fa;--card:#fff;--line:#d0d7de;--accent:#0b57d0;--accent-fg:#fff;--ok:#1a7f37;--bad:#cf222e;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#4493f8;--accent-fg:#0d1117;--ok:#3fb950;--bad:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg)}
.bar{background:var(--card);border-bottom:1px solid var(--line);padding:.75rem 1.25rem;font-weight:600}
.bar span{color:var(--muted);font-weight:400}
main{max-width:34rem;margin:2rem auto;padding:0 1rem}
main.wide{max-width:60rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.75rem;padding:1.5rem;margin-bottom:1.5rem}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:1.25rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.4rem 1rem;margin:0 0 1.25rem}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:break-word}
@media (max-width:30rem){.card{padding:1rem}dl{grid-template-columns:minmax(0,1fr);gap:0}dd{margin-bottom:.5rem}}
.note{color:var(--muted);font-size:.9rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button,.button{font:inherit;font-weight:600;padding:.65rem 1.4rem;border-radius:.5rem;border:2px solid var(--accent);cursor:pointer;text-decoration:none;display:inline-block}
button[value=pay],.button{background:var(--accent);color:var(--accent-fg)}
button[value=decline]{background:transparent;color:var(--accent)}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid var(--fg);outline-offset:2px}
a{color:var(--accent)}
table{border-collapse:collapse;width:100%;margin-bottom:.5rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
.num{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:var(--ok);font-weight:600}
.bad{color:var(--bad);font-weight:600}
.muted{color:var(--muted)}
dd.num{text-align:left}
td.when,.nowrap{white-space:nowrap}
nav{margin-bottom:1rem}
form.inline{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:.75rem 0 0}
form.row{margin:0}
.clock button,.row button{background:var(--card);color:var(--accent);padding:.35rem .9rem}
.clock button.primary{background:var(--accent);color:var(--accent-fg)}
input{font:inherit;padding:.4rem .5rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
input:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
.table-wrap{overflow-x:auto}
.notice{border-left:.3rem solid var(--accent)}
ol.events{margin:.5rem 0 0;padding-left:1.5rem}
ol.events li{margin:.25rem 0}
ol.events time{font-variant-numeric:tabular-nums;margin-right:.5rem;white-space:nowrap}
small.muted{font-size:.8rem;font-weight:400}
fieldset.cards{border:0;padding:0;margin:0 0 1.25rem;display:grid;gap:.35rem}
fieldset.cards legend{color:var(--muted);padding:0;margin-bottom:.35rem}
`;

export function page(t: PageTexts, title: string, body: Html, wide = false): Html {
  return html`<!doctype html>
<html lang="${t.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/sandbox.css">
</head>
<body>
<header class="bar">${t.layout.sandbox} <span>${t.layout.testOnly}</span></header>
<main${wide ? raw(' class="wide"') : ''}>
${body}
</main>
</body>
</html>`;
}

/** How an agreement is named inside a sentence: its number ("AG-1001"), or "offer agreement 1003" when it has none. */
export function agreementLabel(t: PageTexts, agreement: Agreement | undefined): string {
  if (!agreement) return t.agreement.unknown;
  return agreement.agreement_number ?? t.agreement.offer(agreement.agreement_id);
}

/** How an agreement is named in a heading: "Agreement AG-1001", or "Offer agreement 1003" when it has no number. */
export function agreementTitle(t: PageTexts, agreement: Agreement): string {
  return agreement.agreement_number
    ? t.agreement.numbered(agreement.agreement_number)
    : t.agreement.offerTitle(agreement.agreement_id);
}

export function messagePage(t: PageTexts, title: string, message: string): Html {
  return page(
    t,
    title,
    html`<section class="card" aria-labelledby="title"><h1 id="title">${title}</h1><p>${message}</p></section>`,
  );
}
