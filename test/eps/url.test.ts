import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPaymentPage } from '../../src/eps/url.js';

describe('isPaymentPage: the one payment-page rule of the relay and the widget', () => {
  it('https:, or http: to this machine; never user info, another scheme or an address that reads otherwise', () => {
    for (const url of [
      'https://pay.example/x',
      'HTTPS://PAY.example/9',
      'http://localhost:8788/p',
      'http://127.0.0.1/p',
      'http://[::1]:9/p',
    ]) {
      assert.equal(isPaymentPage(url), true, url);
    }
    for (const url of [
      'http://pay.example/x',
      'http://localhost.evil.example/',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://pay.example/',
      'https://u:p@pay.example/',
      '/relative',
      '',
    ]) {
      assert.equal(isPaymentPage(url), false, url);
    }
  });

  it('where the relay and the widget used to differ, both refuse', () => {
    // The relay took any 127.x.y.z over http:, the widget only 127.0.0.1.
    assert.equal(isPaymentPage('http://127.0.0.2:9/pay/9'), false);
    // The widget took these (the URL parser drops or rewrites what the relay refused).
    for (const url of [
      'https://@pay.example/9',
      'https://pay.example\\@evil.example/',
      'https://pay.example/9\r\nSet-Cookie: x=1',
      'https://pay.example/\u202e',
    ]) {
      assert.equal(isPaymentPage(url), false, JSON.stringify(url));
      assert.equal(isPaymentPage(url, 'https://shop.example/'), false, JSON.stringify(url));
    }
  });

  it('from a page, http: only from a page on this machine over http: (the widget passes its page)', () => {
    assert.equal(isPaymentPage('http://127.0.0.1:8788/pay/1', 'http://localhost:8080/'), true);
    assert.equal(isPaymentPage('http://127.0.0.1:8788/pay/1', 'https://localhost:8443/'), false);
    assert.equal(isPaymentPage('http://127.0.0.1:8788/pay/1', 'https://shop.example/pay'), false);
    assert.equal(isPaymentPage('https://pay.example/checkout', 'https://shop.example/pay'), true);
  });
});
