/**
 * Validation that follows the payer, as in Adyen's and Stripe's checkouts: a field is checked when they leave it after
 * an edit (an untouched one is not), its error goes as soon as what they type is valid, and the form's "correct the
 * highlighted fields" goes with the last field's error, without a second press of Pay. Pay still checks everything.
 * Real key presses (test/widget/input.ts): typing, Tab to leave a field, Backspace to correct it.
 */
import { expect, html, oneEvent } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import { errorOf, field, json, mount, pay, status, stubRelay, type, type RelayStub, stubNavigate } from './helpers.js';
import { pointAndClick, press, typeKeys } from './input.js';

const RELAY = 'http://relay.test';
const BACK = 'https://shop.example/back';

const TEXTS = {
  en: {
    amount: 'Amount',
    agreement: 'Agreement number',
    email: 'E-mail or phone for the receipt',
    decimals: 'An amount has at most two decimals.',
    required: 'This field is required.',
    emailProblem: 'Enter an e-mail address such as name@example.com.',
    fix: 'Please correct the highlighted fields.',
    notFound: 'No agreement with this number.',
  },
  ru: {
    amount: 'Сумма',
    agreement: 'Номер договора',
    email: 'E-mail или телефон для чека',
    decimals: 'В сумме не больше двух знаков после запятой.',
    required: 'Заполните это поле.',
    emailProblem: 'Введите адрес эл. почты, например name@example.com.',
    fix: 'Исправьте отмеченные поля.',
    notFound: 'Договор с таким номером не найден.',
  },
};

describe('<billing-pay> validation that follows the payer', () => {
  let relay: RelayStub;
  let navigate: sinon.SinonStub;

  beforeEach(() => {
    relay = stubRelay();
    navigate = stubNavigate();
  });

  afterEach(() => {
    relay.restore();
    navigate.restore();
  });

  const widget = (lang: string) =>
    mount(html`<billing-pay relay=${RELAY} lang=${lang} return-url=${BACK}></billing-pay>`);

  /** Puts the caret in the labelled field, as a click would. */
  async function into(el: BillingPay, label: string): Promise<void> {
    field(el, label).focus();
    await el.updateComplete;
  }

  /** Key presses, then the element's render. */
  async function keys(el: BillingPay, ...pressed: string[]): Promise<void> {
    await press(...pressed);
    await el.updateComplete;
  }

  async function typing(el: BillingPay, text: string): Promise<void> {
    await typeKeys(text);
    await el.updateComplete;
  }

  /** The ids of the controls marked invalid. */
  const invalid = (el: BillingPay) =>
    [...el.shadowRoot!.querySelectorAll('[aria-invalid="true"]')].map((control) => control.id);

  for (const lang of ['en', 'ru'] as const) {
    const t = TEXTS[lang];

    it(`a field left after an invalid edit shows its error, wired as Pay's; an untouched one left shows none (${lang})`, async () => {
      const el = await widget(lang);
      const errors: Event[] = [];
      el.addEventListener('billing-pay-error', (e) => errors.push(e));

      await into(el, t.amount);
      await keys(el, 'Tab'); // left untouched
      await keys(el, 'Tab'); // so is the agreement number
      expect(invalid(el), 'tabbing through untouched fields').to.deep.equal([]);
      expect(el.shadowRoot!.querySelector('.error')).to.equal(null);

      await into(el, t.amount);
      await typing(el, '15.555');
      expect(errorOf(el, t.amount), 'no error while the payer is still typing').to.equal('');
      await keys(el, 'Tab');
      const amount = field(el, t.amount);
      expect(amount.getAttribute('aria-invalid')).to.equal('true');
      expect(amount.getAttribute('aria-describedby')).to.equal('f-amount-error');
      expect(errorOf(el, t.amount)).to.equal(t.decimals);
      expect(el.shadowRoot!.querySelector('#f-amount-error')!.getAttribute('part')).to.equal('error');
      // The agreement number now has the focus and was never edited; leaving it says nothing about it.
      await keys(el, 'Tab');
      expect(invalid(el)).to.deep.equal(['f-amount']);
      expect(errorOf(el, t.agreement)).to.equal('');
      // Only a field's own error: the form's status and the page's event wait for Pay.
      expect(status(el)).to.equal('');
      expect(errors).to.have.length(0);
      expect(relay.payments()).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it(`after a failed Pay, correcting every field clears each error as it becomes valid, then the form's status (${lang})`, async () => {
      const el = await widget(lang);
      await type(el, t.amount, '15.555');
      await type(el, t.email, 'not-an-address');
      await pay(el);
      expect(status(el)).to.equal(t.fix);
      expect(invalid(el)).to.deep.equal(['f-lookupValue', 'f-amount', 'f-contact']);
      expect(el.shadowRoot!.activeElement).to.equal(field(el, t.agreement));
      const region = el.shadowRoot!.querySelector('[role="status"]')!;

      await typing(el, 'AG-1001');
      expect(errorOf(el, t.agreement)).to.equal('');
      // The amount: one Backspace at its end makes it valid.
      await keys(el, 'Tab', 'End', 'Backspace');
      expect(field(el, t.amount).value).to.equal('15.55');
      expect(errorOf(el, t.amount), 'cleared on input, before the field is left').to.equal('');
      expect(field(el, t.amount).getAttribute('aria-invalid')).to.equal('false');
      expect(field(el, t.amount).hasAttribute('aria-describedby')).to.be.false;
      expect(status(el), 'other fields still have errors').to.equal(t.fix);

      // An e-mail is wrong while it is being typed: its error stays until it is an address.
      await into(el, t.email);
      await keys(el, 'End', ...Array<string>(8).fill('Backspace'));
      await typing(el, '@example');
      expect(field(el, t.email).value).to.equal('not-an@example');
      expect(errorOf(el, t.email)).to.equal(t.emailProblem);
      expect(status(el)).to.equal(t.fix);
      await typing(el, '.co');
      expect(errorOf(el, t.email)).to.equal('');
      expect(invalid(el)).to.deep.equal([]);
      expect(status(el), 'the form status goes with the last error').to.equal('');
      expect(el.shadowRoot!.querySelector('[role="status"]'), 'the same live region').to.equal(region);
      expect(region.classList.contains('error')).to.be.false;
      expect(relay.payments(), 'without pressing Pay').to.have.length(0);
      await expect(el).to.be.accessible();

      const redirect = oneEvent(el, 'billing-pay-redirect');
      await pay(el);
      await redirect;
      expect(relay.payments()[0]!.body).to.include({ amount: '15.55', agreement_param_value: 'AG-1001' });
    });
  }

  it('an error shown stays while the value is still invalid, follows the problem, and goes once it is valid', async () => {
    const el = await widget('en');
    await into(el, TEXTS.en.email);
    await typing(el, 'ab');
    await keys(el, 'Tab');
    expect(errorOf(el, TEXTS.en.email)).to.equal(TEXTS.en.emailProblem);
    await into(el, TEXTS.en.email);
    await typing(el, '@example');
    expect(errorOf(el, TEXTS.en.email), 'still not an address').to.equal(TEXTS.en.emailProblem);
    await typing(el, '.com');
    expect(errorOf(el, TEXTS.en.email)).to.equal('');

    await into(el, 'Amount');
    await typing(el, '-5');
    await keys(el, 'Tab');
    expect(errorOf(el, 'Amount')).to.equal('The amount must be greater than zero.');
    await into(el, 'Amount');
    await keys(el, 'End', 'Backspace', 'Backspace');
    expect(errorOf(el, 'Amount'), 'an emptied amount is required').to.equal(TEXTS.en.required);
    await typing(el, '1');
    expect(errorOf(el, 'Amount'), 'valid again').to.equal('');
    // Gone, the error does not come back as the payer types on: the field is checked again when they leave it.
    await typing(el, '.234');
    expect(errorOf(el, 'Amount')).to.equal('');
    await keys(el, 'Tab');
    expect(errorOf(el, 'Amount')).to.equal(TEXTS.en.decimals);
    await keys(el, 'Shift+Tab', 'End', 'Backspace');
    expect(errorOf(el, 'Amount')).to.equal('');
    // Emptying an optional field that had an error is valid too.
    await into(el, TEXTS.en.email);
    await typing(el, '12');
    await keys(el, 'Tab');
    expect(errorOf(el, TEXTS.en.email), 'digits are read as a phone').to.equal(
      'Enter a phone number such as +7 900 123-45-67.',
    );
    await into(el, TEXTS.en.email);
    await keys(el, 'End', 'Backspace', 'Backspace');
    expect(errorOf(el, TEXTS.en.email)).to.equal('');
    expect(status(el)).to.equal('');
  });

  it('Pay by pointer right after an invalid edit still checks every field and focuses the first', async () => {
    const el = await widget('en');
    await into(el, TEXTS.en.email);
    await typing(el, 'ab');
    await keys(el, 'Tab');
    expect(invalid(el)).to.deep.equal(['f-contact']);
    // The amount's error would push Pay down under the pointer if leaving the field showed it mid-click.
    await into(el, 'Amount');
    await typing(el, '15.555');
    const error = oneEvent(el, 'billing-pay-error');
    await pointAndClick(el.shadowRoot!.querySelector('button[type="submit"]')!);
    const { detail } = await error;
    expect(Object.keys(detail.fields)).to.deep.equal(['agreement_param_value', 'amount', 'eps_params.email']);
    await el.updateComplete;
    expect(status(el)).to.equal(TEXTS.en.fix);
    expect(invalid(el)).to.deep.equal(['f-lookupValue', 'f-amount', 'f-contact']);
    expect(el.shadowRoot!.activeElement).to.equal(field(el, 'Agreement number'));
  });

  describe('errors from the relay', () => {
    const notFound = () =>
      json(
        {
          error: {
            code: 'agreement_not_found',
            message: 'The billing found no agreement by agreement_param_value.',
            fields: { agreement_param_value: { problem: 'agreement_not_found', message: 'No agreement was found.' } },
          },
        },
        422,
      );

    for (const lang of ['en', 'ru'] as const) {
      const t = TEXTS[lang];
      it(`agreement_not_found on the agreement number clears, with the form status, when the payer edits it (${lang})`, async () => {
        relay.restore();
        relay = stubRelay({ payment: notFound });
        const el = await widget(lang);
        await type(el, t.amount, '10');
        await type(el, t.agreement, 'AG-1');
        const error = oneEvent(el, 'billing-pay-error');
        await pay(el);
        await error;
        await el.updateComplete;
        expect(errorOf(el, t.agreement)).to.equal(t.notFound);
        expect(status(el)).to.equal(t.fix);
        expect(el.shadowRoot!.activeElement).to.equal(field(el, t.agreement));

        // Its value is valid as the widget checks it: the first key pressed takes the relay's answer away.
        await keys(el, 'End');
        await typing(el, '0');
        expect(errorOf(el, t.agreement)).to.equal('');
        expect(field(el, t.agreement).getAttribute('aria-invalid')).to.equal('false');
        expect(status(el)).to.equal('');
      });
    }

    it('a relay’s error is replaced by the widget’s own check as the payer types; a return address problem keeps the status', async () => {
      relay.restore();
      relay = stubRelay({
        payment: () =>
          json(
            {
              error: {
                code: 'validation_failed',
                message: 'The payment request is not valid.',
                fields: {
                  agreement_param_value: { problem: 'agreement_not_found', message: 'No agreement was found.' },
                  'eps_params.confirmation_return_url': { problem: 'origin', message: 'Not an allowed origin.' },
                },
              },
            },
            422,
          ),
      });
      const el = await widget('en');
      await type(el, 'Amount', '10');
      await type(el, 'Agreement number', 'AG-1');
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      await error;
      await el.updateComplete;
      expect(errorOf(el, 'Agreement number')).to.equal(TEXTS.en.notFound);
      const said =
        'Please correct the highlighted fields. Return address: This address is not on one of the merchant’s allowed origins.';
      expect(status(el)).to.equal(said);

      await keys(el, 'End');
      await typing(el, '!');
      expect(errorOf(el, 'Agreement number')).to.equal('Enter the value without spaces or special characters.');
      await keys(el, 'Backspace');
      expect(errorOf(el, 'Agreement number')).to.equal('');
      expect(invalid(el)).to.deep.equal([]);
      // No field shows the return address's problem, and the payer cannot correct it: its status stays until Pay.
      expect(status(el)).to.equal(said);
    });
  });
});
