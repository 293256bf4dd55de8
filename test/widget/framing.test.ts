/**
 * Clickjacking, as an attacker's page would try it: this page frames a "My account" page with
 * `<billing-payment-methods>` (the built account bundle from the real relay, a real saved method with autopayment)
 * and the payer clicks "Disable autopayment", then "Disable", with the real pointer. Framed by another origin (the
 * runner serves both localhost and 127.0.0.1), the element refuses: no DELETE reaches the billing and the payer is
 * told why. Framed by its own origin, or by one its `frame-origins` names, it disables.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { e2e } from './helpers.js';

/** The runner's other origin: the same server under the other name. */
const otherOrigin = () =>
  location.origin.replace(/\/\/(localhost|127\.0\.0\.1):/, (_, host: string) =>
    host === 'localhost' ? '//127.0.0.1:' : '//localhost:',
  );

interface Report {
  at: { x: number; y: number } | null;
  status: string;
}

/** Asks the framed page where `part` is and what the status says. */
function ask(frame: HTMLIFrameElement, part: string): Promise<Report> {
  return new Promise((resolve) => {
    const answer = (e: MessageEvent<Report>) => {
      if (e.source !== frame.contentWindow) return;
      removeEventListener('message', answer);
      resolve(e.data);
    };
    addEventListener('message', answer);
    frame.contentWindow!.postMessage({ part }, new URL(frame.src).origin);
  });
}

/** Clicks `part` in the frame with the real pointer, once it is shown. */
async function clickIn(frame: HTMLIFrameElement, part: string): Promise<void> {
  let report: Report = { at: null, status: '' };
  await waitUntil(async () => (report = await ask(frame, part)).at !== null, `no ${part} in the frame`, {
    timeout: 5_000,
  }).catch((error: Error) => {
    throw new Error(`${error.message}; its status: "${report.status}"`);
  });
  const box = frame.getBoundingClientRect();
  await executeServerCommand('engine-click', { x: box.left + report.at!.x, y: box.top + report.at!.y });
}

/** Opens the account page of a fresh saved method in a frame from `origin`; `frameOrigins`: its attribute. */
async function frameAccount(origin: string, frameOrigins?: string): Promise<HTMLIFrameElement> {
  await e2e('saved-method', { agreement_number: 'AG-1002' });
  const { session } = await e2e<{ session: string }>('session', { agreement: '1002' });
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;left:0;top:0;width:600px;height:500px;border:0';
  const query = new URLSearchParams({ session, ...(frameOrigins !== undefined && { 'frame-origins': frameOrigins }) });
  frame.src = `${origin}/__e2e/page/account?${query}`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  return frame;
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
