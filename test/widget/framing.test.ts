/**
 * Clickjacking, as an attacker's page would try it: this page frames a "My account" page with
 * `<billing-payment-methods>` (the built account bundle from the real relay, a real saved method with autopayment)
 * and the payer clicks "Disable autopayment", then "Disable", with the real pointer. Framed by another origin (the
 * runner serves both localhost and 127.0.0.1), the element refuses: no DELETE reaches the billing and the payer is
 * told why. Framed by its own origin, or by one its `frame-origins` names, it disables.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { ask, clickIn, otherOrigin, showFrame } from './frames.js';
import { e2e } from './helpers.js';

/** Opens the account page of a fresh saved method in a frame from `origin`; `frameOrigins`: its attribute. */
async function frameAccount(origin: string, frameOrigins?: string): Promise<HTMLIFrameElement> {
  await e2e('saved-method', { agreement_number: 'AG-1002' });
  const { session } = await e2e<{ session: string }>('session', { agreement: '1002' });
  const query = new URLSearchParams({ session, ...(frameOrigins !== undefined && { 'frame-origins': frameOrigins }) });
  return showFrame(`${origin}/__e2e/page/account?${query}`);
}

const deletes = async () => (await e2e<{ count: number }>('deletes')).count;

describe('<billing-payment-methods> in a frame', () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it('framed by another origin: the two clicks disable nothing, and the payer is told why', async function () {
    this.timeout(15_000);
    frame = await frameAccount(otherOrigin());
    const before = await deletes();
    await clickIn(frame, 'disable');
    // Were the first click taken, the confirmation would be shown: click where its "Disable" would be, too.
    const confirm = await ask(frame, 'confirm-button');
    if (confirm.at) await clickIn(frame, 'confirm-button');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await deletes(), 'DELETEs that reached the billing').to.equal(before);
    expect(confirm.at, 'no confirmation step').to.equal(null);
    expect((await ask(frame, 'status')).status).to.contain('Inside another site');
  });

  for (const [name, origin, frameOrigins] of [
    ['framed by its own origin', () => location.origin, undefined],
    ['framed by another origin that frame-origins names', otherOrigin, location.origin],
    ['framed by another origin, frame-origins="*"', otherOrigin, '*'],
  ] as const) {
    it(`${name}: the two clicks disable the autopayment`, async function () {
      this.timeout(15_000);
      frame = await frameAccount(origin(), frameOrigins);
      const before = await deletes();
      await clickIn(frame, 'disable');
      await clickIn(frame, 'confirm-button');
      await waitUntil(async () => (await deletes()) === before + 1, 'the DELETE did not reach the billing', {
        timeout: 5_000,
      });
      await waitUntil(async () => /is disabled/.test((await ask(frame!, 'status')).status), 'no outcome shown');
    });
  }

  it('frame-origins naming another origin only does not let this one frame it', async function () {
    this.timeout(15_000);
    frame = await frameAccount(otherOrigin(), 'https://portal.example');
    const before = await deletes();
    await clickIn(frame, 'disable');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await ask(frame, 'confirm-button')).at).to.equal(null);
    expect(await deletes()).to.equal(before);
  });
});
