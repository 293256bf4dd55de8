import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import { PayError } from '../../src/widget/pay-error.js';
import { isSafeRedirect, postPayment } from '../../src/widget/payment-sender.js';
import { newIdempotencyKey } from '../../src/widget/payment-sender.js';
import { relayUrl } from '../../src/widget/relay-client.js';
import './helpers.js';

describe('relay client', () => {
  it('opens only https, or http on this machine, and never an address with credentials', () => {
    for (const url of ['https://pay.example/x', 'http://localhost:8788/p', 'http://127.0.0.1/p', 'http://[::1]:9/p']) {
      expect(isSafeRedirect(url), url).to.be.true;
    }
    for (const url of [
      'http://pay.example/x',
      'http://localhost.evil.example/',
      'http://127.0.0.2/',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://pay.example/',
      'https://u:p@pay.example/',
      '/relative',
      '',
    ]) {
      expect(isSafeRedirect(url), url).to.be.false;
    }
  });

  it('follows http: to this machine only from a page on this machine over http: (the sandbox and the demo)', () => {
    const sandbox = 'http://127.0.0.1:8788/pay/1';
    for (const page of ['http://localhost:8080/', 'http://127.0.0.1:5173/account.html?x=1', 'http://[::1]:8080/']) {
      expect(isSafeRedirect(sandbox, page), page).to.be.true;
      expect(isSafeRedirect('http://localhost:8790/pay/2', page), page).to.be.true;
    }
    for (const page of [
      'https://shop.example/pay',
      'https://localhost:8443/',
      'https://127.0.0.1/',
      'http://shop.example/',
      'http://127.0.0.2:8080/',
      'http://localhost.evil.example/',
      'file:///home/me/page.html',
    ]) {
      expect(isSafeRedirect(sandbox, page), page).to.be.false;
      expect(isSafeRedirect('http://localhost:8790/pay/2', page), page).to.be.false;
      expect(isSafeRedirect('https://pay.example/checkout', page), `https from ${page}`).to.be.true;
    }
  });

  it('refuses what the relay refuses: user info even empty, a backslash, a character the parser drops (the one rule, isPaymentPage)', () => {
    for (const url of [
      'https://@pay.example/9',
      'https://pay.example\\@evil.example/',
      'https://pay.example/9\r\nSet-Cookie: x=1',
      'http://127.0.0.2:9/pay/9',
    ]) {
      expect(isSafeRedirect(url, 'http://localhost:8080/'), JSON.stringify(url)).to.be.false;
    }
  });

  it('a 201 without redirect_url is a bad answer, not a failure to retry', async () => {
    const stub = sinon.stub(window, 'fetch').resolves(
      new Response(JSON.stringify({ payment: { payment_id: 9 } }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    try {
      const failure = await postPayment(
        'http://relay.test',
        JSON.stringify({
          system: 'C',
          amount: '1.00',
          agreement_param_id: 5,
          agreement_param_value: 'AG-1',
          eps_params: [],
        }),
        'k',
        new AbortController().signal,
      ).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(PayError);
      expect((failure as PayError).code).to.equal('bad_answer');
      expect((failure as PayError).type).to.equal('relay');
      expect(stub.callCount, 'asked once: the payment exists').to.equal(1);
    } finally {
      stub.restore();
    }
  });

  it('judges by the page it is in when not told: this test page is on this machine, over http:', () => {
    expect(['localhost', '127.0.0.1'], location.href).to.include(location.hostname);
    expect(location.protocol).to.equal('http:');
    expect(isSafeRedirect('http://127.0.0.1:8788/pay/1')).to.be.true;
  });

  it('joins the relay base and a path', () => {
    expect(relayUrl('http://relay.test', 'config')).to.equal('http://relay.test/config');
    expect(relayUrl('http://relay.test/', 'payments')).to.equal('http://relay.test/payments');
    expect(relayUrl('https://shop.example/pay/relay', 'config')).to.equal('https://shop.example/pay/relay/config');
    expect(relayUrl('/relay', 'config')).to.equal(new URL('/relay/config', document.baseURI).href);
  });

  it('makes v4 UUID idempotency keys', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).to.equal(50);
    for (const key of keys)
      expect(key).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes them without crypto.randomUUID too (a page that is not a secure context)', () => {
    const own = Object.getOwnPropertyDescriptor(Crypto.prototype, 'randomUUID')!;
    Object.defineProperty(Crypto.prototype, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 500 }, newIdempotencyKey));
      expect(keys.size).to.equal(500);
      for (const key of keys)
        expect(key).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(Crypto.prototype, 'randomUUID', own);
    }
  });
});
