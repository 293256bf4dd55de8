// The demo's "My account" page: asks the merchant's server (the demo server) for a client session, hands it to both
// elements, logs their events and switches the page language.
// (A file of its own: the page's Content-Security-Policy allows no inline script.)
import { showPaymentReturn } from './payment-return.js';

const returned = showPaymentReturn(document.getElementById('payment-status'));
const methods = document.querySelector('billing-payment-methods');
const pay = document.querySelector('billing-pay');
const log = document.getElementById('log');
const sessionState = document.getElementById('session-state');

function record(name, detail) {
  const item = document.createElement('li');
  const title = document.createElement('span');
  title.className = 'name';
  title.textContent = name;
  item.append(title, ' ', JSON.stringify(detail));
  log.prepend(item);
}

for (const name of ['billing-payment-methods-change', 'billing-payment-methods-error']) {
  methods.addEventListener(name, (event) => record(name, event.detail));
}
for (const name of ['billing-pay-ready', 'billing-pay-submit', 'billing-pay-redirect', 'billing-pay-error']) {
  pay.addEventListener(name, (event) => record(name, event.detail));
}

// This script may run after the elements got ready: their `state` tells what their events would have.
for (const el of [pay, methods]) {
  if (el.state === 'ready') record(`<${el.localName}> state`, 'ready (before this page listened)');
}

// The elements follow the page's language unless they have their own `lang`.
for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => {
    document.documentElement.lang = button.dataset.lang;
    for (const el of [methods, pay]) el.setAttribute('lang', button.dataset.lang);
    returned?.();
    for (const other of document.querySelectorAll('[data-lang]')) {
      other.setAttribute('aria-pressed', String(other === button));
    }
  });
}

// A real merchant would render the session into the page or fetch it from their own backend, as here.
try {
  const answer = await fetch('/demo-session', { headers: { Accept: 'application/json' } });
  if (!answer.ok) throw new Error(`GET /demo-session answered ${answer.status}`);
  const { session } = await answer.json();
  methods.session = session;
  pay.session = session;
} catch (error) {
  sessionState.textContent = `No client session: ${error.message}. Is the demo server (npm start) running?`;
}
