/**
 * The place the docs' stylesheet rule keeps for the form (demo/playground-snippet.js `reservationCss`): the docs' form
 * (`lookup="5 7"`, `currency="RUB"`) fits in it in English and Russian from 320 px wide, so nothing under the element
 * moves from the page's first paint to the ready form, whether `/config` comes at once or after the skeleton.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { RESERVED_HEIGHT, reservationCss } from '../../demo/playground-snippet.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import '../../src/widget/billing-pay.js';
import { CONFIG, json, stubRelay, type RelayStub } from './helpers.js';

const RELAY = 'http://relay.test';
const sheet = new CSSStyleSheet();
sheet.replaceSync(reservationCss());
const reserved = () => parseFloat(RESERVED_HEIGHT) * parseFloat(getComputedStyle(document.documentElement).fontSize);

describe('the page keeps the form’s place (the docs’ stylesheet rule)', () => {
  let relay: RelayStub;
  let answer: () => void;

  beforeEach(() => {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });

  afterEach(() => {
    relay.restore();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  });

  for (const lang of ['en', 'ru'])
    for (const width of [320, 360, 412, 1024])
      for (const late of [false, true])
        it(`${lang}, ${width} px, /config ${late ? 'after the skeleton' : 'at once'}: the form fits, nothing below moves`, async () => {
          relay = late
            ? stubRelay({ config: () => new Promise<Response>((resolve) => (answer = () => resolve(json(CONFIG)))) })
            : stubRelay();
          const box = await fixture<HTMLElement>(html`<div lang=${lang}>
            <billing-pay relay=${RELAY} lookup="5 7" currency="RUB"></billing-pay>
            <p id="after">The page goes on under the widget.</p>
          </div>`);
          box.style.inlineSize = `${width}px`;
          const el = box.querySelector<BillingPay>('billing-pay')!;
          const after = () => box.querySelector('#after')!.getBoundingClientRect().top;
          const first = after();
          expect(el.getBoundingClientRect().height, 'the place kept from the start').to.be.closeTo(reserved(), 0.5);
          const ready = el.state === 'ready' ? Promise.resolve() : oneEvent(el, 'billing-pay-ready');
          if (late) {
            await new Promise((resolve) => setTimeout(resolve, 400));
            expect(el.shadowRoot!.querySelector('.skeleton'), 'the skeleton').to.not.equal(null);
            expect(after(), 'under the skeleton').to.equal(first);
            answer();
          }
          await ready;
          // The Russian texts come with the form (the element waits for them): the form is drawn once, in Russian.
          await el.updateComplete;
          expect(after(), 'under the ready form').to.equal(first);
          el.style.minBlockSize = '0';
          const natural = el.getBoundingClientRect().height;
          expect(natural, `the form's own height (${natural} px)`).to.be.at.most(reserved());
        });
});
