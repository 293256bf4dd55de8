/**
 * HTTP load with autocannon. Latency percentiles are computed here from every response's own time (autocannon's
 * histogram rounds to whole milliseconds, too coarse for a loopback call that takes a fraction of one).
 *
 * The percentiles leave out the first answer on each connection. All connections are opened at once, and a server
 * already busy with the first ones takes on the others slowly (seen here: one new connection about every 50 ms), so
 * the last of 200 waits seconds for its first answer. That is the load generator's ramp-up, not the steady state;
 * the slowest answer, those included, is `max`.
 */
import autocannon, { type Options } from 'autocannon';

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Changes each request before it is sent (a fresh `Idempotency-Key`, say). */
  setupRequest?: NonNullable<Options['requests']>[number]['setupRequest'];
}

export interface LoadResult {
  /** Completed requests per second over the measured window. */
  rps: number;
  /** Milliseconds, leaving out each connection's first answer. */
  p50: number;
  p99: number;
  total: number;
  /** Answers that were not 2xx, and requests that got no answer (errors, of which timeouts are a part). */
  failed: number;
  /** Requests without an answer within the time limit (30 s). */
  timeouts: number;
  /** The slowest answer, first answers on each connection included, in milliseconds. */
  max: number;
  seconds: number;
}

/**
 * `connections` closed-loop connections for `seconds`, after a `warmupSeconds` run of the same load; `between` runs
 * after the warm-up, just before the measured run.
 */
export async function measure(
  target: Target,
  connections: number,
  seconds: number,
  warmupSeconds: number,
  between?: () => Promise<void>,
): Promise<LoadResult> {
  if (warmupSeconds > 0) await run(target, { connections, duration: warmupSeconds });
  await between?.();
  return run(target, { connections, duration: seconds });
}

/** Exactly `amount` requests over `connections` connections. */
export function fire(target: Target, connections: number, amount: number): Promise<LoadResult> {
  return run(target, { connections, amount });
}

async function run(
  target: Target,
  load: { connections: number; duration?: number; amount?: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const connected = new Set<unknown>();
  let max = NaN;
  const started = performance.now();
  const instance = autocannon({
    url: target.url,
    method: target.method ?? 'POST',
    headers: target.headers ?? {},
    ...(target.body !== undefined && { body: target.body }),
    ...(target.setupRequest && { requests: [{ setupRequest: target.setupRequest }] }),
    timeout: 30,
    ...load,
  });
  instance.on('response', (client: unknown, _status: number, _bytes: number, ms: number) => {
    if (!(ms <= max)) max = ms;
    if (connected.has(client)) latencies.push(ms);
    else connected.add(client);
  });
  const result = await instance;
  const seconds = result.duration || (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    total: result.requests.total,
    failed: result.non2xx + result.errors,
    timeouts: result.timeouts,
    max,
    seconds,
  };
}

function percentile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
