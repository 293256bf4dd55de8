/** What the relay's routes and middleware share on a request's context: Hono's `Env` type parameter (no `.env`). */
import type { RequestIdVariables } from 'hono/request-id';
import type { ValidPayment } from '../../eps/request.js';
import type { ClientSession } from '../session/client-session.js';

export type RelayContext = {
  Variables: RequestIdVariables & {
    /** The request after validation by the shared model. */
    payment: ValidPayment;
    /** The verified client session of `/session` and `/payment-methods`. */
    session: ClientSession;
    /** What a route adds to the request's one log line. */
    logFields: Record<string, unknown>;
    /** The text of the JSON answer being sent, kept for the idempotency store (reading it back costs a web stream). */
    answerText: string;
    /** Set by the idempotency middleware: resolves once the payment may leave for the billing (its claim is marked). */
    beforeBilling: (() => Promise<void>) | undefined;
  };
};
