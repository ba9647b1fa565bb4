import { SpanKind, type Tracer } from "@opentelemetry/api";
import { ConcurrencyError } from "../eventstore/errors.ts";
import type { EventStore } from "../eventstore/port.ts";
import { inSpan } from "./spans.ts";

/** How an append ended, as its latency is counted. */
export type AppendOutcome = "ok" | "conflict" | "error";

export interface AppendObserver {
  observeAppend: (outcome: AppendOutcome, seconds: number) => void;
}

/** The store with every append timed. */
export function timedEventStore(store: EventStore, observer: AppendObserver): EventStore {
  async function timed<Result>(append: () => Promise<Result>): Promise<Result> {
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    try {
      const result = await append();
      observer.observeAppend("ok", seconds());
      return result;
    } catch (error) {
      observer.observeAppend(error instanceof Error && error.name === "ConcurrencyError" ? "conflict" : "error", seconds());
      throw error;
    }
  }
  return {
    ...bindAll(store),
    append: (streamId, events, expected) => timed(() => store.append(streamId, events, expected)),
    appendLinked: (appends) => timed(() => store.appendLinked(appends)),
  };
}

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

/** The store's methods bound to it, for wrappers that replace a few. */
function bindAll(store: EventStore): EventStore {
  return {
    append: store.append.bind(store),
    appendLinked: store.appendLinked.bind(store),
    readStream: store.readStream.bind(store),
    readStreams: store.readStreams.bind(store),
    readAll: store.readAll.bind(store),
    readHead: store.readHead.bind(store),
    hasEventsAfter: store.hasEventsAfter.bind(store),
    subscribe: store.subscribe.bind(store),
    close: store.close.bind(store),
  };
}
