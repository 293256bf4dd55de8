// The demo pages in English and Russian. Every text of a page is written in both languages (`data-only="en"`,
// `data-only="ru"`: demo.css shows the page's language); the title and the names of the navigation are in `data-en`
// and `data-ru`. The language stays in the address (`?lang=ru`): the widget sends the client back to this page's
// address, so the language comes back from the payment page with them, and the site's links carry it along.

/** The language the address asks for: `ru` or `en`. */
export function langOf(href = window.location.href) {
  return new URL(href).searchParams.get('lang') === 'ru' ? 'ru' : 'en';
}

/** Shows the page in `lang`; the elements (`<billing-pay>`…) are told it too. */
export function speak(lang, elements) {
  document.documentElement.lang = lang;
  for (const el of elements) el.setAttribute('lang', lang);
  for (const node of document.querySelectorAll('[data-en]')) {
    if (node.localName === 'title') node.textContent = node.dataset[lang];
    else node.setAttribute('aria-label', node.dataset[lang]);
  }
  for (const button of document.querySelectorAll('[data-lang]')) {
    button.setAttribute('aria-pressed', String(button.dataset.lang === lang));
  }
  const withLang = (href) => {
    const url = new URL(href);
    if (lang === 'en') url.searchParams.delete('lang');
    else url.searchParams.set('lang', lang);
    return url.href;
  };
  window.history.replaceState(window.history.state, '', withLang(window.location.href));
  for (const link of document.querySelectorAll('header.site a')) link.href = withLang(link.href);
}

/** Wires the language buttons; `onSwitch` says the page's own messages again. */
export function bilingual(elements, onSwitch = () => {}) {
  speak(langOf(), elements);
  for (const button of document.querySelectorAll('[data-lang]')) {
    button.addEventListener('click', () => {
      speak(button.dataset.lang, elements);
      onSwitch();
    });
  }
}
