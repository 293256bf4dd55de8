/**
 * End to end, with nothing stubbed (the real relay and billing sandbox, see e2e-stack.ts): what the payer is told when
 * the agreement is not found — in their language, on the field, for every system, also when the billing says so with
 * a bare 404 — and what a page whose origin the relay does not allow shows and logs.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import sinon from 'sinon';
import '../../src/widget/billing-pay.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import {
  click,
  e2e,
  errorOf,
  field,
  mount,
  pay,
  status,
  type,
  browserXhrInThisFile,
  type E2eStack as Stack,
} from './helpers.js';

const LANGS = {
  en: {
    system: 'System',
    amount: 'Amount',
    number: 'Agreement number',
    email: 'E-mail',
    lookup: 'Find the agreement by',
    fix: 'Please correct the highlighted fields.',
  },
  ru: {
    system: 'Система',
    amount: 'Сумма',
    number: 'Номер договора',
    email: 'E-mail',
    lookup: 'Найти договор по',
    fix: 'Исправьте отмеченные поля.',
  },
};
const NOT_FOUND = {
  en: { number: 'No agreement with this number.', email: 'No client with this e-mail.' },
  ru: { number: 'Договор с таким номером не найден.', email: 'Клиент с таким e-mail не найден.' },
};

// The relay and the billing are real: so is the widget's XMLHttpRequest.
browserXhrInThisFile();

describe('<billing-pay> end to end: what went wrong, in the payer’s language', () => {
  let stack: Stack;
  before(async () => {
    stack = await e2e<Stack>('stack');
  });

  for (const lang of ['en', 'ru'] as const) {
    const words = LANGS[lang];
    for (const system of ['A', 'B', 'C']) {
      it(`${lang}, ${system}: AG-9999 is "no agreement" on the agreement field, focused, and the system stays chosen`, async () => {
        const el = await mount(html`<billing-pay lang=${lang} relay=${stack.relay} lookup="5 7"></billing-pay>`);
        await click(el, `${words.system} ${system}`);
        await type(el, words.amount, '10');
        await type(el, words.number, 'AG-9999');
        const error = oneEvent(el, 'billing-pay-error');
        await pay(el);
        const { detail } = await error;
        await el.updateComplete;
        expect(detail).to.deep.equal({
          code: 'agreement_not_found',
          message: words.fix,
          fields: { agreement_param_value: NOT_FOUND[lang].number },
        });
        expect(errorOf(el, words.number)).to.equal(NOT_FOUND[lang].number);
        expect(field(el, words.number).getAttribute('aria-invalid')).to.equal('true');
        expect(el.shadowRoot!.activeElement).to.equal(field(el, words.number));
        expect(field(el, `${words.system} ${system}`).checked).to.equal(true);
        expect(status(el)).to.equal(words.fix);

        // Corrected, the same press goes through: nothing replays the failure.
        await type(el, words.number, 'AG-1001');
        expect(errorOf(el, words.number), 'the error goes as the value is corrected').to.equal('');
        const redirect = oneEvent(el, 'billing-pay-redirect');
        el.addEventListener('billing-pay-redirect', (e) => e.preventDefault(), { once: true });
        await pay(el);
        expect((await redirect).detail.url).to.match(/\/pay\/\d+$/);
      });
    }

    it(`${lang}: worded for the lookup kind, and the same against a billing that answers a bare 404`, async () => {
      const el = await mount(html`<billing-pay lang=${lang} relay=${stack.relay} lookup="7 5"></billing-pay>`);
      await type(el, words.amount, '10');
      await type(el, words.email, 'nobody@example.com');
      let error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      await error;
      await el.updateComplete;
      expect(errorOf(el, words.email)).to.equal(NOT_FOUND[lang].email);

      await e2e('fault', { status: '404' });
      await type(el, words.email, 'client@example.com');
      error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail.code).to.equal('agreement_not_found');
      await el.updateComplete;
      expect(errorOf(el, words.email)).to.equal(NOT_FOUND[lang].email);
    });
  }

  it('a page whose origin the relay does not allow: a neutral text and Try again for the payer, the fix in the console', async () => {
    const logged = sinon.stub(console, 'error');
    try {
      const error = new Promise<CustomEvent>((resolve) =>
        document.addEventListener('billing-pay-error', (e) => resolve(e as CustomEvent), { once: true }),
      );
      const el = await fixture<BillingPay>(html`<billing-pay lang="en" relay=${stack.foreignRelay}></billing-pay>`);
      const { detail } = await error;
      await el.updateComplete;
      const told = 'Payments cannot be taken on this page yet. Please tell the shop.';
      expect(detail).to.deep.equal({ code: 'origin_not_allowed', message: told });
      expect(status(el)).to.equal(told);
      expect(el.shadowRoot!.querySelector('button')?.textContent).to.equal('Try again');
      expect(logged).to.have.been.calledOnce;
      const line = logged.firstCall.args.join(' ');
      expect(line).to.contain(location.origin).and.contain('ALLOWED_ORIGINS');
    } finally {
      logged.restore();
    }
  });

  it('a relay that cannot be reached is a network_error, not an origin problem', async () => {
    const error = new Promise<CustomEvent>((resolve) =>
      document.addEventListener('billing-pay-error', (e) => resolve(e as CustomEvent), { once: true }),
    );
    // Port 9: a browser never connects to it, so the request fails as an unreachable relay’s does.
    await fixture<BillingPay>(html`<billing-pay lang="en" relay="http://127.0.0.1:9"></billing-pay>`);
    expect((await error).detail.code).to.equal('network_error');
  });
});
