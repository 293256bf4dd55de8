/**
 * `<billing-pay>` for every client (issue 5): a payment completed with the keyboard alone, visible focus, colour
 * contrast computed from the rendered colours in the light and the dark theme (and checked by axe as well), 200 %
 * text and a 320 px wide container, and axe in every state.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import { axeContrast, backgroundOf, contrast, expectContrast, loadAxe, luminance, parseColor } from './contrast.js';
import { colorScheme, press, resetColorScheme, typeKeys } from './input.js';
import {
  field,
  json,
  mount,
  pay,
  payButton,
  paramsOf,
  status,
  stubRelay,
  type,
  type RelayStub,
  stubNavigate,
} from './helpers.js';

const RELAY = 'http://relay.test';
const BACK = 'https://shop.example/back';

/** What has the keyboard focus, by its label (or its own text for a button). */
function focused(el: BillingPay): string {
  const active = el.shadowRoot!.activeElement as HTMLElement | null;
  if (!active)
    return document.activeElement === el ? '(host)' : `(outside: ${document.activeElement?.tagName ?? 'none'})`;
  if (active.tagName === 'BUTTON') return `button ${active.textContent!.trim()}`;
  const label = el.shadowRoot!.querySelector(`label[for="${active.id}"]`);
  const copy = label?.cloneNode(true) as HTMLElement | undefined;
  copy?.querySelector('.optional')?.remove();
  return copy?.textContent!.replace(/\s+/g, ' ').trim() ?? `(${active.tagName} ${active.id})`;
}

describe('<billing-pay> accessibility', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;

  // chai-a11y-axe loads axe on first use; the contrast checks call it directly.
  before(loadAxe);

  beforeEach(() => {
    relay = stubRelay();
    navigate = stubNavigate();
  });

  afterEach(async () => {
    relay.restore();
    navigate.restore();
    await resetColorScheme();
  });

  describe('keyboard only', () => {
    const widget = (lang = 'en') =>
      mount(html`<div>
        <button id="before">before</button>
        <billing-pay relay=${RELAY} lang=${lang} return-url=${BACK}></billing-pay>
      </div>`).then(() => document.querySelector('billing-pay')!);

    it('completes a payment: Tab order, arrow keys in the radio group, Space on a checkbox, Enter submits', async () => {
      const el = await widget();
      document.getElementById('before')!.focus();

      await press('Tab');
      expect(focused(el)).to.equal('System A');
      await press('ArrowDown');
      expect(focused(el)).to.equal('System B');
      expect(field(el, 'System B').checked).to.be.true;
      await press('ArrowDown');
      await press('ArrowUp');
      await el.updateComplete;
      expect(field(el, 'System B').checked, 'arrow keys choose').to.be.true;

      const order: string[] = [];
      for (let i = 0; i < 7; i++) {
        await press('Tab');
        await el.updateComplete;
        order.push(focused(el));
        if (order.at(-1) === 'Amount') await typeKeys('1 500.50');
        if (order.at(-1) === 'Agreement number') await typeKeys('AG-1001');
        if (order.at(-1) === 'Save payment method') await press(' ');
      }
      expect(order).to.deep.equal([
        'Agreement number',
        'Amount',
        'E-mail or phone for the receipt',
        'Name',
        'button Add a comment',
        'Save payment method',
        'button Pay 1,500.50',
      ]);
      expect(field(el, 'Save payment method').checked).to.be.true;

      await press('Shift+Tab'); // back to the checkbox
      await press('Shift+Tab'); // "Add a comment"
      await press('Enter');
      await waitUntil(() => focused(el) === 'Comment', `the focus is on ${focused(el)}`);
      await typeKeys('May');
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await press('Enter');
      await redirect;
      const body = relay.payments()[0]!.body as Record<string, unknown>;
      expect(body).to.include({ system: 'B', amount: '1500.50', agreement_param_value: 'AG-1001' });
      expect(paramsOf(body)).to.include({ is_autopayment: true });
    });

    it('after a failed Enter the focus is on the first invalid field; fixing it and Enter pays', async () => {
      const el = await widget('ru');
      document.getElementById('before')!.focus();
      await press('Tab'); // system A
      await press('Tab'); // agreement number, left empty
      await press('Tab'); // amount
      await typeKeys('10,555');
      await press('Enter');
      await waitUntil(() => focused(el) === 'Номер договора', `the focus stayed on ${focused(el)}`);
      expect(status(el)).to.equal('Исправьте отмеченные поля.');
      expect(relay.payments()).to.have.length(0);

      await typeKeys('AG-1001');
      await press('Tab');
      await el.updateComplete;
      expect(focused(el)).to.equal('Сумма');
      await press('End');
      await press('Backspace');
      const redirect = oneEvent(el, 'billing-pay-redirect');
      await press('Enter');
      await redirect;
      expect(relay.payments()[0]!.body).to.include({ amount: '10.55', agreement_param_value: 'AG-1001' });
    });

    it('the Pay button works with Enter and with Space', async () => {
      const el = await widget();
      await type(el, 'Amount', '5');
      await type(el, 'Agreement number', 'AG-1');
      el.addEventListener('billing-pay-redirect', (e) => e.preventDefault());
      for (const key of ['Enter', ' ']) {
        payButton(el).focus();
        const redirect = oneEvent(el, 'billing-pay-redirect');
        await press(key);
        await redirect;
        await el.updateComplete;
      }
      expect(relay.payments()).to.have.length(2);
    });

    it('shows where the focus is: a solid outline of at least 2 px, 3:1 against the form, light and dark', async () => {
      for (const theme of ['light', 'dark']) {
        const el = await widget();
        el.setAttribute('theme', theme);
        document.getElementById('before')!.focus();
        for (let i = 0; i < 3; i++) {
          await press('Tab');
          const active = el.shadowRoot!.activeElement!;
          const style = getComputedStyle(active);
          expect(active.matches(':focus-visible'), focused(el)).to.be.true;
          expect(style.outlineStyle, focused(el)).to.equal('solid');
          expect(parseFloat(style.outlineWidth)).to.be.at.least(2);
          const form = el.shadowRoot!.querySelector('form')!;
          expect(
            contrast(parseColor(style.outlineColor), backgroundOf(form)),
            `${theme} ${focused(el)}`,
          ).to.be.at.least(3);
        }
      }
    });
  });

  describe('colour contrast of every text (at least 4.5:1)', () => {
    async function inEveryState(el: BillingPay, check: () => Promise<void> | void) {
      await check(); // idle
      await pay(el); // invalid: errors beside the fields and in the live region
      await el.updateComplete;
      expect(el.shadowRoot!.querySelectorAll('.error').length).to.be.greaterThan(1);
      await check();
      await type(el, 'Amount', '10');
      await type(el, 'Agreement number', 'AG-1');
      const failed = oneEvent(el, 'billing-pay-error');
      await pay(el); // a failed request
      await failed;
      await el.updateComplete;
      expect(status(el)).to.contain('did not accept');
      await check();
    }

    const refusing = () => json({ error: { code: 'billing_rejected', message: 'No.' } }, 422);

    for (const theme of ['light', 'dark'] as const) {
      it(`theme="${theme}": computed from the rendered colours, and by axe`, async () => {
        relay.restore();
        relay = stubRelay({ payment: refusing });
        const el = await mount(
          html`<billing-pay relay=${RELAY} lang="en" theme=${theme} lookup="5 7" allow-link-only></billing-pay>`,
        );
        el.shadowRoot!.querySelector<HTMLButtonElement>('[part="add-comment"]')!.click();
        await el.updateComplete;
        await type(el, 'Comment', 'a comment');
        await inEveryState(el, async () => {
          expectContrast(el);
          const axe = await axeContrast(el);
          expect(axe.passes, `axe judged too little; left incomplete: ${axe.incomplete.join(' | ')}`).to.be.greaterThan(
            8,
          );
        });
      });
    }

    for (const scheme of ['light', 'dark'] as const) {
      it(`with no theme, follows prefers-color-scheme: ${scheme}`, async function () {
        await colorScheme(this, scheme);
        const el = await mount(html`<billing-pay relay=${RELAY} lang="ru"></billing-pay>`);
        const background = backgroundOf(el.shadowRoot!.querySelector('form')!);
        expect(luminance(background) > 0.5, `background ${background}`).to.equal(scheme === 'light');
        expectContrast(el);
        await axeContrast(el);

        // The page may force the other scheme.
        el.theme = scheme === 'light' ? 'dark' : 'light';
        await el.updateComplete;
        expect(luminance(backgroundOf(el.shadowRoot!.querySelector('form')!)) > 0.5).to.equal(scheme === 'dark');
        expectContrast(el);
      });
    }
  });

  describe('theming', () => {
    it('takes the font, custom properties and ::part rules from the page, never its inherited font', async () => {
      const box = document.createElement('div');
      box.style.fontFamily = 'monospace';
      document.body.append(box);
      // A constructed style sheet: the page's CSP allows no inline <style>.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`billing-pay.themed { --billing-pay-color-accent: rgb(10, 125, 79); --billing-pay-radius: 0px;
          --billing-pay-font-family: Georgia, serif; }
        billing-pay.themed::part(button) { text-transform: uppercase; }`);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      try {
        const ready = oneEvent(document, 'billing-pay-ready');
        const el = document.createElement('billing-pay');
        el.relay = RELAY;
        el.className = 'themed';
        box.append(el);
        await ready;
        await el.updateComplete;
        const root = el.shadowRoot!;
        for (const node of [
          root.querySelector('label')!,
          root.querySelector('#f-amount')!,
          root.querySelector('select') ?? root.querySelector('#f-lookupValue')!,
          payButton(el),
        ]) {
          expect(getComputedStyle(node).fontFamily, node.tagName).to.equal('Georgia, serif');
        }
        const button = getComputedStyle(payButton(el));
        expect(button.backgroundColor).to.equal('rgb(10, 125, 79)');
        expect(button.borderTopLeftRadius).to.equal('0px');
        expect(button.textTransform).to.equal('uppercase');
      } finally {
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
        box.remove();
      }
    });

    it('reflects theme, and sets no inline style anywhere in any state', async () => {
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en" allow-link-only></billing-pay>`);
      expect(el.getAttribute('theme')).to.equal('auto');
      el.theme = 'dark';
      await el.updateComplete;
      expect(el.getAttribute('theme')).to.equal('dark');
      field(el, 'Save payment method').click();
      await el.updateComplete;
      await pay(el);
      expect(el.shadowRoot!.querySelectorAll('[style]')).to.have.length(0);
      expect(el.hasAttribute('style')).to.be.false;
    });
  });

  describe('zoom and narrow containers', () => {
    /**
     * Nothing sticks out of the host horizontally, and no box cuts its content. Only boxes that can overflow are
     * measured for that: an inline span has no client width (Firefox gives it a scrollWidth all the same), the text of
     * an input scrolls inside it by design, and a select shows its chosen option's text clipped at its edge (WebKit
     * reports that text's full width as the select's scrollWidth); their boxes are still measured against the host.
     */
    const clips = (node: HTMLElement) =>
      !['INPUT', 'SELECT'].includes(node.tagName) && !/^(inline|contents|none)$/.test(getComputedStyle(node).display);
    function expectNoOverflow(el: BillingPay) {
      const host = el.getBoundingClientRect();
      const sticking = [...el.shadowRoot!.querySelectorAll<HTMLElement>('*')]
        .filter((node) => {
          const r = node.getBoundingClientRect();
          const cut = clips(node) && node.scrollWidth > node.clientWidth + 1;
          return r.width > 0 && (r.left < host.left - 0.5 || r.right > host.right + 0.5 || cut);
        })
        .map((node) => {
          const r = node.getBoundingClientRect();
          const at = `${Math.round(r.left - host.left)}–${Math.round(r.right - host.left)} of ${Math.round(host.width)} px`;
          return `${node.tagName} ${node.id || node.className}: ${at}, scrollWidth ${node.scrollWidth} > ${node.clientWidth}`;
        });
      expect(sticking).to.deep.equal([]);
      expect(el.scrollWidth).to.be.at.most(el.clientWidth + 1);
    }

    for (const [name, width, fontSize] of [
      ['a 320 px wide container', '320px', ''],
      ['text at 200 % in a 640 px container (a 1280 px window zoomed to 200 %)', '640px', '200%'],
      ['text at 200 % in a 320 px container', '320px', '200%'],
    ] as const) {
      for (const lang of ['en', 'ru']) {
        it(`fits ${name} (${lang})`, async () => {
          const box = document.createElement('div');
          // Set through the CSSOM: the tests run under a CSP that refuses inline style attributes.
          box.style.width = width;
          box.style.fontSize = fontSize;
          document.body.append(box);
          try {
            const ready = oneEvent(document, 'billing-pay-ready');
            const el = document.createElement('billing-pay');
            Object.assign(el, { relay: RELAY, allowLinkOnly: true, lookup: '5 7 15', currency: 'RUB' });
            el.lang = lang;
            box.append(el);
            await ready;
            await el.updateComplete;
            expect(el.getBoundingClientRect().width).to.be.at.most(parseFloat(width));
            await type(el, lang === 'ru' ? 'Сумма, ₽' : 'Amount, ₽', '123456789012.50');
            el.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
            await el.updateComplete;
            el.shadowRoot!.querySelector<HTMLInputElement>('#f-link-only')!.click();
            await pay(el);
            await el.updateComplete;
            expectNoOverflow(el);
          } finally {
            box.remove();
          }
        });
      }
    }
  });

  describe('axe in every state', () => {
    for (const lang of ['en', 'ru']) {
      for (const theme of ['light', 'dark']) {
        it(`loading, idle, invalid, in flight, failed, config failure (${lang}, ${theme})`, async () => {
          relay.restore();
          let answer: (r: Response) => void = () => {};
          relay = stubRelay({ payment: () => new Promise<Response>((resolve) => (answer = resolve)) });
          const el = await mount(
            html`<billing-pay relay=${RELAY} lang=${lang} theme=${theme} lookup="5 7 15" allow-link-only currency="RUB"></billing-pay>`,
          );
          await expect(el).to.be.accessible();

          el.shadowRoot!.querySelector<HTMLInputElement>('#f-save')!.click();
          await el.updateComplete;
          await pay(el);
          await expect(el).to.be.accessible();

          await type(el, lang === 'ru' ? 'Сумма, ₽' : 'Amount, ₽', '10');
          await type(el, lang === 'ru' ? 'Номер договора' : 'Agreement number', 'AG-1');
          await pay(el);
          await waitUntil(() => payButton(el).disabled, 'Pay is not disabled while sending');
          await expect(el).to.be.accessible();

          const failed = oneEvent(el, 'billing-pay-error');
          answer(json({ error: { code: 'billing_rejected', message: 'Rejected.' } }, 422));
          await failed;
          await el.updateComplete;
          expect(status(el)).to.not.equal('');
          await expect(el).to.be.accessible();

          // Loading /config, then failing to.
          relay.restore();
          let answerConfig: (r: Response) => void = () => {};
          const pending = sinon
            .stub(window, 'fetch')
            .returns(new Promise<Response>((resolve) => (answerConfig = resolve)));
          const loading = document.createElement('billing-pay');
          Object.assign(loading, { relay: RELAY, theme });
          loading.lang = lang;
          document.body.append(loading);
          try {
            await loading.updateComplete;
            expect(status(loading)).to.not.equal('');
            await expect(loading).to.be.accessible();
            answerConfig(json({ error: { code: 'internal_error', message: 'x' } }, 500));
            await waitUntil(() => loading.shadowRoot!.querySelector('.status.error'), 'no config error shown');
            await expect(loading).to.be.accessible();
          } finally {
            loading.remove();
            pending.restore();
            relay = stubRelay();
          }
        });
      }
    }
  });

  describe('announcements', () => {
    it('the live region is in the accessibility tree before it speaks, and says sending, errors and redirecting', async () => {
      relay.restore();
      let answer: (r: Response) => void = () => {};
      relay = stubRelay({ payment: () => new Promise<Response>((resolve) => (answer = resolve)) });
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      const region = el.shadowRoot!.querySelector('[role="status"]') as HTMLElement;
      expect(region.textContent).to.equal('');
      expect(getComputedStyle(region).display, 'an empty region is not display:none').to.not.equal('none');
      expect(getComputedStyle(region).visibility).to.equal('visible');

      await type(el, 'Amount', '10');
      await type(el, 'Agreement number', 'AG-1');
      await pay(el);
      await waitUntil(() => status(el) !== '', 'the live region said nothing');
      expect(el.shadowRoot!.querySelector('[role="status"]')).to.equal(region, 'the same live region node throughout');
      expect(status(el)).to.equal('Sending the payment…');
      const error = oneEvent(el, 'billing-pay-error');
      answer(json({ error: { code: 'billing_rejected', message: 'Rejected.' } }, 422));
      await error;
      await el.updateComplete;
      expect(status(el)).to.equal(
        'The payment system did not accept this payment. You can also choose another payment system.',
      );
    });
  });
});
