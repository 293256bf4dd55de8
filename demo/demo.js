// The demo merchant page: switches the page language and logs every event of <billing-pay>. When the client comes back
// from the payment page, the widget itself says what it knows (and fires billing-pay-return, logged here).
// (A file of its own: the page's Content-Security-Policy allows no inline script.)
import { PAY_EVENTS } from './pay-events.js';
import { bilingual } from './i18n.js';

const widget = document.querySelector('billing-pay');
// The widget follows the page's language unless it has its own `lang`.
bilingual([widget]);
const log = document.getElementById('log');
const hold = document.getElementById('hold-redirect');

for (const name of PAY_EVENTS) {
  widget.addEventListener(name, (event) => {
    if (name === 'billing-pay-redirect' && hold.checked) event.preventDefault();
    const item = document.createElement('li');
    const title = document.createElement('span');
    title.className = 'name';
    const cancelled = document.documentElement.lang === 'ru' ? ' (отменено)' : ' (cancelled)';
    title.textContent = name + (event.defaultPrevented ? cancelled : '');
    item.append(title, ' ', JSON.stringify(event.detail));
    log.prepend(item);
  });
}

// This script may run after the widget got ready (WebKit fetched it only after /config had answered): then it has
// missed billing-pay-ready, and the widget's `state` tells it.
if (widget.state === 'ready') {
  const item = document.createElement('li');
  item.textContent = 'state="ready" (billing-pay-ready fired before this page listened)';
  log.prepend(item);
}
