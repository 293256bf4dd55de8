/**
 * The request layer's side of `duplicate_payment`, against a real relay (its duplicate window on) and the billing
 * sandbox: the second payment is a typed duplicate with the earlier time, and a confirmed one is paid with a new key.
 */
import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import { duplicateOf, PayError } from '../../src/widget/pay-error.js';
import { PaymentSender } from '../../src/widget/payment-sender.js';
import { postPayment } from '../../src/widget/payment-sender.js';
import type { PaymentRequest } from '../../src/eps/request.js';
import { e2e, json, useBrowserXhr, watchXhr } from './helpers.js';

const host = { addController() {} } as unknown as ConstructorParameters<typeof PaymentSender>[0];
/** Each run (each engine) pays its own amount, so runs on one sandbox never meet. */
const amount = `${100 + Math.floor(Math.random() * 10_000)}.00`;
const payment = (): PaymentRequest => ({
  system: 'C',
  amount,
  agreement_param_id: 5,
  agreement_param_value: 'AG-1001',
  eps_params: [{ name: 'return_url', value: location.href.split('?')[0] }],
});

async function failureOf(promise: Promise<unknown>): Promise<PayError> {
  try {
    await promise;
  } catch (error) {
    return error as PayError;
  }
  throw new Error('it did not fail');
}

describe('duplicate_payment in the request layer', () => {
  let relay: string;
  before(async () => {
    const env = `ALLOWED_ORIGINS=${location.origin}\nDUPLICATE_WINDOW_SECONDS=900`;
    ({ url: relay } = await e2e<{ url: string }>('merchant-relay', { env }));
  });
  afterEach(() => sinon.restore());

  it('the same payment again is a duplicate with the earlier time; confirmed, it is paid with a new key', async () => {
    // The relay is real: so is the XMLHttpRequest it is asked with.
    const routeXhr = useBrowserXhr();
    const watched = watchXhr();
    try {
      const sender = new PaymentSender(host);
      const sentAt = Date.now();
      const first = await sender.send(relay, payment());
      expect(first?.url).to.match(/\/pay\/\d+$/);

      const failure = await failureOf(sender.send(relay, payment()));
      const duplicate = duplicateOf(failure);
      expect(duplicate?.kind).to.equal('duplicate');
      expect(duplicate!.earlierAt).to.be.instanceOf(Date);
      expect(duplicate!.earlierAt!.getTime()).to.be.within(sentAt - 1000, Date.now());
      expect(failure.type).to.equal('relay');

      const again = await sender.send(relay, payment(), { confirmDuplicate: true });
      expect(again?.url).to.match(/\/pay\/\d+$/);
      expect(again?.url).to.not.equal(first?.url);
      const [, asked, confirmed] = watched.sent;
      expect(confirmed!.headers.get('Idempotency-Key')).to.not.equal(asked!.headers.get('Idempotency-Key'));
      expect(JSON.parse(String(confirmed!.body))).to.deep.include({ confirm_duplicate: true });
      expect(JSON.parse(String(asked!.body))).to.not.have.property('confirm_duplicate');
    } finally {
      watched.restore();
      routeXhr();
    }
  });

  it('another failure is not a duplicate; a duplicate without a readable time has none', async () => {
    expect(duplicateOf(new PayError('relay', 'rate_limited', 'x'))).to.equal(null);
    expect(duplicateOf(new Error('x'))).to.equal(null);
    sinon
      .stub(window, 'fetch')
      .resolves(json({ error: { code: 'duplicate_payment', message: 'again', earlier_at: 'yesterday' } }, 409));
    const failure = await failureOf(postPayment('/relay', '{}', 'k', new AbortController().signal));
    expect(duplicateOf(failure)).to.deep.equal({ kind: 'duplicate', earlierAt: null });
  });
});
