import type { Decider } from "../domain/decider.ts";
import { ConcurrencyError } from "../eventstore/errors.ts";
import { chainEvents } from "../eventstore/hash-chain.ts";
import type { EventStore, JsonObject, NewEvent } from "../eventstore/port.ts";
import { type EventMetadata, type Execution, type KnownStream, readStream } from "./execute.ts";
import { type Batched, batchWhileBusy } from "../batching/batch-while-busy.ts";
import type { Tracer } from "@opentelemetry/api";
import { inSpan } from "../telemetry/spans.ts";
import { retry, type RetryPolicy } from "../retry/retry.ts";

interface Queued<State, Command> {
  command: Command;
  metadata: EventMetadata;
  known: KnownStream<State> | undefined;
}

export interface BatchedOptions<State> {
  /** Fold only the stream's last event: for streams whose every event carries the whole state. */
  lastEventOnly?: boolean;
  /** What the caller knows of the stream; used when this process holds no fresher view of it. */
  known?: KnownStream<State>;
  /** Another process's append landing on the stream: decide the batch again on the fresh stream under it. */
  retryPolicy: RetryPolicy;
}

/**
 * `execute` for streams that many requests write at once (a payment's racing captures and
 * refunds, a client's daily limit usage): commands that arrive while an append to the stream is
 * in flight wait, then are decided one after another on the state the last append left and
 * appended together in one round trip, at the expected revision. Within a service they never
 * conflict; across services and processes the expected revision still serializes them, and a
 * conflicting batch is decided again on the fresh stream until it lands (the stream handler's
 * policy, `hotStreamRevisionConflict`): a command that fits never fails because another one raced it.
 *
 * One per service and its event store (made in `src/service.ts`, on the contexts as
 * `registries.groupCommits`). It holds a stream's queue only while an append to it is queued or
 * in flight, so it is bounded by the requests in flight (and each queue by `batchWhileBusy`).
 */
export class GroupCommits {
  readonly #store: EventStore;
  readonly #tracer: Tracer;
  readonly #streams = new Map<string, Batched<Queued<unknown, unknown>, unknown>>();

  constructor(store: EventStore, tracer: Tracer) {
    this.#store = store;
    this.#tracer = tracer;
  }

  /** The command decided and appended, in a span: its stream, and what was decided (the events, or the refusal). */
  execute<State, Command extends { type: string }, Event extends { type: string; data: object }, Failure extends string>(
    decider: Decider<State, Command, Event, Failure>,
    streamId: string,
    command: Command,
    metadata: EventMetadata,
    options: BatchedOptions<State>,
  ): Promise<Execution<State, Event, Failure>> {
    const attributes = { "ledger.command": command.type, "ledger.stream": streamId };
    return inSpan(this.#tracer, `decide ${command.type}`, { attributes }, async (span) => {
      const execution = await this.#execute(decider, streamId, command, metadata, options);
      span.setAttributes(
        execution.ok
          ? { "ledger.decision": "accepted", "ledger.events": execution.events.map((event) => event.type) }
          : { "ledger.decision": "refused", "ledger.refusal": execution.error },
      );
      return execution;
    });
  }

  #execute<State, Command, Event extends { type: string; data: object }, Failure extends string>(
    decider: Decider<State, Command, Event, Failure>,
    streamId: string,
    command: Command,
    metadata: EventMetadata,
    { lastEventOnly = false, known, retryPolicy }: BatchedOptions<State>,
  ): Promise<Execution<State, Event, Failure>> {
    const streams = this.#streams;
    type Commit = Batched<Queued<State, Command>, Execution<State, Event, Failure>>;
    let commit = streams.get(streamId) as Commit | undefined;
    if (!commit) {
      const store = this.#store;
      // While the stream stays busy, each batch starts from where the one before left it.
      let left: KnownStream<State> | undefined;
      const forget = () => streams.delete(streamId);
      const commitKnowing = async (batch: Queued<State, Command>[]) => {
        try {
          const committed = await commitBatch(store, decider, streamId, batch, left ?? batch[0]!.known, { lastEventOnly, retryPolicy });
          left = committed.stream;
          return committed.results;
        } catch (error) {
          left = undefined;
          throw error;
        }
      };
      commit = batchWhileBusy(commitKnowing, { onIdle: forget });
      // A stream's commands all belong to one decider: each gets that decider's execution back.
      streams.set(streamId, commit as Batched<Queued<unknown, unknown>, unknown>);
    }
    return commit({ command, metadata, known });
  }
}

interface Committed<State, Event, Failure extends string> {
  results: Execution<State, Event, Failure>[];
  /** The stream as the batch left it. */
  stream: KnownStream<State>;
}

/**
 * Decides the batch's commands one after another and appends their events at once. Decides
 * first on `known` (the stream as this process last left it, or as the caller knows it), else on
 * the stream read afresh; a conflict, or a refusal decided on `known`, reads the stream again.
 */
async function commitBatch<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  batch: readonly Queued<State, Command>[],
  known: KnownStream<State> | undefined,
  { lastEventOnly, retryPolicy }: { lastEventOnly: boolean; retryPolicy: RetryPolicy },
): Promise<Committed<State, Event, Failure>> {
  let trusted = known;
  // Only a conflict on this stream means another process wrote it; any other is thrown.
  const policy = {
    ...retryPolicy,
    retries: (error: unknown) => error instanceof ConcurrencyError && error.streamId === streamId && retryPolicy.retries(error),
  };
  return retry(policy, async () => {
    let decided = decideBatch(decider, streamId, batch, trusted ?? (await readStream(store, decider, streamId, lastEventOnly)));
    // A refusal appends nothing, so no expected revision would catch a remembered state that
    // another process has since changed (a release, say): refusals are decided on a fresh read.
    if (trusted && decided.refused) decided = decideBatch(decider, streamId, batch, await readStream(store, decider, streamId, lastEventOnly));
    const { results, before, state, chained } = decided;
    if (chained.length === 0) return { results, stream: before };
    try {
      const expected = before.tip ? before.tip.revision : "no_stream";
      const appended = await store.append(streamId, chained, expected);
      return { results, stream: { state, tip: { revision: appended.nextExpectedRevision, metadata: chained.at(-1)!.metadata ?? {} } } };
    } catch (error) {
      // Another process wrote the stream, so it made progress: let it finish, then decide again.
      trusted = undefined;
      throw error;
    }
  });
}

/** The batch's commands decided one after another on `before`, and the events of those accepted, chained. */
export function decideBatch<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  batch: readonly Queued<State, Command>[],
  before: KnownStream<State>,
) {
  const last = before.tip;
  let state = before.state;
  const decided: (Execution<State, Event, Failure> | { accepted: Event[]; before: State; state: State; lastEvent: number })[] = [];
  const events: NewEvent[] = [];
  for (const { command, metadata } of batch) {
    const decision = decider.decide(command, state);
    if (!decision.ok) {
      decided.push({ ...decision, state });
      continue;
    }
    const decidedOn = state;
    state = decision.events.reduce(decider.evolve, state);
    for (const event of decision.events) events.push({ type: event.type, data: event.data as JsonObject, metadata });
    decided.push({ accepted: decision.events, before: decidedOn, state, lastEvent: events.length - 1 });
  }
  const chained = chainEvents(streamId, last, events);
  const results = decided.map((result): Execution<State, Event, Failure> => {
    if (!("accepted" in result)) return result;
    const lastEvent = chained[result.lastEvent];
    const tip = lastEvent
      ? { revision: (last?.revision ?? -1n) + BigInt(result.lastEvent) + 1n, metadata: lastEvent.metadata ?? {} }
      : last;
    return { ok: true, events: result.accepted, state: result.state, before: result.before, tip };
  });
  const refused = decided.some((result) => "ok" in result && !result.ok);
  return { results, before, state, chained, refused };
}
