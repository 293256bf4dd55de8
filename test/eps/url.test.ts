import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPaymentPage, linkHref } from '../../src/eps/url.js';

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

describe('linkHref: the addresses the widget links to (methods-url, autopay-terms-url)', () => {
  const page = 'https://shop.example/pay/?x=1';

  it('an http(s) address, absolute or relative to the page, resolved', () => {
    assert.equal(linkHref('https://shop.example/account#methods', page), 'https://shop.example/account#methods');
    assert.equal(linkHref('HTTP://Terms.example/autopay', page), 'http://terms.example/autopay');
    assert.equal(linkHref('/account', page), 'https://shop.example/account');
    assert.equal(linkHref('terms.html', page), 'https://shop.example/pay/terms.html');
    assert.equal(linkHref('//cdn.example/t.pdf', page), 'https://cdn.example/t.pdf');
  });

  it('nothing else: another scheme, user info, control characters, an empty text', () => {
    for (const value of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'ftp://shop.example/terms',
      'mailto:shop@example.com',
      'https://user:pw@shop.example/',
      'https://shop.example/\u202eterms',
      'https://shop.example/a\nb',
      'http://[bad',
      '',
      '   ',
    ]) {
      assert.equal(linkHref(value, page), null, JSON.stringify(value));
    }
  });
});
