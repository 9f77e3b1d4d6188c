import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/** Tracer name of the indexing queue's spans. */
export const QUEUE_TRACER = '@monorag/indexer/queue';

/**
 * The active trace context serialised with the globally registered propagator (W3C `traceparent`
 * when an OpenTelemetry SDK is registered; empty without one), to travel inside job data.
 */
export function injectTraceContext(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `fn` inside a span named `name` whose parent is the context extracted from `carrier`, so the
 * worker's span continues the trace that enqueued the job. The span records an exception and ends
 * when `fn` settles.
 */
export async function withJobSpan<T>(name: string, carrier: Record<string, string>, attributes: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  return trace.getTracer(QUEUE_TRACER).startActiveSpan(name, { attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
