import { setTimeout as sleep } from "node:timers/promises";
import type { Decider } from "../domain/decider.ts";
import { ConcurrencyError } from "../eventstore/errors.ts";
import { chainEvents } from "../eventstore/hash-chain.ts";
import type { EventStore, JsonObject, NewEvent } from "../eventstore/port.ts";
import type { EventMetadata, Execution, KnownStream } from "./execute.ts";
import { type Batched, batchWhileBusy } from "../batching/batch-while-busy.ts";

interface Queued<Command> {
  command: Command;
  metadata: EventMetadata;
}

/** Per event store, per stream: the group commits of the stream, while any is queued or in flight. */
const streamsOf = new WeakMap<EventStore, Map<string, Batched<Queued<unknown>, unknown>>>();

/**
 * `execute` for a hot stream whose every event carries the whole state (a client's daily limit
 * usage, which all its racing sales write): commands that arrive while an append to the stream
 * is in flight wait, then are decided one after another and appended together in one round
 * trip, at the expected revision. Within a process they never conflict; across processes the
 * expected revision still serializes them, and a conflicting batch is decided again.
 */
export async function executeBatched<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  command: Command,
  metadata: EventMetadata,
): Promise<Execution<State, Event, Failure>> {
  let streams = streamsOf.get(store);
  if (!streams) streamsOf.set(store, (streams = new Map()));
  let commit = streams.get(streamId) as Batched<Queued<Command>, Execution<State, Event, Failure>> | undefined;
  if (!commit) {
    const forget = () => streams.delete(streamId);
    // While the stream stays busy, each batch starts from where the one before left it.
    let known: KnownStream<State> | undefined;
    const commitKnowing = async (batch: Queued<Command>[]) => {
      try {
        const committed = await commitBatch(store, decider, streamId, batch, known);
        known = committed.stream;
        return committed.results;
      } catch (error) {
        known = undefined;
        throw error;
      }
    };
    commit = batchWhileBusy(commitKnowing, { onIdle: forget });
    // A stream's commands all belong to one decider: each gets that decider's execution back.
    streams.set(streamId, commit as Batched<Queued<unknown>, unknown>);
  }
  return commit({ command, metadata });
}

const ATTEMPTS = 20;

interface Committed<State, Event, Failure extends string> {
  results: Execution<State, Event, Failure>[];
  /** The stream as the batch left it. */
  stream: KnownStream<State>;
}

/**
 * Decides the batch's commands one after another and appends their events at once. Decides
 * first on `known` (the stream as this process's last batch left it), else on the stream's last
 * event; a conflict, or a refusal decided on `known`, reads the stream again.
 */
async function commitBatch<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  batch: readonly Queued<Command>[],
  known: KnownStream<State> | undefined,
): Promise<Committed<State, Event, Failure>> {
  let trusted = known;
  for (let attempt = 1; ; attempt += 1) {
    const before = trusted ?? (await readLastEvent(store, decider, streamId));
    const last = before.tip;
    let state = before.state;
    const decided: (Execution<State, Event, Failure> | { accepted: Event[]; state: State; lastEvent: number })[] = [];
    const events: NewEvent[] = [];
    for (const { command, metadata } of batch) {
      const decision = decider.decide(command, state);
      if (!decision.ok) {
        decided.push({ ...decision, state });
        continue;
      }
      state = decision.events.reduce(decider.evolve, state);
      for (const event of decision.events) events.push({ type: event.type, data: event.data as JsonObject, metadata });
      decided.push({ accepted: decision.events, state, lastEvent: events.length - 1 });
    }
    const chained = chainEvents(streamId, last, events);
    const results = decided.map((result): Execution<State, Event, Failure> => {
      if (!("accepted" in result)) return result;
      const lastEvent = chained[result.lastEvent];
      const tip = lastEvent
        ? { revision: (last?.revision ?? -1n) + BigInt(result.lastEvent) + 1n, metadata: lastEvent.metadata ?? {} }
        : last;
      return { ok: true, events: result.accepted, state: result.state, tip };
    });
    // A refusal appends nothing, so no expected revision would catch a remembered state that
    // another process has since changed (a release, say): refusals are decided on a fresh read.
    if (trusted && decided.some((result) => "ok" in result && !result.ok)) {
      trusted = undefined;
      continue;
    }
    if (events.length === 0) return { results, stream: before };
    try {
      const appended = await store.append(streamId, chained, last ? last.revision : "no_stream");
      return { results, stream: { state, tip: { revision: appended.nextExpectedRevision, metadata: chained.at(-1)!.metadata ?? {} } } };
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= ATTEMPTS) throw error;
      trusted = undefined;
      // Another process wrote the stream: let it finish before deciding again.
      await sleep(Math.random() * Math.min(attempt, 10) * 2);
    }
  }
}

/** The stream's state from its last event alone: each event of these streams carries the whole state. */
async function readLastEvent<State, Event>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, Event, never>, "initialState" | "evolve">,
  streamId: string,
): Promise<KnownStream<State>> {
  const [last] = await store.readStream(streamId, { direction: "backwards", maxCount: 1 });
  return { state: last ? decider.evolve(decider.initialState(), last as unknown as Event) : decider.initialState(), tip: last };
}
