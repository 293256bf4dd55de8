/**
 * The relay's traces as the rest of the relay sees them: a span around each request and each billing call. Without an
 * OTLP endpoint there are none and no OpenTelemetry module is loaded; with one, otel.ts is imported (a chunk of its own
 * in the bundle, see scripts/build-servers.ts).
 */
import type { RelayConfig } from '../config/load.js';

/** What a request's span may say of it: never a header, a path with values in it, nor a query. */
export interface RequestOutcome {
  /** The matched route (`/payments`, `/payment-methods/:id`), or none. */
  route?: string;
  status: number;
  /** The relay's error code (`billing_timeout`…), when it answered one. */
  error?: string;
}

export interface Traces {
  /** Runs a request in its span, a child of the caller's `traceparent` (W3C Trace Context) when it sent one. */
  request(
    incoming: { method: string; traceparent?: string; tracestate?: string },
    run: () => Promise<RequestOutcome>,
  ): Promise<void>;
  /**
   * Runs a billing call in its span; `run` sends the headers it is given (`traceparent`, `tracestate`) with the call.
   * `route` is the billing's path template (`/payment_methods/{id}`), never the path with its values.
   */
  billingCall<T extends { status: number }>(
    call: { operation: string; method: string; route: string },
    run: (headers: Record<string, string>) => Promise<T>,
  ): Promise<T>;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

export type TracesConfig = Pick<RelayConfig, 'tracesEndpoint' | 'billingBaseUrl'>;

/** The relay's traces: none (undefined) without an endpoint, and then no OpenTelemetry code is even loaded. */
export async function loadTraces(config: TracesConfig): Promise<Traces | undefined> {
  if (!config.tracesEndpoint) return undefined;
  const { otelTraces } = await import('./otel.js');
  return otelTraces({ endpoint: config.tracesEndpoint, billingBaseUrl: config.billingBaseUrl });
}
