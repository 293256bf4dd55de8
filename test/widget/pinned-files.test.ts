/**
 * The files a built bundle loads after itself (a language's texts) are pinned by the hash built into it: from the
 * relay they are taken; altered on their way (a server that changes one byte) they are refused, and the payer sees an
 * error where the form would be — never a form half in one language, half in none.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import { click, e2e, pay, status, type } from './helpers.js';

async function openEmbed(query: Record<string, string>) {
  const frame = document.createElement('iframe');
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/__e2e/page/embed?${new URLSearchParams(query)}`;
  document.body.append(frame);
  await loaded;
  const widget = () => frame.contentDocument!.querySelector('billing-pay') as BillingPay;
  await waitUntil(
    () => ['ready', 'failed'].includes(widget().getAttribute('state') ?? ''),
    'the widget did not settle',
    {
      timeout: 8_000,
    },
  );
  return { frame, widget: widget(), root: widget().shadowRoot! };
}

/**
 * The embed (`query`: its page's options) in a frame, with `act` run in the widget's ready event itself, before the bundle
 * asks for its late modules (the page's hook hands the event over, however early it comes). Should a press go through,
 * the frame stays here for the test.
 */
async function embedAtReady(
  query: Record<string, string>,
  act: (widget: BillingPay) => void,
): Promise<{ widget: BillingPay; frame: HTMLIFrameElement }> {
  const frame = document.createElement('iframe');
  frame.src = `/__e2e/page/embed?${new URLSearchParams({ ...query, hook: '1' })}`;
  const page = window as Window & { onFrameReady?: (e: Event) => void };
  const done = new Promise<BillingPay>((resolve, reject) => {
    page.onFrameReady = (e) => {
      const widget = e.target as BillingPay;
      widget.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
      try {
        act(widget);
        resolve(widget);
      } catch (error) {
        reject(error as Error);
      }
    };
  });
  document.body.append(frame);
  try {
    return { widget: await done, frame };
  } finally {
    delete page.onFrameReady;
  }
}

afterEach(() => document.querySelectorAll('iframe').forEach((frame) => frame.remove()));

describe('the files a bundle loads later are pinned', () => {
  it('a page in Russian gets its texts from the relay, checked, before the form shows', async function () {
    this.timeout(15_000);
    const { widget, root } = await openEmbed({ lang: 'ru' });
    expect(widget.getAttribute('state')).to.equal('ready');
    expect(root.querySelector('button[type="submit"]')?.textContent).to.match(/Оплатить/);
  });

  it('an altered text file is refused: the payer sees an error, not the form', async function () {
    this.timeout(15_000);
    const { widget, root } = await openEmbed({ lang: 'ru', files: 'tampered' });
    expect(widget.getAttribute('state')).to.equal('failed');
    expect(root.querySelector('button[type="submit"]'), 'no form').to.equal(null);
    expect(root.querySelector('[role="alert"], [role="status"]')?.textContent?.trim()).to.not.equal('');
  });

  it('an English page loads no text file, and works through the same server', async function () {
    this.timeout(15_000);
    const { widget, frame } = await openEmbed({ lang: 'en', files: 'tampered' });
    expect(widget.getAttribute('state')).to.equal('ready');
    const names = frame.contentWindow!.performance.getEntriesByType('resource').map((e) => e.name);
    expect(names.filter((name) => name.endsWith('.json'))).to.deep.equal([]);
  });

  it('an altered payment path is refused when Pay is pressed: the payer is told, and nothing is sent', async function () {
    this.timeout(20_000);
    const billed = async () => (await e2e<unknown[]>('payments')).length;
    const before = await billed();
    const { widget } = await openEmbed({ lang: 'en', files: 'tampered' });
    // Should the altered file run, the frame stays here for the test to see it.
    widget.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
    await click(widget, 'System A');
    await type(widget, 'Amount', '10');
    await type(widget, 'Agreement number', 'AG-1001');
    await pay(widget);
    const refused = 'Part of the payment form could not be loaded, so nothing was sent. Reload the page and try again.';
    await waitUntil(() => status(widget) === refused, `the payer was not told; status: ${status(widget)}`, {
      timeout: 8_000,
    });
    expect(await billed(), 'nothing reached the billing').to.equal(before);
  });

  it('back by a marked address, an altered return module is refused: the payer is told, the form stays', async function () {
    this.timeout(20_000);
    const { widget } = await openEmbed({ lang: 'en', files: 'tampered', 'billing-pay-return': crypto.randomUUID() });
    const refused = 'Part of the payment form could not be loaded, so nothing was sent. Reload the page and try again.';
    await waitUntil(() => status(widget) === refused, `the payer was not told; status: ${status(widget)}`, {
      timeout: 8_000,
    });
    expect(widget.shadowRoot!.querySelector('[part="result"]'), 'no result screen').to.equal(null);
    expect(widget.shadowRoot!.querySelector('button[type="submit"]'), 'the form').to.not.equal(null);
  });

  it('Pay pressed the moment the form is ready pays: it waits for the payment path, checked', async function () {
    this.timeout(20_000);
    let state = '';
    // The press's failure, if any, reaches the test as its own error, not as its time running out.
    const redirect = new Promise<CustomEvent>((resolve, reject) => {
      embedAtReady({ preset: '1' }, (widget) => {
        widget.addEventListener('billing-pay-redirect', (e) => resolve(e as CustomEvent), { once: true });
        widget.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
        state = widget.state;
      }).catch(reject);
    });
    expect((await redirect).detail.url).to.match(/\/pay\//);
    expect(state, 'pressed in the ready event').to.equal('ready');
  });

  it('a field left and Save checked the moment the form is ready: checked and disclosed once the submit chain is here', async function () {
    this.timeout(20_000);
    const { widget } = await embedAtReady({}, (w) => {
      const amount = w.shadowRoot!.querySelector<HTMLInputElement>('#f-amount')!;
      amount.value = '15.555';
      for (const type of ['input', 'change']) amount.dispatchEvent(new Event(type, { bubbles: true }));
      w.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
    });
    const amount = () => widget.shadowRoot!.querySelector('#f-amount')!;
    await waitUntil(() => amount().getAttribute('aria-invalid') === 'true', 'the field was never checked', {
      timeout: 8_000,
    });
    expect(widget.shadowRoot!.querySelector('#f-amount-error')?.textContent).to.equal(
      'An amount has at most two decimals.',
    );
    // The autopayment disclosure comes with the submit chain, and describes both boxes.
    await waitUntil(() => widget.shadowRoot!.querySelector('#f-autopay-hint'), 'no disclosure', { timeout: 8_000 });
    expect(widget.shadowRoot!.querySelector('#f-autopay-hint')!.textContent).to.match(/Autopayments will charge/);
    expect(widget.shadowRoot!.querySelector('#f-save')!.getAttribute('aria-describedby')).to.include('f-autopay-hint');
  });

  for (const lang of ['en', 'ru'])
    it(`the Amount label's currency symbol (made at build time) is the one Pay writes with the browser's Intl (${lang})`, async function () {
      this.timeout(20_000);
      const { root } = await openEmbed({ preset: '1', lang });
      const label = [...root.querySelectorAll('label')]
        .map((l) => l.textContent!.trim())
        .find((t) => /,\s*\S+$/.test(t));
      const symbol = /,\s*(\S+)$/.exec(label ?? '')?.[1];
      const payText = root.querySelector('button[type="submit"]')!.textContent!.trim();
      expect(symbol, `the label ${label}`).to.equal('₽');
      expect(payText).to.contain(symbol);
    });

  it('the payment path from the relay is taken: Pay pays', async function () {
    this.timeout(20_000);
    const { widget } = await openEmbed({ lang: 'en' });
    const redirect = new Promise<CustomEvent>((resolve) =>
      widget.addEventListener('billing-pay-redirect', (e) => resolve(e as CustomEvent), { once: true }),
    );
    // The payment page is not opened: the test's frame stays where it is.
    widget.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
    await click(widget, 'System A');
    await type(widget, 'Amount', '10');
    await type(widget, 'Agreement number', 'AG-1001');
    await pay(widget);
    expect((await redirect).detail.url).to.match(/\/pay\//);
  });

  it('the late modules get what the bundle lends them: the attempt named in both return addresses, remembered and said', async function () {
    this.timeout(20_000);
    const { widget, frame } = await openEmbed({ lang: 'en' });
    const sent = new Promise<CustomEvent>((resolve) =>
      widget.addEventListener('billing-pay-submit', (e) => resolve(e as CustomEvent), { once: true }),
    );
    // The payment page is not opened, but the attempt is remembered as before leaving for it.
    const left = new Promise<string>((resolve) => {
      (widget as unknown as { navigate(url: string): void }).navigate = resolve;
    });
    // The frame shares this page's origin and tab: what it remembers is taken away for the tests after this one.
    const { sessionStorage: tab, localStorage: origin } = frame.contentWindow!;
    try {
      await click(widget, 'System B');
      await type(widget, 'Amount', '10');
      await type(widget, 'Agreement number', 'AG-1001');
      await pay(widget);
      const params = Object.fromEntries(
        ((await sent).detail as { eps_params: { name: string; value: string }[] }).eps_params.map((p) => [
          p.name,
          p.value,
        ]),
      );
      const back = new URL(params.confirmation_return_url!);
      const failed = new URL(params.return_url_fail!);
      const id = back.searchParams.get('billing-pay-return');
      expect(id ?? '', `no attempt in ${back.href}`).to.match(/^[0-9a-f-]{36}$/);
      expect(failed.searchParams.get('billing-pay-failed'), String(failed)).to.equal(id);
      expect([...back.searchParams.keys(), ...failed.searchParams.keys()]).to.not.include('undefined');
      expect(await left).to.match(/\/pay\//);
      expect(tab.getItem('billing-pay-return'), 'the tab holds its attempt').to.not.equal(null);
      const kept = JSON.parse(origin.getItem('billing-pay-returns') ?? '[]') as { id: string }[];
      expect(kept.map((a) => a.id)).to.include(id);
      // Back by the marked address in a new page: the return module's templates (prepared at build time) draw it.
      const { widget: again } = await openEmbed({ lang: 'en', 'billing-pay-return': id! });
      const result = () => again.shadowRoot!.querySelector('[part="result"]');
      await waitUntil(result, 'no result screen', { timeout: 8_000 });
      expect(again.shadowRoot!.querySelector('[part="return"]')!.textContent).to.contain('Payment sent to System B');
      expect(result()!.textContent).to.contain('10.00').and.to.contain('AG-1001');
    } finally {
      tab.removeItem('billing-pay-return');
      origin.removeItem('billing-pay-returns');
    }
  });
});

describe('Pay pressed before the submit chain is here (held back 1.5 s by the server)', () => {
  const billed = async () => (await e2e<unknown[]>('payments')).length;

  const press = (widget: BillingPay) =>
    widget.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();

  it('with Save ticked, the first press shows the disclosure and sends nothing; the next one pays', async function () {
    this.timeout(20_000);
    const before = await billed();
    const { widget } = await embedAtReady({ preset: '1', files: 'slow' }, (w) => {
      w.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
      press(w);
    });
    const root = widget.shadowRoot!;
    await waitUntil(() => root.querySelector('#f-autopay-hint'), 'the disclosure never came', { timeout: 8_000 });
    await waitUntil(() => !root.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled, 'Pay stayed busy');
    expect(root.activeElement?.id, 'the focus on Save, which the disclosure describes').to.equal('f-save');
    expect(await billed(), 'nothing sent before the disclosure was shown').to.equal(before);

    const redirect = new Promise<CustomEvent>((resolve) =>
      widget.addEventListener('billing-pay-redirect', (e) => resolve(e as CustomEvent), { once: true }),
    );
    press(widget);
    expect((await redirect).detail.url).to.match(/\/pay\//);
  });

  it('an element taken out of the page while its press waits sends nothing', async function () {
    this.timeout(20_000);
    const before = await billed();
    const { widget } = await embedAtReady({ preset: '1', files: 'slow' }, (w) => {
      press(w);
      w.remove();
    });
    let sent = false;
    widget.addEventListener('billing-pay-submit', () => (sent = true));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(sent, 'no billing-pay-submit').to.be.false;
    expect(await billed(), 'nothing reached the billing').to.equal(before);
  });
});

describe('the return module held back 1.5 s by the server', () => {
  // The tab's attempt is looked into in idle time after ready: the form waits only for one that returns to its page.
  for (const [whose, path, waits] of [
    ['another page', '/elsewhere', false],
    ['this page', '/__e2e/page/embed', true],
  ] as const)
    it(`a tab holding an attempt for ${whose}: the ready form ${waits ? 'waits' : 'stays usable'} while the tab is looked into`, async function () {
      this.timeout(20_000);
      const held = JSON.stringify({ back: new URL(path, location.href).href });
      sessionStorage.setItem('billing-pay-return', held);
      try {
        const changes: string[] = [];
        const { widget } = await embedAtReady({ preset: '1', files: 'slow-return' }, (w) => {
          const root = w.shadowRoot!;
          changes.push(...[...root.querySelectorAll('.skeleton, [inert], button[disabled]')].map((e) => e.outerHTML));
          new MutationObserver((records) => {
            for (const { target, attributeName } of records) {
              const element = target as Element;
              const value = element.getAttribute(attributeName!);
              if (value !== null && (attributeName !== 'class' || /\bskeleton\b/.test(value)))
                changes.push(`${element.tagName.toLowerCase()} ${attributeName}="${value}"`);
            }
          }).observe(root, { subtree: true, attributeFilter: ['class', 'disabled', 'inert'] });
        });
        // The return module, once here, drops the attempt it cannot believe: the look is over.
        await waitUntil(() => sessionStorage.getItem('billing-pay-return') !== held, 'the tab was never looked into', {
          timeout: 8_000,
        });
        await widget.updateComplete;
        if (waits) expect(changes, 'the form waited for the look').to.include('button disabled=""');
        else expect(changes, 'the form never waited for the look').to.deep.equal([]);
        const redirect = new Promise<CustomEvent>((resolve) =>
          widget.addEventListener('billing-pay-redirect', (e) => resolve(e as CustomEvent), { once: true }),
        );
        widget.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
        expect((await redirect).detail.url).to.match(/\/pay\//);
      } finally {
        sessionStorage.removeItem('billing-pay-return');
        localStorage.removeItem('billing-pay-returns');
      }
    });
});
