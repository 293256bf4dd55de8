/**
 * Reads a relay's counters from its `GET /metrics` (Prometheus text) on its metrics listener (`METRICS_PORT`), for the
 * bench and the end-to-end tests.
 */

/** `GET /config` requests the relay has answered with 200 so far (`relay_http_requests_total`). */
export async function configRequests(metricsUrl: string): Promise<number> {
  const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = metrics
    .split('\n')
    .find(
      (l) =>
        l.startsWith('relay_http_requests_total{') &&
        ['route="/config"', 'method="GET"', 'status="200"'].every((label) => l.includes(label)),
    );
  return Number(line?.split(' ').at(-1) ?? 0);
}
