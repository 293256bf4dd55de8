/**
 * The package in a server-side rendering framework (issue 5): its entries import in Node, where there is no DOM,
 * without throwing and without touching `window` or `document`; where no `customElements` exists at all, the
 * registration is skipped. The entries by package name (`billing-pay`, `billing-pay/react`, …) are the built ES
 * modules in dist/lib: `npm test` builds before it runs this.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = existsSync(`${root}dist/lib/widget/billing-pay.js`);

/** Runs a module body in a fresh Node process (plain Node: no tsx unless asked) and answers its stdout. */
async function node(code: string, { tsx = false } = {}): Promise<string> {
  const args = [...(tsx ? ['--import', 'tsx'] : []), '--input-type=module', '-e', code];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root });
  return stdout.trim();
}

describe('importing the package in Node (server-side rendering)', () => {
  it('the element modules import with no DOM and register with Lit’s server shim', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    const { BillingPay } = await import('../../src/widget/billing-pay.js');
    const { BillingPaymentMethods } = await import('../../src/widget/billing-payment-methods.js');
    assert.equal(typeof BillingPay, 'function');
    assert.equal(customElements.get('billing-pay'), BillingPay);
    assert.equal(customElements.get('billing-payment-methods'), BillingPaymentMethods);
    for (const name of ['window', 'document', 'navigator', 'location']) {
      if (name === 'navigator') continue; // Node 21+ has a navigator of its own
      assert.equal(typeof (globalThis as Record<string, unknown>)[name], 'undefined', `${name} appeared`);
    }
  });

  it('skips the registration, without throwing, where there is no customElements', async () => {
    const out = await node(
      `await import('lit');
       delete globalThis.customElements;
       const { BillingPay } = await import('./src/widget/billing-pay.ts');
       await import('./src/widget/billing-payment-methods.ts');
       console.log(typeof BillingPay, typeof globalThis.customElements);`,
      { tsx: true },
    );
    assert.equal(out, 'function undefined');
  });

  it(
    'the package’s entries, by name, import in plain Node',
    { skip: !built && 'run `npm run build` first' },
    async () => {
      const out = await node(
        `const main = await import('billing-pay');
       const methods = await import('billing-pay/payment-methods');
       const react = await import('billing-pay/react');
       const session = await import('billing-pay/relay/session');
       console.log(JSON.stringify([typeof main.BillingPay, typeof methods.BillingPaymentMethods, typeof react.BillingPay,
         typeof session.createClientSession, customElements.get('billing-pay') === main.BillingPay, typeof document]));`,
      );
      assert.deepEqual(JSON.parse(out), ['function', 'function', 'object', 'function', true, 'undefined']);
    },
  );

  it(
    'the React components render on the server: the tags, empty, with their attributes',
    { skip: !built && 'run `npm run build` first' },
    async () => {
      const out = await node(
        `const { createElement } = await import('react');
       const { renderToString } = await import('react-dom/server');
       const { BillingPay, BillingPaymentMethods } = await import('billing-pay/react');
       console.log(renderToString(createElement('div', null,
         createElement(BillingPay, { relay: 'https://shop.example/relay', lang: 'ru', theme: 'dark' }),
         createElement(BillingPaymentMethods, { lang: 'en' }))));`,
      );
      assert.match(
        out,
        /^<div><billing-pay lang="ru"[^>]*><\/billing-pay><billing-payment-methods lang="en"[^>]*><\/billing-payment-methods><\/div>$/,
      );
    },
  );

  it(
    'a session is signed on the merchant’s server with billing-pay/relay/session',
    { skip: !built && 'run `npm run build` first' },
    async () => {
      const out = await node(
        `const { createClientSession } = await import('billing-pay/relay/session');
       console.log(await createClientSession({ agreementId: 1001 }, 'x'.repeat(32)));`,
      );
      assert.match(out, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    },
  );
});
