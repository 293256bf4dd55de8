/**
 * The React components (`billing-pay/react`) in a real React 19 tree: object props reach the element as properties,
 * `on…` props receive the element's events, once each although strict mode runs every effect twice.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { createElement, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { BillingPay as BillingPayElement } from '../../src/widget/billing-pay.js';
import { BillingPay } from '../../src/widget/react.js';
import { PAYMENT_PAGE, stubRelay, type RelayStub } from './helpers.js';

describe('billing-pay/react', () => {
  let relay: RelayStub;
  let host: HTMLElement;
  let root: Root;
  beforeEach(() => {
    relay = stubRelay();
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    root.unmount();
    host.remove();
    relay.restore();
  });

  it('in strict mode: texts set as a property, each on… prop called once per event, one payment', async () => {
    const events: string[] = [];
    const ready = new Promise<void>((resolve) => {
      flushSync(() =>
        root.render(
          createElement(
            StrictMode,
            null,
            createElement(BillingPay, {
              relay: 'https://relay.example',
              lang: 'en',
              amount: '250.00',
              agreement: 'AG-1001',
              texts: { labels: { pay: 'Pay now' } },
              onBillingPayReady: () => {
                events.push('ready');
                resolve();
              },
              onBillingPayRedirect: (e) => {
                e.preventDefault();
                events.push(`redirect ${e.detail.url}`);
              },
            }),
          ),
        ),
      );
    });
    await ready;
    const el = host.querySelector('billing-pay') as BillingPayElement;
    await el.updateComplete;
    expect(el.texts).to.deep.equal({ labels: { pay: 'Pay now' } }, 'an object prop is a property, not an attribute');
    const pay = [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Pay now 250.00');
    expect(pay, 'the text override shows on the button').to.exist;
    pay!.click();
    // Pay first loads its late modules; a listener left behind would answer with the first one.
    await waitUntil(() => events.length > 1, 'no redirect', { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Strict mode attaches, detaches and attaches the listeners again: a listener left behind would answer twice.
    expect(events).to.deep.equal(['ready', `redirect ${PAYMENT_PAGE}`]);
    expect(relay.payments()).to.have.length(1);
    expect(relay.payments()[0]!.body).to.include({ system: 'A', amount: '250.00', agreement_param_value: 'AG-1001' });
  });
});
