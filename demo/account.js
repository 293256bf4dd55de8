// The demo's "My account" page: asks the merchant's server (the demo server) for a client session, hands it to both
// elements, logs their events and switches the page language.
// (A file of its own: the page's Content-Security-Policy allows no inline script.)
import { PAY_EVENTS } from './pay-events.js';
import { bilingual } from './i18n.js';

const methods = document.querySelector('billing-payment-methods');
const pay = document.querySelector('billing-pay');
// The elements follow the page's language unless they have their own `lang`; back from the payment page, the widget
// says what it knows.
let sayNoSession = null;
bilingual([methods, pay], () => sayNoSession?.());
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
for (const name of PAY_EVENTS) {
  pay.addEventListener(name, (event) => record(name, event.detail));
}

// This script may run after the elements got ready: their `state` tells what their events would have.
for (const el of [pay, methods]) {
  if (el.state === 'ready') record(`<${el.localName}> state`, 'ready (before this page listened)');
}

// A real merchant would render the session into the page or fetch it from their own backend, as here.
async function askForSession() {
  try {
    const answer = await fetch('/demo-session', { headers: { Accept: 'application/json' } });
    if (!answer.ok) throw new Error(`GET /demo-session answered ${answer.status}`);
    const { session } = await answer.json();
    methods.session = session;
    pay.session = session;
  } catch (error) {
    // The cause and the command as code: they are the program's words, not the page's.
    const code = (text) => Object.assign(document.createElement('code'), { textContent: text });
    sayNoSession = () => {
      const ru = document.documentElement.lang === 'ru';
      sessionState.replaceChildren(
        ru ? 'Нет клиентской сессии (' : 'No client session (',
        code(error.message),
        ru ? '). Запущен ли демо-сервер (' : '). Is the demo server (',
        code('npm start'),
        ru ? ')?' : ') running?',
      );
    };
    sayNoSession();
  }
}
// Started, not awaited: no top-level await in this module. In WebKit (WebKitGTK 2.50) a module whose top-level await
// is still pending when its document is detached — this page in a frame that is removed as it loads — leaves the web
// process spinning, and the page that held the frame, and every other page in that process, stop responding.
// test/widget/demo.test.ts removes the page's frame at that very moment.
askForSession();
