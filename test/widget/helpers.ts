/**
 * Helpers for the widget's browser tests: a `fetch` stub that plays the relay, and ways to use the rendered form
 * as a person would (find a control by its label, type, click). Importing this module routes the page's
 * `XMLHttpRequest`, which the widget talks to the relay with, through `window.fetch`, so that one stub of `fetch` plays
 * every relay call; a test against real servers takes the browser's own back (`useBrowserXhr`), as the built bundle in
 * the e2e pages' frames has it.
 */
import { expect, fixture } from '@open-wc/testing';
import sinon from 'sinon';
import type { TemplateResult } from 'lit';
import { BillingPay } from '../../src/widget/billing-pay.component.js';
import { loadLate } from '../../src/widget/late/load.js';

/** What the relay's `GET /config` answers when all three systems are configured. */
export const CONFIG = {
  systems: [
    { id: 'A', canSave: true, linkOnly: true },
    { id: 'B', canSave: true, linkOnly: false },
    { id: 'C', canSave: false, linkOnly: false },
  ],
  lookups: [1, 4, 5, 6, 7, 8, 10, 11, 14, 15],
  maxAmount: '100000.00',
  autopayLeadDays: 1,
};

export const PAYMENT_PAGE = 'https://pay.example/checkout/42';

/** One request the widget sent through `fetch`. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  signal: AbortSignal | undefined;
}

export interface RelayStub {
  /** Every request, in order. */
  requests: SentRequest[];
  /** The `POST …/payments` requests. */
  payments(): SentRequest[];
  stub: sinon.SinonStub;
  restore(): void;
}

export interface RelayStubOptions {
  /** The `/config` answer: a body, a Response for a failure, or a function of the request (say, `hanging`). */
  config?: object | ((request: SentRequest) => Response | Promise<Response>);
  /** How the relay answers a payment; default 201 with `PAYMENT_PAGE`. */
  payment?: (request: SentRequest) => Response | Promise<Response>;
}

/** The part of `XMLHttpRequest` the widget uses, sent by `window.fetch` (whatever stub is in place when it is sent). */
class FetchedXhr {
  status = 0;
  responseText = '';
  onloadend: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  private answered?: Headers;
  private readonly aborter = new AbortController();

  open(method: string, url: string) {
    [this.method, this.url] = [method, url];
  }

  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }

  getResponseHeader(name: string) {
    return this.answered?.get(name) ?? null;
  }

  /** As the browser's: the request ends at once, with status 0. */
  abort() {
    this.aborter.abort();
    this.end();
  }

  send(body?: string) {
    const { method, headers } = this;
    // Whatever the stub does (throws, rejects, answers a body that fails), the request ends, as the browser's would.
    Promise.resolve()
      .then(() => window.fetch(this.url, { method, headers, body, signal: this.aborter.signal }))
      .then(async (response) => {
        const text = await response.text();
        if (!this.aborter.signal.aborted)
          [this.status, this.responseText, this.answered] = [response.status, text, response.headers];
      })
      .catch(() => {})
      .finally(() => this.end());
  }

  private ended = false;
  private end() {
    if (this.ended) return;
    this.ended = true;
    this.onloadend?.();
  }
}
const browserXhr = window.XMLHttpRequest;
const routed = FetchedXhr as unknown as typeof XMLHttpRequest;
window.XMLHttpRequest = routed;

/** For tests against real servers: the browser's own `XMLHttpRequest`, until the function it answers routes it again. */
export function useBrowserXhr(): () => void {
  window.XMLHttpRequest = browserXhr;
  return () => {
    window.XMLHttpRequest = routed;
  };
}

/** For a file whose tests all talk to real servers: the browser's own `XMLHttpRequest` from its first test to its last. */
export function browserXhrInThisFile(): void {
  let route: () => void;
  before(() => {
    route = useBrowserXhr();
  });
  after(() => route());
}

/** A request the browser's `XMLHttpRequest` sent, as `watchXhr` saw it leave. */
export interface SentXhr {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** What the browser's `XMLHttpRequest` sends from now on, each request as it leaves; `restore` stops the watch. */
export function watchXhr(): { sent: SentXhr[]; restore(): void } {
  const proto = browserXhr.prototype;
  const { open, setRequestHeader, send } = proto;
  const opened = new WeakMap<XMLHttpRequest, Omit<SentXhr, 'body'>>();
  const sent: SentXhr[] = [];
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL) {
    opened.set(this, { url: String(url), method, headers: new Headers() });
    open.call(this, method, url, true);
  } as typeof proto.open;
  proto.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
    opened.get(this)?.headers.set(name, value);
    setRequestHeader.call(this, name, value);
  };
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const request = opened.get(this);
    if (request) sent.push({ ...request, body });
    send.call(this, body);
  };
  return { sent, restore: () => Object.assign(proto, { open, setRequestHeader, send }) };
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const created = (url = PAYMENT_PAGE) => json({ redirect_url: url, payment: { payment_id: 42 } }, 201);

/** A payment that never answers until its request is aborted (then rejects the way `fetch` does). */
export const hanging = (request: SentRequest) =>
  new Promise<Response>((_, reject) => {
    request.signal?.addEventListener('abort', () =>
      reject(new DOMException('The operation was aborted.', 'AbortError')),
    );
  });

/** An answered payment leaves its attempt in the origin's storage, which the next test would read as a return. */
export function forgetAttempts() {
  sessionStorage.clear();
  localStorage.clear();
}

/** Replaces `window.fetch` with a relay: `/config` and `/payments`. Restore it in `afterEach`. */
export function stubRelay(options: RelayStubOptions = {}): RelayStub {
  const requests: SentRequest[] = [];
  const passOn = window.fetch.bind(window);
  const stub = sinon.stub(window, 'fetch').callsFake(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    // The built bundle's own files (a language's texts) come from the test server as from a relay.
    if (new URL(url, location.href).pathname.startsWith('/dist/')) return passOn(input, init);
    const request: SentRequest = {
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      signal: init.signal ?? undefined,
    };
    requests.push(request);
    init.signal?.throwIfAborted();
    if (url.endsWith('/config')) {
      const config = options.config ?? CONFIG;
      if (typeof config === 'function') return config(request);
      return config instanceof Response ? config : json(config);
    }
    if (url.endsWith('/payments') && request.method === 'POST')
      return options.payment ? options.payment(request) : created();
    return json({ error: { code: 'not_found', message: 'There is nothing at this address.' } }, 404);
  });
  return {
    requests,
    payments: () => requests.filter((r) => r.url.endsWith('/payments')),
    stub,
    restore: () => {
      stub.restore();
      forgetAttempts();
    },
  };
}

/** Renders the element and waits until it has loaded `/config` (`billing-pay-ready`). */
export async function mount(template: TemplateResult): Promise<BillingPay> {
  const ready = new Promise((resolve) => document.addEventListener('billing-pay-ready', resolve, { once: true }));
  const el = await fixture<BillingPay>(template);
  await ready;
  // The submit chain, which the element starts loading at ready: here before a person could have typed and left a field.
  await loadLate('pay');
  await el.updateComplete;
  return el;
}

const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The control labelled `text` (the label's words, without "(optional)"), or `null`. */
export function control<T extends HTMLElement = HTMLInputElement>(el: BillingPay, text: string): T | null {
  const root = el.shadowRoot!;
  for (const label of root.querySelectorAll('label')) {
    const words = labelWords(label);
    if (words === text && label.htmlFor) return root.getElementById(label.htmlFor) as T | null;
  }
  return null;
}

/** Like `control`, but fails the test when there is none. */
export function field<T extends HTMLElement = HTMLInputElement>(el: BillingPay, text: string): T {
  const found = control<T>(el, text);
  if (!found) throw new Error(`No control labelled "${text}"; labels: ${labels(el).join(' | ')}`);
  return found;
}

/** A label's own words, without its "(optional)" marker. */
function labelWords(label: HTMLLabelElement): string {
  const copy = label.cloneNode(true) as HTMLLabelElement;
  copy.querySelector('.optional')?.remove();
  return norm(copy.textContent);
}

/** The texts of every label, in order. */
export function labels(el: BillingPay): string[] {
  return [...el.shadowRoot!.querySelectorAll('label')].map((l) => norm(l.textContent));
}

/** Types into the labelled field as a person would: focus, value, `input` event. */
export async function type(el: BillingPay, label: string, text: string): Promise<void> {
  const input = field(el, label);
  input.focus();
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  await el.updateComplete;
}

/** Clicks the labelled radio, checkbox or button. */
export async function click(el: BillingPay, label: string): Promise<void> {
  field(el, label).click();
  await el.updateComplete;
}

/** Picks an option of the labelled select by its text. */
export async function select(el: BillingPay, label: string, optionText: string): Promise<void> {
  const chooser = field<HTMLSelectElement>(el, label);
  const option = [...chooser.options].find((o) => norm(o.textContent) === optionText);
  if (!option) throw new Error(`No option "${optionText}"`);
  chooser.value = option.value;
  chooser.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

export function payButton(el: BillingPay): HTMLButtonElement {
  return el.shadowRoot!.querySelector('button[type="submit"]')!;
}

/** Presses Pay. */
export async function pay(el: BillingPay): Promise<void> {
  payButton(el).click();
  await el.updateComplete;
}

/** The text that describes the labelled control (its error), through `aria-describedby`. */
export function errorOf(el: BillingPay, label: string): string {
  const ids = field(el, label).getAttribute('aria-describedby')?.split(/\s+/) ?? [];
  return norm(ids.map((id) => el.shadowRoot!.getElementById(id)?.textContent).join(' '));
}

/** The live region's text. */
export function status(el: BillingPay): string {
  return norm(el.shadowRoot!.querySelector('[role="status"]')?.textContent);
}

/** `{name: value}` of a request's `eps_params`. */
export function paramsOf(body: unknown): Record<string, unknown> {
  const items = (body as { eps_params: { name: string; value: unknown }[] }).eps_params;
  return Object.fromEntries(items.map((p) => [p.name, p.value]));
}

/** Asks the test runner's real relay and sandbox (test/widget/e2e-stack.ts) a question: `/__e2e/{name}`. */
export async function e2e<T>(name: string, query: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`/__e2e/${name}?${new URLSearchParams(query)}`);
  if (!res.ok) throw new Error(`/__e2e/${name}: ${res.status}`);
  return (await res.json()) as T;
}

/** Where the runner's real relay, a relay that does not allow the test pages' origin, and the sandbox listen. */
export interface E2eStack {
  relay: string;
  foreignRelay: string;
  sandbox: string;
}

/**
 * Lets pending promise callbacks and timers of zero delay run: only to show that something does NOT happen. To see
 * that something does, wait for it (`waitUntil`, an event): Firefox settles `Response.json()` after this tick.
 */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Texts that are the same in Russian and in English: brand-like words. Kept short on purpose. */
const SAME_IN_RUSSIAN = new Set(['E-mail']);

/** Latin a Russian text may hold: those words, and technical names a Russian reader knows in Latin. */
const LATIN_IN_RUSSIAN = /E-mail|\bID\b|\bJSON\b|http\(s\)/g;

/**
 * The share of Cyrillic among the letters a person reads in a text: `{placeholders}`, example addresses
 * (`name@example.com`) and the allowed Latin words aside. 0 when nothing is left.
 */
export function cyrillicShare(text: string): number {
  const read = text
    .replace(/\{[^}]*\}/g, '')
    .replace(/\S+@\S+/g, '')
    .replace(LATIN_IN_RUSSIAN, '');
  const letters = read.match(/\p{L}/gu) ?? [];
  return letters.length ? letters.filter((c) => /[а-яё]/i.test(c)).length / letters.length : 0;
}

/** What is wrong with Russian texts beside their English counterparts: the same text, or too little Cyrillic. */
export function untranslated(pairs: [where: string, ru: string, en: string][]): string[] {
  return pairs.flatMap(([where, ru, en]) => {
    if (SAME_IN_RUSSIAN.has(ru)) return [];
    if (ru === en) return [`${where}: "${ru}" is the English text`];
    const share = cyrillicShare(ru);
    return share < 0.8 ? [`${where}: "${ru}" is ${Math.round(share * 100)} % Cyrillic`] : [];
  });
}

/** Stubs `<billing-pay>`'s navigation to the payment page: the test page is never left. Restore it in `afterEach`. */
export function stubNavigate(): sinon.SinonStub {
  return sinon.stub(BillingPay.prototype as unknown as { navigate(url: string): void }, 'navigate');
}

/**
 * A return address without the attempt's marker (`billing-pay-return=<id>`, payment-return.ts), which it must carry:
 * the tests compare the address the page gave.
 */
export function withoutReturnMarker(address: string): string {
  const url = new URL(address);
  expect(url.searchParams.get('billing-pay-return'), `${address}: the attempt's marker`).to.match(/^[0-9a-f-]{36}$/);
  url.searchParams.delete('billing-pay-return');
  return url.href;
}

/** A sent body with the return addresses' markers checked and taken out (`withoutReturnMarker`). */
export function unmarked<T extends { eps_params?: { name: string; value?: unknown }[] }>(body: T): T {
  return {
    ...body,
    eps_params: body.eps_params?.map((p) =>
      (p.name === 'confirmation_return_url' || p.name === 'return_url') && typeof p.value === 'string'
        ? { ...p, value: withoutReturnMarker(p.value) }
        : p,
    ),
  };
}
