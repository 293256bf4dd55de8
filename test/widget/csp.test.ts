/**
 * The widget under a strict Content-Security-Policy (issue 5). Every test page is served with one (see
 * `strictCsp` in web-test-runner.config.js): these tests prove it is in force, then run the built bundle a page
 * loads, `dist/billing-pay.js`, through a payment with no violation, no inline style and no `eval`.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import { mount, payButton, status, stubRelay, type RelayStub } from './helpers.js';

const RELAY = 'http://relay.test';
const BUNDLE = '/dist/billing-pay.js';
/** The page's own `fetch`, before a test stubs it to play the relay. */
const pageFetch = window.fetch.bind(window);

describe('under a strict Content-Security-Policy', () => {
  const violations: SecurityPolicyViolationEvent[] = [];
  const record = (e: SecurityPolicyViolationEvent) => violations.push(e);
  let relay: RelayStub;

  before(async () => {
    document.addEventListener('securitypolicyviolation', record);
    // The shipped bundle, not the sources: what a merchant's page runs.
    await import(/* @vite-ignore */ BUNDLE as string);
  });

  after(() => document.removeEventListener('securitypolicyviolation', record));

  beforeEach(() => {
    relay = stubRelay();
    violations.length = 0;
  });

  afterEach(() => relay.restore());

  it('the policy is in force: no eval, no inline script, no inline style attribute', async () => {
    expect(() => new Function('return 1'), 'eval').to.throw(EvalError);
    const probe = document.createElement('div');
    probe.innerHTML = '<p style="color: rgb(255, 0, 0)">inline</p><img src="x:" onerror="window.__inline = 1">';
    document.body.append(probe);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getComputedStyle(probe.firstElementChild!).color).to.not.equal('rgb(255, 0, 0)');
      expect((window as { __inline?: number }).__inline).to.equal(undefined);
      expect(violations.map((v) => v.effectiveDirective)).to.include.members(['style-src-attr', 'script-src-attr']);
    } finally {
      probe.remove();
    }
  });

  it('the built bundle holds no eval, no Function constructor and no inline style', async () => {
    const code = await (await pageFetch(BUNDLE)).text();
    expect(code.length).to.be.greaterThan(10_000);
    expect(code).to.not.match(/\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(\s*["'`]/);
    expect(code).to.not.match(/\sstyle=/);
  });

  for (const theme of ['light', 'dark']) {
    it(`the built bundle renders, validates, pays and fails without a single violation (${theme})`, async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="ru" theme=${theme} allow-link-only></billing-pay>`);
      expect(customElements.get('billing-pay')!.name).to.not.equal('', 'the bundle defined the element');
      const root = el.shadowRoot!;
      const form = root.querySelector('form')!;
      // Styled by its adopted style sheet, not by inline styles.
      expect(getComputedStyle(form).display).to.equal('grid');
      expect(getComputedStyle(root.querySelector('.panel')!).backgroundColor).to.equal(
        theme === 'dark' ? 'rgb(24, 27, 33)' : 'rgb(255, 255, 255)',
      );

      root.querySelector<HTMLInputElement>('#f-save')!.click();
      // The bundle loads its own submit chain (a pinned late module; `mount` waited for the sources' one): the
      // disclosure comes with it, and a press before it only shows the disclosure.
      await waitUntil(() => root.querySelector('#f-autopay-hint'), 'the disclosure, with the submit chain', {
        timeout: 5_000,
      });
      const email = root.querySelector<HTMLInputElement>('#f-contact')!;
      email.value = 'not-an-address';
      email.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await el.updateComplete;
      payButton(el as BillingPay).click();
      // The model's parameter rules run in the bundle's submit chain too (src/eps/params.ts, a pinned late module).
      await waitUntil(() => root.querySelector('[aria-invalid="true"]'), 'Pay found the problems');
      expect([...root.querySelectorAll('[aria-invalid="true"]')].map((c) => c.id)).to.deep.equal([
        'f-lookupValue',
        'f-amount',
        'f-contact',
      ]);
      expect(root.querySelector('#f-contact-error')!.textContent).to.equal(
        'Введите адрес эл. почты, например name@example.com.',
      );
      email.value = '';
      email.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));

      const amount = root.querySelector<HTMLInputElement>('#f-amount')!;
      amount.value = '1 500,50';
      amount.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      const agreement = root.querySelector<HTMLInputElement>('#f-lookupValue')!;
      agreement.value = 'AG-1001';
      agreement.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      await el.updateComplete;
      const redirect = oneEvent(el, 'billing-pay-redirect');
      el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
      payButton(el as BillingPay).click();
      await redirect;
      expect(relay.payments()[0]!.body).to.include({ amount: '1500.50' });

      relay.restore();
      relay = stubRelay({ payment: () => Promise.reject(new TypeError('Failed to fetch')) });
      const error = oneEvent(el, 'billing-pay-error');
      payButton(el as BillingPay).click();
      await error;
      await el.updateComplete;
      expect(status(el as BillingPay)).to.contain('Не удалось связаться');

      expect(
        root.querySelectorAll('[style], style'),
        'no style attribute or element: an adopted style sheet',
      ).to.have.length(0);
      expect(
        violations.map((v) => `${v.effectiveDirective} ${v.blockedURI} ${v.sourceFile}:${v.lineNumber}`),
      ).to.deep.equal([]);
      el.remove();
    });
  }
});
