/**
 * The suite of e2e-return-tab*.test.ts (one file per language: each stays within the runner's time for a file in
 * WebKit). The payer's return in a new tab, end to end: a payment made through the real relay into the billing sandbox with the
 * attempt named in its return addresses (`Attempt.returnUrl`/`failUrl`, as `<billing-pay>` sends them), the
 * sandbox's payment page decides and answers its real redirect, and the merchant's page (pages/return.html) is opened
 * in a fresh page of the same browser (its own empty `sessionStorage`, the origin's `localStorage`) — and, for the
 * same tab, in a frame of this page.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { BillingPayReturnDetail } from '../../src/widget/events.js';
import { Attempt } from '../../src/widget/attempt.js';
import { FAILED_MARKER, PaymentReturn, RETURN_MARKER } from '../../src/widget/payment-return.js';
import { PaymentSender } from '../../src/widget/payment-sender.js';
import { buildPaymentRequest } from '../../src/widget/request.js';
import { e2e, type E2eStack } from './helpers.js';
import type { TabView } from './tab-commands.js';

const TIME_LIMIT = 30_000;
const PAGE = new URL('/test/widget/pages/return.html', location.href).href;
const CRAFTED_ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';

type ReturnFrame = HTMLIFrameElement & { contentWindow: Window & { returns: BillingPayReturnDetail[] } };
const host = { addController() {} } as unknown as ConstructorParameters<typeof PaymentReturn>[0];

const TEXTS = {
  en: {
    sent: (system: string) =>
      `Payment sent to System ${system} If you completed it on the payment page, the balance changes once System ${system} confirms it. This page cannot see the outcome: your receipt and balance will show it.`,
    not_completed: () => 'Payment not completed Nothing was charged. You can try again with the same details.',
  },
  ru: {
    sent: (system: string) =>
      `Платёж отправлен в «Система ${system}» Если вы завершили его на странице оплаты, баланс изменится, когда «Система ${system}» его подтвердит. Эта страница не видит результат: его покажут чек и баланс.`,
    not_completed: () => 'Платёж не завершён Деньги не списаны. Можно попробовать снова с теми же данными.',
  },
};

/** Opens `url` in a new page of this browser and answers what it showed. */
const newTab = (url: string, waitMs = 3000) =>
  executeServerCommand('engine-new-tab', { url, waitMs }) as Promise<TabView>;

/** Opens `url` in a frame of this tab and answers the same view of it. */
async function sameTab(url: string, waitMs = 3000): Promise<TabView & { frame: ReturnFrame }> {
  const frame = document.createElement('iframe') as ReturnFrame;
  const load = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = url;
  document.body.append(frame);
  await load;
  const el = () => frame.contentDocument?.querySelector('billing-pay');
  await waitUntil(() => frame.contentWindow?.returns && el()?.state === 'ready', `${url} did not get ready`, {
    timeout: 5000,
  });
  await waitUntil(() => frame.contentWindow.returns.length > 0, '', { timeout: waitMs }).catch(() => {});
  return {
    frame,
    ready: true,
    returns: frame.contentWindow.returns,
    // The result screen's heading and meaning, a space between them.
    message: [...(el()!.shadowRoot!.querySelector('[part="return"]')?.children ?? [])]
      .map((line) => line.textContent!.trim())
      .join(' '),
    href: frame.contentWindow.location.href,
    sessionAttempt: sessionStorage.getItem('billing-pay-return'),
    originAttempts: localStorage.getItem('billing-pay-returns'),
  };
}

/** The suite for the languages `langs`; `crafted`: also the addresses that must show nothing. */
export function returnTabSuite(langs: readonly ('en' | 'ru')[], crafted: boolean): void {
  describe(`<billing-pay> back in a new tab, or the same one (real relay and sandbox): ${langs.join(', ')}`, () => {
    let stack: E2eStack;
    const frames: HTMLIFrameElement[] = [];

    before(async () => {
      stack = await e2e<E2eStack>('stack');
    });
    beforeEach(() => {
      sessionStorage.clear();
      localStorage.clear();
    });
    afterEach(() => {
      for (const frame of frames.splice(0)) frame.remove();
      sessionStorage.clear();
      localStorage.clear();
    });

    /** Pays 12.30 to AG-1001 with `system`, as the element does, and answers the payment page and its id. */
    async function payAway(system: 'A' | 'B' | 'C', lang: string) {
      const attempt = new Attempt(new PaymentReturn(host));
      const back = `${PAGE}?lang=${lang}&relay=${encodeURIComponent(stack.relay)}`;
      const values = {
        system,
        amount: '12.30',
        lookupKind: 5,
        lookupValue: 'AG-1001',
        email: 'payer@example.com',
        phone: '+7 900 123-45-67',
        name: system === 'B' ? 'Ivan Petrov' : '',
        comment: 'November',
        save: false,
        linkOnly: false,
      };
      const request = buildPaymentRequest(
        { ...values, returnUrl: attempt.returnUrl(back), failUrl: attempt.failUrl(back) },
        { canSave: true, linkOnly: false },
      );
      const sent = await new PaymentSender(host).send(stack.relay, request);
      await attempt.remember(request, sent!.paymentId, back);
      return { url: sent!.url, paymentId: sent!.paymentId };
    }

    /** The payer's decision on the payment page: the address the sandbox sends them back to, and its attempt id. */
    async function decide(url: string, decision: 'pay' | 'decline') {
      const decided = await e2e<{ status: number; location: string }>('decide', { url, decision });
      expect(decided.status).to.equal(303);
      const query = new URL(decided.location).searchParams;
      return { location: decided.location, id: query.get(RETURN_MARKER) ?? query.get(FAILED_MARKER)! };
    }

    const cases = [
      { system: 'A', decision: 'pay', outcome: 'sent' },
      { system: 'B', decision: 'pay', outcome: 'sent' },
      { system: 'B', decision: 'decline', outcome: 'not_completed' },
      { system: 'C', decision: 'pay', outcome: 'sent' },
    ] as const;

    for (const lang of langs) {
      for (const { system, decision, outcome } of cases) {
        for (const where of ['new tab', 'same tab'] as const) {
          it(`${lang}: ${system}, ${decision} → “${outcome}” in the ${where}, said once, markers gone`, async function () {
            this.timeout(TIME_LIMIT);
            const before = Date.now();
            const { url, paymentId } = await payAway(system, lang);
            const back = await decide(url, decision);
            const marker = outcome === 'sent' ? RETURN_MARKER : FAILED_MARKER;
            expect(new URL(back.location).searchParams.get(marker), 'the address names the attempt').to.equal(back.id);

            const view: TabView & { frame?: ReturnFrame } =
              where === 'new tab' ? await newTab(back.location) : await sameTab(back.location);
            if (view.frame) frames.push(view.frame);
            expect(view.returns).to.have.length(1);
            const detail = view.returns[0] as BillingPayReturnDetail;
            expect(detail).to.deep.include({
              system,
              amount: '12.30',
              lookup: 5,
              agreement: 'AG-1001',
              paymentId,
              outcome,
            });
            expect(Date.parse(detail.time)).to.be.within(before - 10_000, Date.now());
            expect(view.message).to.equal(TEXTS[lang][outcome](system));
            const address = new URL(view.href);
            expect(address.searchParams.has(RETURN_MARKER) || address.searchParams.has(FAILED_MARKER)).to.equal(false);
            expect(address.searchParams.get('lang')).to.equal(lang);
            // Said once: the origin forgets it, and so does the tab it was said in.
            expect(view.originAttempts ?? '').to.not.contain(back.id);
            expect(view.sessionAttempt ?? '').to.not.contain(back.id);

            if (where === 'same tab') return;
            // The same address again, in another tab, says nothing.
            const again = await newTab(back.location, 300);
            expect(again.returns).to.deep.equal([]);
            expect(again.message).to.equal('');
          });
        }
      }
    }

    if (!crafted) return;

    it('a crafted address says nothing in a new tab: a marker the origin does not remember, or for another page', async function () {
      this.timeout(TIME_LIMIT);
      const relay = encodeURIComponent(stack.relay);
      for (const query of [
        `?${RETURN_MARKER}=${CRAFTED_ID}&payment_id=999&status=succeeded`,
        `?${FAILED_MARKER}=${CRAFTED_ID}&payment_id=999&status=declined`,
      ]) {
        const view = await newTab(`${PAGE}${query}&relay=${relay}`, 300);
        expect(view.returns, query).to.deep.equal([]);
        expect(view.message, query).to.equal('');
        expect(view.href, query).to.not.match(/billing-pay-(return|failed)/);
      }
      // A real attempt's id, on another page of the origin than the one it returns to.
      const { url } = await payAway('C', 'en');
      const back = await decide(url, 'pay');
      const elsewhere = new URL(back.location);
      elsewhere.pathname = elsewhere.pathname.replace('return.html', 'return.html/');
      const view = await newTab(elsewhere.href, 300);
      expect(view.returns).to.deep.equal([]);
    });

    it('an attempt older than the maximum age (an hour) is not believed in a new tab, and is pruned', async function () {
      this.timeout(TIME_LIMIT);
      const { url } = await payAway('C', 'en');
      const back = await decide(url, 'pay');
      const kept = JSON.parse(localStorage.getItem('billing-pay-returns')!) as { time: string }[];
      localStorage.setItem(
        'billing-pay-returns',
        JSON.stringify(kept.map((a) => ({ ...a, time: new Date(Date.now() - 3_601_000).toISOString() }))),
      );
      const view = await newTab(back.location, 300);
      expect(view.returns).to.deep.equal([]);
      expect(view.message).to.equal('');
      expect(view.originAttempts).to.equal(null);
    });
  });
}
