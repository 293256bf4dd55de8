/**
 * Readiness a late listener can read (src/widget/readiness.ts): both elements say where they are in a `state`
 * property and a reflected `state` attribute, and `billing-pay-ready` fires once per element even when the page gives
 * it a session after it was ready (the demo's account page did, and the event fired twice).
 */
import { expect, html, fixture, waitUntil } from '@open-wc/testing';
import '../../src/widget/billing-pay.js';
import '../../src/widget/billing-payment-methods.js';
import type { BillingPay } from '../../src/widget/billing-pay.js';
import type { BillingPaymentMethods } from '../../src/widget/billing-payment-methods.js';
import { CONFIG, json, stubRelay, type RelayStub } from './helpers.js';

const RELAY = 'http://relay.test';

/** A `/config` that answers when the test says so. */
function heldConfig() {
  let answer: (r: Response) => void = () => {};
  const held = new Promise<Response>((resolve) => (answer = resolve));
  return { config: () => held, answer: (r: Response) => answer(r) };
}

describe('readiness', () => {
  let relay: RelayStub | undefined;
  afterEach(() => relay?.restore());

  describe('<billing-pay>', () => {
    it('says loading, then ready, in its state property and attribute, for a page that listens after the event', async () => {
      const held = heldConfig();
      relay = stubRelay({ config: held.config });
      const events: Event[] = [];
      const el = await fixture<BillingPay>(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      expect(el.state).to.equal('loading');
      expect(el.getAttribute('state')).to.equal('loading');
      held.answer(json(CONFIG));
      await waitUntil(() => el.state === 'ready', `state stayed ${el.state}`);
      // A listener attached now has missed billing-pay-ready; the element still tells it where it is.
      el.addEventListener('billing-pay-ready', (e) => events.push(e));
      await el.updateComplete;
      expect(el.getAttribute('state')).to.equal('ready');
      expect(el.matches('billing-pay[state="ready"]')).to.equal(true);
      expect(el.shadowRoot!.querySelector('button[type="submit"]'), 'the form is shown once ready').to.exist;
      expect(events).to.have.length(0);
    });

    it('says failed when /config cannot be loaded', async () => {
      relay = stubRelay({ config: json({ error: { code: 'internal_error', message: 'x' } }, 500) });
      const el = await fixture<BillingPay>(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
      await waitUntil(() => el.state === 'failed', `state stayed ${el.state}`);
      expect(el.getAttribute('state')).to.equal('failed');
    });

    it('fires billing-pay-ready once, though a session given after it was ready loads /config again', async () => {
      relay = stubRelay();
      let fired = 0;
      const counter = () => (fired += 1);
      document.addEventListener('billing-pay-ready', counter);
      try {
        const el = await fixture<BillingPay>(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
        await waitUntil(() => el.state === 'ready' && fired === 1, `state ${el.state}, fired ${fired}`);
        const configs = () => relay!.requests.filter((r) => r.url.endsWith('/config')).length;
        expect(configs()).to.equal(1);
        el.session = 'eyJhbGciOiJIUzI1NiJ9.eyJhZ3IiOjEwMDF9.c2lnbmF0dXJl'; // as the account page does, once it has one
        await waitUntil(() => configs() === 2, '/config was not loaded again');
        await waitUntil(() => el.state === 'ready', `state stayed ${el.state}`);
        await el.updateComplete;
        expect(fired).to.equal(1);
      } finally {
        document.removeEventListener('billing-pay-ready', counter);
      }
    });
  });

  describe('<billing-payment-methods>', () => {
    it('says loading until it has relay and session, then ready; failed when the list cannot be loaded', async () => {
      let list: () => Response = () => json({ payment_methods: [] });
      relay = stubRelay();
      relay.stub.callsFake(async (input: RequestInfo | URL) =>
        String(input).endsWith('/payment-methods') ? list() : json({ error: { code: 'not_found', message: 'x' } }, 404),
      );
      const el = await fixture<BillingPaymentMethods>(
        html`<billing-payment-methods lang="en" relay=${RELAY}></billing-payment-methods>`,
      );
      expect(el.state).to.equal('loading');
      expect(el.getAttribute('state')).to.equal('loading');
      el.session = 'a-session';
      await waitUntil(() => el.state === 'ready', `state stayed ${el.state}`);
      expect(el.getAttribute('state')).to.equal('ready');

      list = () => json({ error: { code: 'internal_error', message: 'x' } }, 500);
      el.session = 'another-session';
      await waitUntil(() => el.state === 'failed', `state stayed ${el.state}`);
      expect(el.getAttribute('state')).to.equal('failed');
    });
  });
});
