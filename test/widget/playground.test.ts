/**
 * The playground (demo/playground.html, served as `npm start` serves it, with the runner's real relay and sandbox): its
 * form is made from the element's manifest, it shows what the merchant types as text only, it copies its snippet, and
 * the snippet it shows — pasted into a blank page, served with nothing else, under the policy the snippet gives, to a
 * relay started with the `.env` line it gives — is a ready widget that pays.
 */
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  attributeHtml,
  contentSecurityPolicy,
  elementHtml,
  embedSnippet,
  RESERVED_HEIGHT,
  reservationCss,
} from '../../demo/playground-snippet.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import { e2e, field, payButton, type, type E2eStack } from './helpers.js';

const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Opens a page in a frame of this page; `ready` says when it is usable. */
async function frameAt(src: string, ready: (doc: Document) => unknown, timeout = 10_000): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.src = src;
  frame.style.width = '1000px';
  frame.style.height = '900px';
  document.body.append(frame);
  // (Until the page comes, the frame holds an empty document that is already complete.)
  const loaded = () => frame.contentDocument?.URL.endsWith(src) && ready(frame.contentDocument);
  await waitUntil(loaded, `${src} was not ready`, { timeout });
  return frame;
}

/** The playground, once it shows a snippet. */
const openPlayground = () => frameAt('/demo/playground.html', (doc) => snippetOf(doc));

const snippetOf = (doc: Document) => doc.getElementById('snippet-html')?.textContent ?? '';
const envOf = (doc: Document) => doc.getElementById('snippet-env')?.textContent ?? '';

/** The playground's control labelled `name` (an attribute's name, or "Your relay's address"…). */
function option<T extends HTMLElement = HTMLInputElement>(doc: Document, name: string): T {
  const label = [...doc.querySelectorAll('#options label')].find((l) => norm(l.textContent) === name);
  const found = label && doc.getElementById((label as HTMLLabelElement).htmlFor);
  if (!found) throw new Error(`The playground has no control labelled "${name}"`);
  return found as T;
}

/** Sets a control as a person would: ticks a box, picks an option, types a text. */
function choose(doc: Document, name: string, value: string | boolean): void {
  const control = option<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(doc, name);
  if (control instanceof (doc.defaultView as typeof window).HTMLInputElement && control.type === 'checkbox') {
    if (control.checked !== value) control.click();
    return;
  }
  control.focus();
  control.value = String(value);
  control.dispatchEvent(new Event(control.localName === 'select' ? 'change' : 'input', { bubbles: true }));
}

/** The `<script>` and the element of a snippet, as a parser reads them. */
function parse(html: string) {
  const doc = new DOMParser().parseFromString(`<!doctype html>${html}`, 'text/html');
  return { doc, script: doc.querySelector('script')!, widget: doc.querySelector('billing-pay')! };
}

/** A page of nothing but `html` (after a doctype and a charset), served by the runner with no policy of its own. */
async function blankPageWith(html: string): Promise<string> {
  return (await executeServerCommand('e2e-page', {
    html: `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Shop</title>\n${html}</html>\n`,
  })) as string;
}

/**
 * What axe-core finds in a frame's page, run in that page (its policy allows this origin's scripts): `id: targets`.
 * Colour contrast aside: the playground's colours are the demo's (demo.css), checked there.
 */
async function axeViolations(frame: HTMLIFrameElement): Promise<string[]> {
  const doc = frame.contentDocument!;
  const win = frame.contentWindow as unknown as {
    axe?: { run(context: Element, options: object): Promise<AxeResult> };
  };
  if (!win.axe) {
    const script = doc.createElement('script');
    script.src = '/node_modules/axe-core/axe.min.js';
    doc.head.append(script);
    await oneEvent(script, 'load');
  }
  const { violations } = await win.axe!.run(doc.body, { rules: { 'color-contrast': { enabled: false } } });
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
interface AxeResult {
  violations: { id: string; nodes: { target: string[] }[] }[];
}

const widgetIn = (doc: Document) => doc.querySelector<BillingPay>('billing-pay');

describe('playground', () => {
  describe('snippet', () => {
    it('writes any attribute value so the parser reads back exactly what was typed, and it closes nothing', () => {
      const values = [
        `Карта "Мир" & <b>bold</b>`,
        `it's "quoted"`,
        `'single'`,
        '&amp; stays &amp;',
        '"></billing-pay><script>alert(1)</script>',
        `{"ru": {"labels": {"pay": "Оплатить 'счёт'"}}}`,
        'line\nbreak',
      ];
      const html = elementHtml(
        'billing-pay',
        values.map((v, i) => [`data-v${i}`, v]),
      );
      const { doc, widget } = parse(html);
      expect(values.map((_, i) => widget.getAttribute(`data-v${i}`))).to.deep.equal(values);
      expect(doc.querySelectorAll('script, b').length, 'no markup got out of a value').to.equal(0);
      expect(attributeHtml('texts', '{"a": 1}')).to.equal(`texts='{"a": 1}'`);
      expect(attributeHtml('amount-fixed', true)).to.equal('amount-fixed');
    });

    it('the policy names the relay’s origin for the script and the requests, and allows nothing unsafe', () => {
      const csp = contentSecurityPolicy('https://pay.shop.example/relay/', 'https://shop.example');
      expect(csp).to.include("script-src 'self' https://pay.shop.example;");
      expect(csp).to.include("connect-src 'self' https://pay.shop.example;");
      expect(csp).to.include("style-src 'self';");
      expect(csp).to.not.match(/unsafe|\*|data:/);
      expect(contentSecurityPolicy('https://shop.example/relay', 'https://shop.example')).to.include(
        "script-src 'self'; connect-src 'self';",
      );
    });

    it('the snippet tells the merchant to send frame-ancestors as a header, which a <meta> cannot carry', () => {
      const { html } = embedSnippet({
        relay: 'https://pay.shop.example/relay',
        pageOrigin: 'https://shop.example',
        bundle: { file: 'billing-pay.0123456789.js', integrity: 'sha384-x' },
        attributes: [],
      });
      expect(html).to.contain("HTTP header Content-Security-Policy: frame-ancestors 'self'");
      expect(parse(html).doc.querySelector('meta')!.getAttribute('content')).to.not.contain('frame-ancestors');
    });

    it('a relay with a path: the script, the preload and the element all name it as the widget reads it', () => {
      const { html, env } = embedSnippet({
        relay: 'https://pay.shop.example/relay',
        pageOrigin: 'https://shop.example',
        bundle: { file: 'billing-pay.0123456789.js', integrity: 'sha384-x' },
        attributes: [['lookup', '5 7']],
      });
      const { doc, script, widget } = parse(html);
      expect(script.getAttribute('src')).to.equal('https://pay.shop.example/relay/billing-pay.0123456789.js');
      expect(doc.querySelector('link[rel="preload"]')!.getAttribute('href')).to.equal(
        'https://pay.shop.example/relay/config',
      );
      expect(doc.querySelector('link[rel="preconnect"]')!.getAttribute('href')).to.equal('https://pay.shop.example');
      expect(widget.getAttributeNames()).to.deep.equal(['relay', 'lookup']);
      expect(env).to.equal('ALLOWED_ORIGINS=https://shop.example\n');
    });

    it('the stylesheet rule that keeps the form’s place, for <billing-pay> alone', () => {
      const snippet = (tag: string) =>
        embedSnippet({
          relay: 'https://pay.shop.example/relay',
          pageOrigin: 'https://shop.example',
          bundle: { file: `${tag}.0123456789.js`, integrity: 'sha384-x' },
          tag,
          attributes: [],
        }).css;
      expect(snippet('billing-pay')).to.equal(`${reservationCss()}\n`);
      expect(snippet('billing-pay')).to.contain(`min-block-size: ${RESERVED_HEIGHT}`);
      expect(snippet('billing-payment-methods')).to.equal('');
    });
  });

  describe('the page', () => {
    let stack: E2eStack;
    let frame: HTMLIFrameElement | undefined;
    let page: HTMLIFrameElement | undefined;

    before(async () => {
      stack = await e2e<E2eStack>('stack');
    });

    afterEach(() => {
      frame?.remove();
      page?.remove();
      frame = page = undefined;
    });

    it('offers every attribute of the element’s manifest but state, relay and session, each labelled and described', async () => {
      frame = await openPlayground();
      const doc = frame.contentDocument!;
      const manifest = (await (await fetch('/demo/playground-options.json')).json()) as {
        attributes: { name: string }[];
      };
      const offered = manifest.attributes.map((a) => a.name).filter((n) => !['state', 'relay', 'session'].includes(n));
      expect(offered.length).to.be.greaterThan(15);
      const labelled = [...doc.querySelectorAll('#options label code, #options legend code')].map((c) => c.textContent);
      expect([...labelled].sort()).to.deep.equal([...offered].sort());
      for (const name of offered.filter((n) => !['systems', 'lookup'].includes(n))) {
        const described = option(doc, name).getAttribute('aria-describedby')!.split(' ');
        expect(norm(doc.getElementById(described[0]!)!.textContent), name).to.not.equal('');
      }
      expect(await axeViolations(frame)).to.deep.equal([]);
    });

    it('what the merchant types reaches the widget and the snippet as text, never as markup', async () => {
      frame = await openPlayground();
      const doc = frame.contentDocument!;
      const label = '<img src=x id=injected onerror="window.injected=1"> & "Мир"';
      choose(doc, 'label-a', label);
      choose(doc, 'lang', 'en');
      await waitUntil(() => widgetIn(doc)?.getAttribute('label-a') === label && widgetIn(doc)!.state === 'ready');
      await widgetIn(doc)!.updateComplete;
      expect(field(widgetIn(doc)!, label).type).to.equal('radio');
      const { widget } = parse(snippetOf(doc));
      expect(widget.getAttribute('label-a')).to.equal(label);
      expect(doc.querySelectorAll('img').length, 'no element made from the text').to.equal(0);
      expect(widgetIn(doc)!.shadowRoot!.querySelectorAll('img').length).to.equal(0);
      expect((frame.contentWindow as unknown as { injected?: number }).injected).to.equal(undefined);
    });

    it('Copy puts the snippet on the clipboard, or, with no clipboard, selects it', async () => {
      frame = await openPlayground();
      const doc = frame.contentDocument!;
      const win = frame.contentWindow!;
      let copied = '';
      Object.defineProperty(win.navigator, 'clipboard', {
        configurable: true,
        value: { writeText: async (text: string) => void (copied = text) },
      });
      const button = [...doc.querySelectorAll('button')].find((b) => b.textContent === 'Copy HTML')!;
      button.click();
      const said = () => doc.querySelector('[data-copied="snippet-html"]')!.textContent;
      await waitUntil(said, 'the button said nothing');
      expect(said()).to.equal('Copied.');
      expect(copied).to.equal(snippetOf(doc));

      Object.defineProperty(win.navigator, 'clipboard', { configurable: true, value: undefined });
      button.click();
      await waitUntil(() => said() !== 'Copied.', 'the button said nothing new');
      expect(said()).to.match(/^Selected: press Ctrl\+C/);
      // (Chromium's selection text leaves out the last line break, Firefox's keeps it.)
      expect(win.getSelection()!.toString().trimEnd()).to.equal(snippetOf(doc).trimEnd());
    });

    it('the snippet, pasted into a blank page, to a relay with the .env line it gives: a ready widget in Russian that pays', async () => {
      frame = await openPlayground();
      const doc = frame.contentDocument!;
      choose(doc, 'System C', false);
      choose(doc, '7: E-mail', true);
      choose(doc, 'lang', 'ru');
      choose(doc, 'theme', 'dark');
      choose(doc, 'amount', '150.50');
      choose(doc, 'label-a', 'Карта «Мир» & <b>');
      choose(doc, 'allow-link-only', true);
      choose(doc, 'texts', '{"ru": {"labels": {"pay": "Оплатить счёт"}}}');
      expect(option(doc, "Your page's origin").value).to.equal(location.origin);

      // The merchant's relay, configured by the line the playground gives; the snippet is for it.
      const env = envOf(doc);
      expect(env).to.equal(`ALLOWED_ORIGINS=${location.origin}\n`);
      expect(doc.getElementById('snippet-css')!.textContent, 'the stylesheet rule').to.equal(`${reservationCss()}\n`);
      expect(doc.getElementById('css-part')!.hidden).to.be.false;
      const merchant = await e2e<{ url: string }>('merchant-relay', { env });
      choose(doc, "Your relay's address", merchant.url);
      const snippet = snippetOf(doc);

      // The script is this build's (dist/bundles.json), served by that relay.
      const built = (await (await fetch('/dist/bundles.json')).json())['billing-pay.js'];
      const { script, widget: written } = parse(snippet);
      expect(script.getAttribute('src')).to.equal(`${merchant.url}/${built.file}`);
      expect(script.getAttribute('integrity')).to.equal(built.integrity);
      expect(script.getAttribute('crossorigin')).to.equal('anonymous');
      expect(written.getAttributeNames()).to.deep.equal([
        'relay',
        'systems',
        'label-a',
        'allow-link-only',
        'lookup',
        'amount',
        'lang',
        'texts',
        'theme',
      ]);

      page = await frameAt(await blankPageWith(snippet), (d) => widgetIn(d)?.state === 'ready');
      const el = widgetIn(page.contentDocument!)!;
      await el.updateComplete;
      expect(field(el, 'Карта «Мир» & <b>').type).to.equal('radio');
      expect(field(el, 'Система B').type).to.equal('radio');
      expect(el.shadowRoot!.textContent).to.not.include('Система C');
      expect(field(el, 'Сумма').value).to.equal('150,50');
      expect(norm(payButton(el).textContent)).to.equal('Оплатить счёт 150,50');
      // Its styles apply under the page's policy (the dark theme's accent on the button).
      expect(page.contentWindow!.getComputedStyle(payButton(el)).backgroundColor).to.equal('rgb(141, 180, 255)');

      await type(el, 'Номер договора', 'AG-1001');
      el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
      const redirect = oneEvent(el, 'billing-pay-redirect');
      payButton(el).click();
      const { detail } = await redirect;
      expect(detail.url.startsWith(`${stack.sandbox}/pay/`), detail.url).to.equal(true);
      const reached = (await e2e<Record<string, unknown>[]>('payments')).at(-1)!;
      expect(reached).to.include({
        eps_uuid: 'sandbox-eps-a',
        amount: 150.5,
        agreement_param_id: 5,
        agreement_param_value: 'AG-1001',
      });
      // The preload of /config was the request the widget used: the page fetched it once.
      const configs = page
        .contentWindow!.performance.getEntriesByType('resource')
        .filter((e) => e.name === `${merchant.url}/config`);
      expect(configs.length).to.equal(1);
    });

    it('a snippet whose integrity is not the bundle’s gives no widget: the browser refuses the script', async () => {
      frame = await openPlayground();
      const snippet = snippetOf(frame.contentDocument!);
      const integrity = /integrity="sha384-([^"]+)"/.exec(snippet)![1]!;
      const other = `${integrity.startsWith('A') ? 'B' : 'A'}${integrity.slice(1)}`;
      page = await frameAt(await blankPageWith(snippet.replace(integrity, other)), (d) => d.readyState === 'complete');
      const win = page.contentWindow!;
      // (Plain values in assertions: the runner hangs serializing a failed one about an element or its class.)
      expect(win.customElements.get('billing-pay') === undefined, '<billing-pay> is defined').to.equal(true);
      expect(widgetIn(page.contentDocument!)!.shadowRoot === null, 'the element has a shadow root').to.equal(true);
    });
  });
});
