/**
 * Traces through OpenTelemetry's SDK, sent as OTLP/HTTP JSON to the configured endpoint. Loaded only when one is set
 * (traces.ts). Attributes are the semantic conventions' HTTP ones with templates, never values: no lookup value,
 * e-mail, token, header or query reaches a span.
 */
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
} from '@opentelemetry/semantic-conventions';
import { RelayError } from '../http/errors.js';
import type { Traces } from './traces.js';

/** `url.template`: still in the conventions' incubating set, which is not to be imported (its names may change). */
const ATTR_URL_TEMPLATE = 'url.template';
const NAME = 'billing-pay-relay';

export function otelTraces(options: { endpoint: string; billingBaseUrl: string }): Traces {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.endpoint }))],
  });
  const w3c = new W3CTraceContextPropagator();
  // Registers the AsyncLocalStorage context, so a billing call finds the request it serves.
  provider.register({ propagator: w3c });
  const tracer = provider.getTracer(NAME);
  const billing = new URL(options.billingBaseUrl);
  const billingServer = {
    [ATTR_SERVER_ADDRESS]: billing.hostname,
    [ATTR_SERVER_PORT]: Number(billing.port) || (billing.protocol === 'https:' ? 443 : 80),
  };

  return {
    request(incoming, run) {
      const parent = w3c.extract(ROOT_CONTEXT, incoming, defaultTextMapGetter);
      const attributes = { [ATTR_HTTP_REQUEST_METHOD]: incoming.method };
      return tracer.startActiveSpan(incoming.method, { kind: SpanKind.SERVER, attributes }, parent, async (span) => {
        try {
          const outcome = await run();
          if (outcome.route) {
            span.updateName(`${incoming.method} ${outcome.route}`);
            span.setAttribute(ATTR_HTTP_ROUTE, outcome.route);
          }
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.status);
          if (outcome.status >= 500) failed(span, outcome.error ?? String(outcome.status));
          else if (outcome.error) span.setAttribute(ATTR_ERROR_TYPE, outcome.error);
        } catch (error) {
          failed(span, errorType(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },

    billingCall(call, run) {
      const attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: call.method,
        [ATTR_URL_TEMPLATE]: call.route,
        ...billingServer,
      };
      const name = `${call.method} ${call.route}`;
      return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const headers: Record<string, string> = {};
        w3c.inject(trace.setSpan(context.active(), span), headers, defaultTextMapSetter);
        try {
          const answer = await run(headers);
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, answer.status);
          if (answer.status >= 400) failed(span, String(answer.status));
          return answer;
        } catch (error) {
          failed(span, errorType(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },

    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** A span's error, as a closed name: the relay's error code, never an error's message (which may hold anything). */
function errorType(error: unknown): string {
  return error instanceof RelayError ? error.code : '_OTHER';
}

function failed(span: Span, type: string) {
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
