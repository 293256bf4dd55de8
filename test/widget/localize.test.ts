/**
 * Both elements follow the page's language (issue 17, like Shoelace's `LocalizeController`): when a page changes
 * `<html lang>` — a language switch without a reload — every element without a `lang` of its own re-renders in it.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/widget/billing-pay.js';
import '../../src/widget/billing-payment-methods.js';
import type { BillingPaymentMethods } from '../../src/widget/billing-payment-methods.js';
import { mount, payButton, stubRelay, type RelayStub } from './helpers.js';

describe('the page language', () => {
  const root = document.documentElement;
  let pageLang: string;
  let relay: RelayStub;

  beforeEach(() => {
    pageLang = root.lang;
    root.lang = 'en';
    relay = stubRelay();
  });

  afterEach(() => {
    root.lang = pageLang;
    relay.restore();
  });

  it('<billing-pay> re-renders in the language <html lang> changes to', async () => {
    const el = await mount(html`<billing-pay relay="http://relay.test"></billing-pay>`);
    expect(payButton(el).textContent!.trim()).to.equal('Pay');
    root.lang = 'ru';
    await waitUntil(() => payButton(el).textContent!.trim() === 'Оплатить', 'still in English');
    expect(el.shadowRoot!.querySelector('form')!.lang).to.equal('ru');
    root.lang = 'en';
    await waitUntil(() => payButton(el).textContent!.trim() === 'Pay', 'still in Russian');
  });

  it('<billing-payment-methods> re-renders in the language <html lang> changes to', async () => {
    // Without a session the element waits, saying so: its status is enough to hear the language.
    const el = await fixture<BillingPaymentMethods>(html`<billing-payment-methods></billing-payment-methods>`);
    const status = () => el.shadowRoot!.querySelector('[part~="status"]')!.textContent!.trim();
    expect(status()).to.equal('Loading saved payment methods…');
    root.lang = 'ru';
    await waitUntil(() => status() === 'Загружаем сохранённые способы оплаты…', 'still in English');
  });

  it('an element with a lang of its own keeps it, and one removed from the page is left alone', async () => {
    const own = await mount(html`<billing-pay relay="http://relay.test" lang="en"></billing-pay>`);
    const removed = await mount(html`<billing-pay relay="http://relay.test"></billing-pay>`);
    removed.remove();
    const follower = await mount(html`<billing-pay relay="http://relay.test"></billing-pay>`);
    root.lang = 'ru';
    await waitUntil(() => payButton(follower).textContent!.trim() === 'Оплатить', 'still in English');
    expect(payButton(own).textContent!.trim()).to.equal('Pay');
    expect(payButton(removed).textContent!.trim()).to.equal('Pay');
  });
});
