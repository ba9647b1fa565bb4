import { setTimeout as sleep } from "node:timers/promises";
import type { Decider } from "../domain/decider.ts";
import { ConcurrencyError } from "../eventstore/errors.ts";
import { chainEvents } from "../eventstore/hash-chain.ts";
import type { EventStore, JsonObject, NewEvent } from "../eventstore/port.ts";
import type { EventMetadata, Execution } from "./execute.ts";

interface Queued<Command> {
  command: Command;
  metadata: EventMetadata;
  resolve(execution: unknown): void;
  reject(error: unknown): void;
}

/** Per event store, per stream: the commands waiting for the stream's next group commit. */
const queues = new WeakMap<EventStore, Map<string, Queued<unknown>[]>>();

/**
 * `execute` for a hot stream whose every event carries the whole state (a client's daily limit
 * usage, which all its racing sales write): commands that arrive while an append to the stream
 * is in flight wait, then are decided one after another and appended together in one round
 * trip, at the expected revision. Within a process they never conflict; across processes the
 * expected revision still serializes them, and a conflicting batch is decided again.
 */
export function executeBatched<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  command: Command,
  metadata: EventMetadata,
): Promise<Execution<State, Event, Failure>> {
  let streams = queues.get(store);
  if (!streams) queues.set(store, (streams = new Map()));
  const waiting = streams.get(streamId);
  return new Promise((resolve, reject) => {
    // The queue of a stream holds commands of one decider: each gets that decider's execution back.
    const queued: Queued<Command> = {
      command,
      metadata,
      resolve: (execution) => resolve(execution as Execution<State, Event, Failure>),
      reject,
    };
    if (waiting) {
      waiting.push(queued as Queued<unknown>);
      return;
    }
    const queue = [queued];
    streams.set(streamId, queue as Queued<unknown>[]);
    void drain(store, decider, streamId, queue, streams);
  });
}

/** Commits the queue's commands in batches until it is empty, then forgets it. */
async function drain<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  queue: Queued<Command>[],
  streams: Map<string, Queued<unknown>[]>,
): Promise<void> {
  try {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        const results = await commitBatch(store, decider, streamId, batch);
        batch.forEach((queued, index) => queued.resolve(results[index]));
      } catch (error) {
        for (const queued of batch) queued.reject(error);
      }
    }
  } finally {
    streams.delete(streamId);
  }
}

const ATTEMPTS = 20;

async function commitBatch<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  batch: readonly Queued<Command>[],
): Promise<Execution<State, Event, Failure>[]> {
  for (let attempt = 1; ; attempt += 1) {
    const [last] = await store.readStream(streamId, { direction: "backwards", maxCount: 1 });
    let state = last ? decider.evolve(decider.initialState(), last as unknown as Event) : decider.initialState();
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
    if (events.length === 0) return results;
    try {
      await store.append(streamId, chained, last ? last.revision : "no_stream");
      return results;
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= ATTEMPTS) throw error;
      // Another process wrote the stream: let it finish before deciding again.
      await sleep(Math.random() * Math.min(attempt, 10) * 2);
    }
  }
}
