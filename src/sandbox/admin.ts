/**
 * The sandbox's own controls, outside the billing API: the client cards (`GET /`, `GET /agreements/{id}`), the
 * "Disable autopayment" form (`POST /agreements/{id}/payment-methods/{method}/disable`, then back to the card), and
 * the clock (`GET /sandbox/clock`; `POST /sandbox/clock` with JSON `{"advance": "P1D"}`, `{"advance": 3600}`
 * (seconds) or `{"to": "2026-11-30T00:00:00Z"}`, answered with what the billing did on the way; or the same as a form
 * from the pages, answered with a redirect back to `return_to?jump=N`, where the page says what jump N did). Like the
 * hosted pages, they need no token: a local sandbox only.
 */
import type { Context, Env as HonoEnv, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { agreementPage, homePage, type ReportedJump } from './card-pages.js';
import type { SandboxState } from './app.js';
import { messagePage } from './pages.js';
import type { ClockJump } from './scheduler.js';

/** How many of the latest moves made with the pages' forms can still be shown (`?jump=N`). */
const JUMPS_KEPT = 20;

export function mountAdmin<E extends HonoEnv>(app: Hono<E>, state: SandboxState): void {
  const { store, scheduler, clock } = state;
  /** The latest moves made with the forms, by number, so the page they return to can report them. */
  const jumps = new Map<number, ReportedJump>();
  let nextJump = 1;
  const jumpOf = (c: Context) => {
    const text = c.req.query('jump') ?? '';
    return /^[1-9]\d{0,9}$/.test(text) ? jumps.get(Number(text)) : undefined;
  };
  const small = bodyLimit({ maxSize: 4 * 1024, onError: () => { throw new HTTPException(413, { message: 'the body is larger than 4 KB' }); } });

  app.get('/', (c) => c.html(homePage(state, jumpOf(c))));

  app.get('/agreements/:id', (c) => c.html(agreementPage(state, agreementOf(c.req.param('id')), jumpOf(c))));

  app.post('/agreements/:id/payment-methods/:method/disable', small, (c) => {
    const agreement = agreementOf(c.req.param('id'));
    const text = c.req.param('method') ?? '';
    const method = /^[1-9]\d{0,14}$/.test(text) ? store.paymentMethods.get(Number(text)) : undefined;
    if (!method || method.agreement_id !== agreement.agreement_id) throw new HTTPException(404, { message: 'This agreement has no such payment method.' });
    store.disableMethod(method);
    return c.redirect(`/agreements/${agreement.agreement_id}`, 303);
  });

  app.get('/sandbox/clock', (c) =>
    c.json({ now: clock.now().toISOString(), frozen: clock.frozen, autopayment_lead_days: scheduler.leadDays }, 200, { 'Cache-Control': 'no-store' }),
  );

  app.post('/sandbox/clock', small, async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (/^application\/json\s*(?:;|$)/i.test(type)) {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return clockError(c, 400, 'the body is not valid JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return clockError(c, 400, 'send a JSON object: {"advance": "P1D"}, {"advance": 3600} or {"to": "2026-11-30T00:00:00Z"}');
      const unknown = Object.keys(body).filter((key) => key !== 'advance' && key !== 'to');
      if (unknown.length) return clockError(c, 400, `${unknown[0]}: not a field of this request (advance, to)`);
      try {
        const jump = scheduler.move(body as { advance?: unknown; to?: unknown }, 's');
        return c.json({ now: jump.to, from: jump.from, events: jump.events }, 200, { 'Cache-Control': 'no-store' });
      } catch (error) {
        if (error instanceof RangeError) return clockError(c, 400, error.message);
        throw error;
      }
    }
    if (!/^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i.test(type)) {
      return clockError(c, 415, 'send JSON (Content-Type: application/json) or the form of the sandbox pages');
    }
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === 'string' && form[name] !== '' ? form[name] : undefined);
    let jump: ClockJump;
    try {
      jump = scheduler.move({ advance: field('advance'), to: field('to') }, 's');
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return c.html(messagePage('The clock did not move', error.message), 400);
    }
    const number = nextJump++;
    jumps.set(number, { ...jump, number });
    jumps.delete(number - JUMPS_KEPT);
    return c.redirect(`${localPath(field('return_to'))}?jump=${number}`, 303);
  });

  function agreementOf(id: string | undefined) {
    const text = id ?? '';
    const agreement = /^[1-9]\d{0,14}$/.test(text) ? store.agreements.get(Number(text)) : undefined;
    if (!agreement) throw new HTTPException(404, { message: 'There is no agreement with this id.' });
    return agreement;
  }
}

function clockError(c: Context, status: 400 | 415, message: string) {
  return c.json({ code: status, error: { message } }, status);
}

/** A path on this sandbox to go back to (`/`, `/agreements/1001`); anything else goes home. */
function localPath(value: string | undefined): string {
  return value && /^\/(?!\/)[\w\-./]*$/.test(value) ? value : '/';
}
