/**
 * The payment systems' hosted pages (`confirmation_url`): `GET /pay/{id}` shows the payment and a choice of test
 * card; `POST /pay/{id}` (`decision=pay|decline`, `card`) records the client's decision once and redirects 303 to the
 * system's return URL with `payment_id` and `status` in its query, or shows the outcome when there is none. No
 * credentials: the client is not the merchant.
 */
import { Hono, type Context } from 'hono';
import { SYSTEMS } from '../../eps/systems.js';
import { limitBody } from '../http.js';
import { TEST_CARDS, decidePayment, defaultCard } from '../billing/payment-decision.js';
import { textsFor } from './language.js';
import { outcomePage, paymentPage } from './payment-page.js';
import { PageRefusal } from './refusal.js';
import type { PageTexts } from './texts.js';
import { recordId, type Payment } from '../billing/records.js';
import type { SandboxState } from '../state.js';

export function hostedPages(state: SandboxState): Hono {
  const { store } = state;
  const routes = new Hono();
  routes.get('/:id', (c) => {
    const payment = hostedPayment(c);
    const t = textsOf(c, payment);
    if (payment.status !== 'pending') return c.html(outcomePage(t, payment, returnUrlOf(payment)));
    return c.html(
      paymentPage(
        t,
        payment,
        store.agreements.get(payment.agreement_id),
        defaultCard(store, payment.agreement_id, payment.system),
      ),
    );
  });

  routes.post('/:id', limitBody(4), async (c) => {
    const payment = hostedPayment(c);
    const t = textsOf(c, payment);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const decision = form.decision;
    if (decision !== 'pay' && decision !== 'decline') throw new PageRefusal(400, 'noDecision', t);
    const card = form.card ?? defaultCard(store, payment.agreement_id, payment.system);
    if (typeof card !== 'string' || !(TEST_CARDS as readonly string[]).includes(card))
      throw new PageRefusal(400, 'noCard', t);
    decidePayment(state, payment, decision, card);
    const target = returnUrlOf(payment);
    return target ? c.redirect(target, 303) : c.html(outcomePage(t, payment, undefined));
  });

  /** The page's texts: in the language of the address the client returns to, else of their browser. */
  function textsOf(c: Context, payment: Payment): PageTexts {
    return textsFor(c, payment.params[SYSTEMS[payment.system].returnUrl]);
  }

  function hostedPayment(c: Context): Payment {
    const id = recordId(c.req.param('id'));
    const payment = id === undefined ? undefined : store.payments.get(id);
    if (!payment) throw new PageRefusal(404, 'noPayment');
    return payment;
  }
  return routes;
}

/** Where the client goes after the decision, with `payment_id` and `status` in the query. */
function returnUrlOf(payment: Payment): string | undefined {
  const spec = SYSTEMS[payment.system];
  const failUrl = spec.failUrl && payment.status === 'declined' ? payment.params[spec.failUrl] : undefined;
  const base = typeof failUrl === 'string' ? failUrl : payment.params[spec.returnUrl];
  if (typeof base !== 'string' || payment.status === 'pending') return undefined;
  const url = new URL(base);
  url.searchParams.set('payment_id', String(payment.payment_id));
  url.searchParams.set('status', payment.status);
  return url.href;
}
