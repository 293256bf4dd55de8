/**
 * What `PaymentReturn` gives the result screen beyond the event: the form's values for "Try again", from a return
 * named in the address and found in the origin's storage (a new tab: the tab's own storage empty); and what the origin
 * keeps (pruned, at most five, said once). The journey through the real relay and sandbox is e2e-return-tab.test.ts.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import { Attempt } from '../../src/widget/attempt.js';
import { buildPaymentRequest, type FormValues } from '../../src/widget/request.js';
import { PaymentReturn, RETURN_MARKER } from '../../src/widget/payment-return.js';

class ReturnProbe extends LitElement {
  readonly returned = new PaymentReturn(this, { maxAgeMs: () => Number(this.dataset.maxAge ?? 3_600_000) });
}
customElements.define('return-probe', ReturnProbe);

const host = { addController() {} } as unknown as ConstructorParameters<typeof PaymentReturn>[0];
const HERE = location.href.split(/[?#]/)[0]!;
const VALUES = {
  system: 'B',
  amount: '12.30',
  lookupKind: 7,
  lookupValue: 'payer@example.com',
  email: 'receipt@example.com',
  phone: '+7 900 123-45-67',
  name: 'Ivan Petrov',
  comment: 'November',
  save: true,
  linkOnly: false,
} satisfies Omit<FormValues, 'returnUrl'>;

/** Remembers a payment as the element does before it leaves, and answers the address the payer comes back by. */
async function leave(values = VALUES, paymentId = '77'): Promise<string> {
  const attempt = new Attempt(new PaymentReturn(host));
  const back = attempt.returnUrl(HERE);
  const request = buildPaymentRequest(
    { ...values, returnUrl: back, failUrl: attempt.failUrl(HERE) },
    { canSave: true, linkOnly: false },
  );
  await attempt.remember(request, paymentId, HERE);
  return back;
}

/** Comes back by `address` in a tab whose own storage is empty, and answers the probe once it has looked. */
async function comeBack(address: string, maxAge?: number): Promise<ReturnProbe> {
  sessionStorage.clear();
  history.replaceState(history.state, '', address);
  const probe = await fixture<ReturnProbe>(
    maxAge === undefined
      ? html`<return-probe></return-probe>`
      : html`<return-probe data-max-age=${maxAge}></return-probe>`,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  return probe;
}

const kept = () => JSON.parse(localStorage.getItem('billing-pay-returns') ?? '[]') as { id: string; time: string }[];

describe('PaymentReturn: the return named in the address, the form kept for "Try again"', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    history.replaceState(history.state, '', HERE);
    localStorage.clear();
    sessionStorage.clear();
  });

  it('gives back every value of the form, and the payment; the marker and the record go', async () => {
    const probe = await comeBack(await leave());
    await waitUntil(() => probe.returned.fired, 'no return');
    expect(probe.returned.fired).to.deep.include({ system: 'B', amount: '12.30', lookup: 7, paymentId: '77' });
    expect(probe.returned.fired!.agreement).to.equal('payer@example.com');
    expect(probe.returned.tryAgain).to.deep.equal(VALUES);
    expect(location.search).to.not.contain(RETURN_MARKER);
    expect(kept()).to.deep.equal([]);
  });

  it('a marker the origin does not remember, or an attempt past the maximum age, gives nothing', async () => {
    await leave();
    const crafted = new URL(HERE);
    crafted.searchParams.set(RETURN_MARKER, '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed');
    const probe = await comeBack(crafted.href);
    expect(probe.returned.fired).to.equal(null);
    expect(probe.returned.tryAgain).to.equal(null);
    expect(kept()).to.have.length(1);

    const address = await leave();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const old = await comeBack(address, 10);
    expect(old.returned.fired).to.equal(null);
    expect(kept(), 'pruned').to.deep.equal([]);
  });

  it('keeps the five newest attempts, and what another script wrote is not believed', async () => {
    const addresses: string[] = [];
    for (let i = 0; i < 7; i += 1) addresses.push(await leave(VALUES, String(100 + i)));
    expect(kept()).to.have.length(5);
    expect((await comeBack(addresses[0]!)).returned.fired, 'the oldest is gone').to.equal(null);

    const forged = await leave();
    const [record] = kept().slice(-1) as Record<string, unknown>[];
    localStorage.setItem(
      'billing-pay-returns',
      JSON.stringify([{ ...record, values: { ...VALUES, amount: '99.00' } }]),
    );
    expect((await comeBack(forged)).returned.fired).to.equal(null);
  });
});
