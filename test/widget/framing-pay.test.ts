/**
 * Clickjacking on Pay, as an attacker's page would try it: this page frames a merchant's page with `<billing-pay>`
 * (the built bundle from the real relay, the form filled in by its attributes) and the payer clicks Pay with the real
 * pointer. Framed by another origin, the element refuses: nothing reaches the relay's `/payments` and the payer is
 * told why. Framed by an origin its `frame-origins` names, it pays
 * (the frame goes to the payment page: a page of its own origin would take this test page there).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { ask, clickIn, otherOrigin, showFrame } from './frames.js';
import { e2e } from './helpers.js';

const PAY = 'button[type="submit"]';
const FRAMED = 'Inside another site this form does not work. Open the shop’s page directly.';

/** Opens the merchant's page in a frame from `origin` and waits until its form is ready. */
async function framePay(origin: string, frameOrigins?: string): Promise<HTMLIFrameElement> {
  const query = new URLSearchParams({
    amount: '21.40',
    ...(frameOrigins !== undefined && { 'frame-origins': frameOrigins }),
  });
  const frame = await showFrame(`${origin}/__e2e/page/pay?${query}`);
  await waitUntil(async () => (await ask(frame, PAY)).state === 'ready', 'the framed form is not ready', {
    timeout: 5_000,
  });
  return frame;
}

/** What reached the relay's `POST /payments`, and the billing's `POST /eps_payments`, so far. */
const counts = async () => ({
  relay: (await e2e<{ count: number }>('payment-requests')).count,
  billing: (await e2e<unknown[]>('payments')).length,
});

describe('<billing-pay> in a frame', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it('framed by another origin: Pay sends nothing, and the payer is told why', async function () {
    this.timeout(15_000);
    frame = await framePay(otherOrigin());
    const before = await counts();
    await clickIn(frame, PAY);
    await waitUntil(async () => (await ask(frame!, PAY)).status === FRAMED, 'the refusal is not shown', {
      timeout: 5_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await counts(), 'requests that reached the relay and the billing').to.deep.equal(before);
  });

  it('framed by another origin that frame-origins names: Pay pays', async function () {
    this.timeout(15_000);
    frame = await framePay(otherOrigin(), location.origin);
    const before = await counts();
    await clickIn(frame, PAY);
    await waitUntil(
      async () => {
        const now = await counts();
        return now.relay === before.relay + 1 && now.billing === before.billing + 1;
      },
      'the payment did not reach the relay and the billing',
      { timeout: 5_000 },
    );
  });
});
