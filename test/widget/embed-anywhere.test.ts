/**
 * The embed as the docs write it (the built bundle from the real relay, with its integrity) on pages a merchant may
 * have: one whose policy requires Trusted Types and allows Lit's `lit-html` policy alone (a control allows another
 * name only, and the widget cannot load), and one whose origin the relay's `ALLOWED_ORIGINS` does not name, where the
 * bundle still runs and the relay's refusal of `/config` reaches the widget as `origin_not_allowed`.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { skipIn } from './input.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import { click, pay, type } from './helpers.js';

/** Opens `/__e2e/page/embed` in a frame of this origin; the frame's `<billing-pay>` once it is `ready` or `failed`. */
async function openEmbed(query: Record<string, string>, waitMs = 5_000) {
  const frame = document.createElement('iframe');
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/__e2e/page/embed?${new URLSearchParams(query)}`;
  document.body.append(frame);
  await loaded;
  const violations: string[] = [];
  frame.contentDocument!.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
  const win = frame.contentWindow as Window & typeof globalThis;
  const settled = () =>
    /^(ready|failed)$/.test(frame.contentDocument?.querySelector('billing-pay')?.getAttribute('state') ?? '');
  await waitUntil(settled, 'the widget neither got ready nor failed', { timeout: waitMs }).catch(() => {});
  return { frame, win, el: frame.contentDocument!.querySelector('billing-pay')!, violations };
}

describe('the embed under Trusted Types', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it('require-trusted-types-for script, trusted-types lit-html billing-pay: the widget loads, draws its form and pays', async function () {
    this.timeout(15_000);
    if (!('trustedTypes' in window))
      await skipIn(this, ['firefox', 'webkit'], 'this engine does not implement Trusted Types');
    const opened = await openEmbed({ 'trusted-types': 'lit-html billing-pay' });
    frame = opened.frame;
    expect(opened.win.customElements.get('billing-pay'), 'the element is defined').to.not.equal(undefined);
    expect(opened.el.getAttribute('state')).to.equal('ready');
    expect(opened.el.shadowRoot!.querySelector('form'), 'the form is drawn').to.not.equal(null);
    // Pay needs the late payment module: its pinned script is inserted under the widget's own policy.
    const el = opened.el as BillingPay;
    const redirect = new Promise<CustomEvent>((resolve) =>
      el.addEventListener('billing-pay-redirect', (e) => (e.preventDefault(), resolve(e as CustomEvent)), {
        once: true,
      }),
    );
    await click(el, 'System A');
    await type(el, 'Amount', '10');
    await type(el, 'Agreement number', 'AG-1001');
    await pay(el);
    expect((await redirect).detail.url).to.match(/\/pay\//);
    expect(opened.violations).to.deep.equal([]);
  });

  it('the control: a policy that allows another name only, and the widget cannot load', async function () {
    if (!('trustedTypes' in window))
      await skipIn(this, ['firefox', 'webkit'], 'this engine does not implement Trusted Types');
    const opened = await openEmbed({ 'trusted-types': 'some-other-policy' }, 1_000);
    frame = opened.frame;
    expect(opened.win.customElements.get('billing-pay')).to.equal(undefined);
  });
});

describe('the embed on a page whose origin the relay does not allow', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it('the bundle runs (the element is defined), and the widget reads /config’s refusal as origin_not_allowed', async function () {
    this.timeout(10_000);
    const opened = await openEmbed({ relay: 'foreign' });
    frame = opened.frame;
    expect(opened.win.customElements.get('billing-pay'), 'the element is defined').to.not.equal(undefined);
    expect(opened.el.getAttribute('state')).to.equal('failed');
    // The relay's 403 as the page's script sees it: readable (CORS for this answer), with its code.
    const res = await opened.win.fetch(`${opened.el.getAttribute('relay')}/config`);
    expect(res.status).to.equal(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('origin_not_allowed');
  });
});
