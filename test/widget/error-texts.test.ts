/**
 * Every error code of the relay (`ERRORS`, from which docs/relay.md's table is made), answered to a payment with each
 * of its statuses: the payer reads a text of its own in English and in Russian that says what to do — never the
 * relay's English message.
 */
import { expect, html, oneEvent } from '@open-wc/testing';
import sinon from 'sinon';
import { ERRORS } from '../../src/eps/errors.js';
import '../../src/widget/billing-pay.js';
import { mount, pay, status, stubRelay, type, untranslated, type RelayStub } from './helpers.js';

const RELAY = 'http://relay.test';
const RELAY_MESSAGE = 'The relay’s own English words.';

/** `[status, code]`: every code with each status the relay answers it with. */
// `duplicate_payment` is no failure to read out but a question to the payer (billing-pay-states.test.ts).
const CODES = Object.entries(ERRORS)
  .filter(([code]) => code !== 'duplicate_payment')
  .flatMap(([code, { status }]) => status.map((n) => [n, code] as [number, string]));

const LANGS = {
  en: {
    amount: 'Amount',
    number: 'Agreement number',
    wait: 'in 30 seconds',
    maybe: /may have been made/,
    other: /another payment system/,
  },
  ru: {
    amount: 'Сумма',
    number: 'Номер договора',
    wait: 'через 30 секунд',
    maybe: /мог пройти/,
    other: /другую платёжную систему/,
  },
};

describe('what the payer reads for each error code of the relay', () => {
  let relay: RelayStub;
  let answer: { status: number; code: string };
  let logged: sinon.SinonStub;
  beforeEach(() => {
    relay = stubRelay({
      payment: () => {
        const headers = { 'Content-Type': 'application/json', 'Retry-After': '30' };
        const fields = /validation_failed|agreement_not_found/.test(answer.code)
          ? {
              agreement_param_value: {
                problem: answer.code === 'agreement_not_found' ? 'agreement_not_found' : 'code',
                message: 'English.',
              },
            }
          : undefined;
        return new Response(JSON.stringify({ error: { code: answer.code, message: RELAY_MESSAGE, fields } }), {
          status: answer.status,
          headers,
        });
      },
    });
    logged = sinon.stub(console, 'error');
  });
  afterEach(() => {
    relay.restore();
    logged.restore();
  });

  it('each code has a clear text of its own in English and in Russian', async function () {
    this.timeout(20_000);
    const shown: Record<string, Record<'en' | 'ru', string>> = {};
    for (const [status_, code] of CODES) {
      shown[code] = { en: '', ru: '' };
      for (const lang of ['en', 'ru'] as const) {
        answer = { status: status_, code };
        const words = LANGS[lang];
        const el = await mount(html`<billing-pay relay=${RELAY} lang=${lang}></billing-pay>`);
        await type(el, words.amount, '10');
        await type(el, words.number, 'AG-1');
        const error = oneEvent(el, 'billing-pay-error');
        await pay(el);
        const { detail } = await error;
        await el.updateComplete;
        const text = status(el);
        expect(detail.code, code).to.equal(code);
        expect(detail.message, `${code}: the event says what the payer read`).to.equal(text);
        expect(text, `${code} ${lang}`).to.not.contain(RELAY_MESSAGE);
        expect(text.length, `${code} ${lang}`).to.be.greaterThan(15);
        shown[code][lang] = text;
        el.remove();
      }
    }
    const pairs = Object.entries(shown).map(([code, t]) => [code, t.ru, t.en] as [string, string, string]);
    expect(untranslated(pairs)).to.deep.equal([]);

    for (const lang of ['en', 'ru'] as const) {
      const words = LANGS[lang];
      const text = (code: string) => shown[code]![lang];
      expect(text('rate_limited'), 'rate limited, with the wait').to.contain(words.wait);
      for (const code of ['billing_unavailable', 'store_unavailable', 'idempotency_in_flight']) {
        expect(text(code), `${code}: try again shortly`).to.contain(words.wait);
      }
      expect(text('billing_timeout'), 'the payment may have been created').to.match(words.maybe);
      for (const code of ['billing_error', 'billing_unavailable', 'billing_timeout', 'store_unavailable']) {
        expect(text(code), `${code}: another system cannot help`).to.not.match(words.other);
      }
      expect(text('billing_rejected'), 'another system may help').to.match(words.other);
      expect(text('validation_failed')).to.equal(text('agreement_not_found'), 'field problems: the fields say what');
    }
    expect(logged.callCount, 'origin_not_allowed: the fix in the console, once per language').to.equal(2);
  });

  it('a code that is not the relay’s (a proxy’s `constructor`, `toString`) gets the general text', async () => {
    for (const code of ['constructor', 'toString', '__proto__']) {
      answer = { status: 502, code };
      const el = await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      await type(el, 'Amount', '10');
      await type(el, 'Agreement number', 'AG-1');
      const error = oneEvent(el, 'billing-pay-error');
      await pay(el);
      expect((await error).detail.message, code).to.equal(
        'A fault on this site stopped the payment. Try again later or contact the shop.',
      );
      el.remove();
    }
  });
});
