import { SpanKind, type Tracer } from "@opentelemetry/api";
import { bindAll } from "../api/metrics.ts";
import { ConcurrencyError } from "../eventstore/errors.ts";
import type { EventStore } from "../eventstore/port.ts";
import { inSpan } from "./spans.ts";

/** The store with a span for each append: its stream, its events' types, the revision it expected and the one it made. */
export function tracedEventStore(store: EventStore, tracer: Tracer): EventStore {
  return {
    ...bindAll(store),
    append: (streamId, events, expected) =>
      inSpan(
        tracer,
        "append",
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "ledger.stream": streamId,
            "ledger.events": events.length,
            "ledger.event_types": events.map((event) => event.type),
            "ledger.expected_revision": String(expected),
          },
        },
        async (span) => {
          try {
            const appended = await store.append(streamId, events, expected);
            span.setAttribute("ledger.next_revision", appended.nextExpectedRevision.toString());
            return appended;
          } catch (error) {
            if (error instanceof ConcurrencyError) span.setAttribute("ledger.actual_revision", String(error.actual));
            throw error;
          }
        },
      ),
  };
}
