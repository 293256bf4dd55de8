/**
 * The React components (`billing-pay/react`) in a real React 19 tree: object props reach the element as properties,
 * `on…` props receive the element's events, and the element survives React's strict-mode remount.
 */
import { expect } from '@open-wc/testing';
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

  it('sets texts as a property, passes events to on… props, and pays once after a strict-mode remount', async () => {
    const events: string[] = [];
    let redirect: string | undefined;
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
                redirect = e.detail.url;
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
    const pay = [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Pay now');
    expect(pay, 'the text override shows on the button').to.exist;
    pay!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(redirect).to.equal(PAYMENT_PAGE);
    expect(relay.payments()).to.have.length(1);
    expect(relay.payments()[0]!.body).to.include({ system: 'A', amount: '250.00', agreement_param_value: 'AG-1001' });
    expect(events).to.include('ready');
  });
});
