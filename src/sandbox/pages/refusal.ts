/**
 * A refusal a page answers in the client's language: thrown like any `HTTPException` (so the API's JSON refusals and
 * the pages' share one `onError`), it carries the key of its text and, when the page knows it, the client's language.
 */
import { HTTPException } from 'hono/http-exception';
import { TEXTS, type PageTexts, type RefusalKey } from './texts.js';

export class PageRefusal extends HTTPException {
  constructor(
    status: 400 | 404,
    readonly key: RefusalKey,
    /** The texts of the page refused; without them, the request's language (`textsFor`). */
    readonly texts?: PageTexts,
  ) {
    super(status, { message: TEXTS.en.refusal[key] });
  }
}
