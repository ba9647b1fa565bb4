import type { Decider } from "../domain/decider.ts";
import { fold } from "../domain/decider.ts";
import { ConcurrencyError } from "../eventstore/errors.ts";
import type { StreamTip } from "../eventstore/hash-chain.ts";
import type { ReadStreamOptions, RecordedEvent } from "../eventstore/port.ts";
import { narrowEvents, type Recorded, readEvents } from "../eventstore/typed-read.ts";
import type { RetryPolicy } from "../retry/retry.ts";
import type { CommandContext } from "./context.ts";
import { decideBatch } from "./execute-batched.ts";
import { type EventMetadata, type Execution, execute, type KnownStream, readStream } from "./execute.ts";

export interface StreamKind<State, Command, Event, Failure extends string, Id = string> {
  decider: Decider<State, Command, Event, Failure>;
  /** The stream of an id: `payment-<id>`, `client-<id>`, … */
  streamId: (id: Id) => string;
  /** A write by another writer between the read and the append: read, decide and append again, under this policy. */
  retryPolicy: RetryPolicy;
  /**
   * Commands racing on one stream in this service wait for the append in flight, then are decided
   * one after another and appended together (`GroupCommits`): for the streams many requests write at once.
   */
  groupCommit?: boolean;
  /** Every event of the stream carries the whole state: reading it is reading its last event. */
  lastEventOnly?: boolean;
}

export interface HandleOptions<State> {
  /** The stream as the caller knows it, decided on first; a write by another makes it read. */
  known?: KnownStream<State>;
  /** Recorded with the events besides the context's metadata. */
  metadata?: EventMetadata;
}

/** What handling a command needs of its context. */
export type HandlerContext = Pick<CommandContext, "store" | "metadata" | "registries">;

/** One kind of stream's commands and reads, its decider, naming, metadata and retry bound once. */
export interface StreamHandler<State, Command, Event, Failure extends string, Id = string> {
  streamId(id: Id): string;
  /** Decides the command on the stream of `id` and appends its events with the context's metadata. */
  handle(context: HandlerContext, id: Id, command: Command, options?: HandleOptions<State>): Promise<Execution<State, Event, Failure>>;
  /** The stream of `id` folded: its state and last event (none while it is empty). */
  read(context: Pick<CommandContext, "store">, id: Id): Promise<KnownStream<State>>;
  /** The last event of the stream of `id`: where it stands (none while it is empty). */
  tip(context: Pick<CommandContext, "store">, id: Id): Promise<StreamTip | undefined>;
  /** The events of the stream of `id`, typed. */
  events(context: Pick<CommandContext, "store">, id: Id, options?: ReadStreamOptions): Promise<Recorded<Event>[]>;
  /** The stream of `id` as a read of several streams (`EventStore.readStreams`) returned it, folded. */
  fold(id: Id, history: readonly RecordedEvent[]): KnownStream<State>;
  /**
   * For a job that judged the stream as `known` shows it: `commands` decided one after another on
   * it (those refused left out), their events appended `perAppend` at a time, each append at the
   * revision the one before left. Never decided again: at the first append another writer got
   * ahead of, it stops, and the rest waits for the job's next judgement. The events appended.
   */
  handleJudged(
    context: HandlerContext,
    id: Id,
    commands: readonly Command[],
    options: { known: KnownStream<State> & { tip: StreamTip }; metadata?: EventMetadata; perAppend: number },
  ): Promise<number>;
}

/**
 * A stream kind's handler, in the spirit of Emmett's `CommandHandler`: made once per kind
 * (src/commands/streams.ts), then `payments.handle(context, paymentId, command)`.
 */
export function streamHandler<State, Command extends { type: string }, Event extends { type: string; data: object }, Failure extends string, Id = string>(
  kind: StreamKind<State, Command, Event, Failure, Id>,
): StreamHandler<State, Command, Event, Failure, Id> {
  const { decider, streamId, retryPolicy, groupCommit = false, lastEventOnly = false } = kind;
  return {
    streamId,
    handle(context, id, command, { known, metadata } = {}) {
      const recorded = metadata ? { ...context.metadata, ...metadata } : context.metadata;
      const options = { lastEventOnly, retryPolicy, ...(known && { known }) };
      return groupCommit
        ? context.registries.groupCommits.execute(decider, streamId(id), command, recorded, options)
        : execute(context.store, decider, streamId(id), command, recorded, options);
    },
    read: (context, id) => readStream(context.store, decider, streamId(id), lastEventOnly),
    tip: async (context, id) => (await readEvents(context.store, decider.isEvent, streamId(id), { direction: "backwards", maxCount: 1 })).at(-1),
    events: (context, id, options) => readEvents(context.store, decider.isEvent, streamId(id), options),
    fold(id, history) {
      const events = narrowEvents(decider.isEvent, streamId(id), history);
      return { state: fold(decider, events), tip: events.at(-1) };
    },
    async handleJudged(context, id, commands, { known, metadata, perAppend }) {
      const recorded = metadata ? { ...context.metadata, ...metadata } : context.metadata;
      const { chained } = decideBatch(decider, streamId(id), commands.map((command) => ({ command, metadata: recorded, known: undefined })), known);
      let revision = known.tip.revision;
      for (let start = 0; start < chained.length; start += perAppend) {
        try {
          revision = (await context.store.append(streamId(id), chained.slice(start, start + perAppend), revision)).nextExpectedRevision;
        } catch (error) {
          if (error instanceof ConcurrencyError) break;
          throw error;
        }
      }
      return Number(revision - known.tip.revision);
    },
  };
}
