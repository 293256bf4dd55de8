import type { Dispatcher } from 'undici';

/**
 * One request and its whole answer, through undici's handler interface: the answer's bytes are gathered in a list
 * (`request()` makes a Readable stream of each answer and reads it back, measured at about a tenth of the relay's CPU
 * per payment). The pool's limits hold as for `request()`: connect, headers and body timeouts, `maxResponseSize`.
 * `timeoutMs` limits the whole call (a billing dripping its answer passes the per-step timeouts): the call fails then,
 * and is aborted on the wire, or never sent if it still waits for a connection.
 */
export function exchange(
  pool: Dispatcher,
  options: Pick<Dispatcher.DispatchOptions, 'method' | 'path' | 'headers' | 'body'>,
  timeoutMs: number,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut: Error | undefined;
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      // Named as `AbortSignal.timeout`'s reason is: upstreamError reads it as a timeout.
      timedOut = new DOMException('The billing call took longer than its time limit.', 'TimeoutError');
      controller?.abort(timedOut);
      reject(timedOut);
    }, timeoutMs);
    pool.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (timedOut) started.abort(timedOut);
      },
      onResponseStart(_, statusCode, responseHeaders) {
        // Called again after a 1xx: only the final answer counts.
        status = statusCode;
        headers = responseHeaders;
        chunks = [];
      },
      onResponseData(_, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        clearTimeout(deadline);
        const text = Buffer.concat(chunks).toString('utf8');
        // A byte-order mark is dropped, as a web `text()` drops it.
        resolve({ status, headers, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
      },
      onResponseError(_, error) {
        clearTimeout(deadline);
        reject(error);
      },
    });
  });
}
