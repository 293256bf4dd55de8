/**
 * The HTTP pieces every part of the sandbox shares: the one error body, the body-size limit, and what counts as a
 * JSON request.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { isJsonMediaType } from '../eps/media-type.js';

/** Every refusal in JSON: `{code, error: {message}}`, sent with the HTTP status `code`. */
export function errorBody(code: number, message: string) {
  return { code, error: { message } };
}

/** Refuses a body over `kb` KB with 413, answered by the app's error handler like any other refusal. */
export function limitBody(kb: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: kb * 1024,
    onError: () => {
      throw new HTTPException(413, { message: `the body is larger than ${kb} KB` });
    },
  });
}

/** Whether the request says its body is JSON (`application/json`, parameters allowed). */
export function isJsonType(c: Context): boolean {
  return isJsonMediaType(c.req.header('content-type'));
}
