/**
 * The sandbox's pages for people: the client cards (`GET /`, `GET /agreements/{id}`, readable without credentials),
 * and their forms, which need the sandbox's Basic credentials (the browser asks once) and a same-origin post: "Disable
 * autopayment" (`POST /agreements/{id}/payment-methods/{method}/disable`, then back to the card) and the clock
 * (`POST /clock`, then back to `return_to?jump=N`, where the page says what jump N did), "Stop the clock" / "Let the
 * clock run" (`POST /clock/freeze`, `/clock/unfreeze`) and "Reset to the seed data" (`POST /reset`), each back to
 * `return_to`. The forms call the same operations as the JSON control API (`../operations.ts`).
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { agreementPage, homePage } from './card-pages.js';
import { refuseCrossSite } from '../cross-site.js';
import { limitBody } from '../http.js';
import type { ReportedJump } from './clock-panel.js';
import { OperationError, disableMethod, freezeClock, moveClock, reset, unfreezeClock } from '../operations.js';
import { textsFor } from './language.js';
import { messagePage } from './layout.js';
import { PageRefusal } from './refusal.js';
import { TEXTS } from './texts.js';
import { recordId } from '../billing/records.js';
import type { ClockJump } from '../billing/scheduler.js';
import type { SandboxState } from '../state.js';

/** How many of the latest moves made with the pages' forms can still be shown (`?jump=N`). */
const JUMPS_KEPT = 20;

/** `publicUrl`: the origin clients reach the sandbox at, when configured (`SANDBOX_PUBLIC_URL`). */
export function adminPages(state: SandboxState, auth: MiddlewareHandler, publicUrl?: string): Hono {
  const { store } = state;
  const routes = new Hono();
  /** The latest moves made with the forms, by number, so the page they return to can report them. */
  const jumps = new Map<number, ReportedJump>();
  let nextJump = 1;
  const jumpOf = (c: Context) => {
    const text = c.req.query('jump') ?? '';
    return /^[1-9]\d{0,9}$/.test(text) ? jumps.get(Number(text)) : undefined;
  };
  const form = [refuseCrossSite(publicUrl), auth, limitBody(4)] as const;

  routes.get('/', (c) => c.html(homePage(state, textsFor(c), jumpOf(c))));

  routes.get('/agreements/:id', (c) =>
    c.html(agreementPage(state, textsFor(c), agreementOf(c.req.param('id')), jumpOf(c))),
  );

  routes.post('/agreements/:id/payment-methods/:method/disable', ...form, (c) => {
    const agreement = agreementOf(c.req.param('id'));
    try {
      disableMethod(state, agreement.agreement_id, recordId(c.req.param('method')) ?? 0);
    } catch (error) {
      if (error instanceof OperationError)
        throw new HTTPException(404, { message: 'This agreement has no such payment method.' });
      throw error;
    }
    return c.redirect(`/agreements/${agreement.agreement_id}`, 303);
  });

  routes.post('/clock', ...form, async (c) => {
    const body = await c.req.parseBody();
    const field = (name: string) => (typeof body[name] === 'string' && body[name] !== '' ? body[name] : undefined);
    let jump: ClockJump;
    try {
      jump = moveClock(state, { advance: field('advance'), to: field('to') });
    } catch (error) {
      if (!(error instanceof OperationError)) throw error;
      return c.html(messagePage(TEXTS.en, 'The clock did not move', error.message), 400);
    }
    const number = nextJump++;
    jumps.set(number, { ...jump, number });
    jumps.delete(number - JUMPS_KEPT);
    return c.redirect(`${localPath(field('return_to'))}?jump=${number}`, 303);
  });

  // The clock's state and the seed, as the control API's POST /sandbox/clock/freeze, …/unfreeze and /sandbox/reset.
  const back = async (c: Context) => {
    const body = await c.req.parseBody();
    return c.redirect(localPath(typeof body.return_to === 'string' ? body.return_to : undefined), 303);
  };
  routes.post('/clock/freeze', ...form, (c) => (freezeClock(state), back(c)));
  routes.post('/clock/unfreeze', ...form, (c) => (unfreezeClock(state), back(c)));
  routes.post('/reset', ...form, (c) => (reset(state), back(c)));

  function agreementOf(text: string | undefined) {
    const id = recordId(text);
    const agreement = id === undefined ? undefined : store.agreements.get(id);
    if (!agreement) throw new PageRefusal(404, 'noAgreement');
    return agreement;
  }
  return routes;
}

/** A path on this sandbox to go back to (`/`, `/agreements/1001`); anything else goes home. */
function localPath(value: string | undefined): string {
  return value && /^\/(?!\/)[\w\-./]*$/.test(value) ? value : '/';
}
