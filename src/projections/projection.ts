import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import { eventGuard } from "../domain/decider.ts";
import type { EventStore, RecordedEvent } from "../eventstore/port.ts";
import type { Recorded } from "../eventstore/typed-read.ts";

/**
 * Streams by id, as they stood when read, in revision order: every event of each, or only the
 * first of those asked for as openings.
 */
export type Streams = ReadonlyMap<string, readonly RecordedEvent[]>;

/** What `apply` needs beyond the batch's own events: whole streams, and streams' first events only. */
export interface StreamsToRead {
  whole: string[];
  /** Streams of which only the first event counts (a settlement batch's opening, not its chunks of candidates). */
  openings: string[];
}

/**
 * A read model built from the event log, as a projection module writes it: `Event` is the union
 * of the events it applies, and `apply` gets them typed (`defineProjection` narrows them).
 */
export interface ProjectionDefinition<Event extends { type: string }> {
  /** Unique; also names the checkpoint row. Lowercase letters, digits and underscores. */
  name: string;
  /** The tables this projection owns: a rebuild replaces exactly these. */
  tables: readonly string[];
  /** Only these event types are applied; the checkpoint still advances past the others. */
  eventTypes: readonly Event["type"][];
  /**
   * The streams `apply` needs whole (beyond the batch's own events), read before the batch's
   * database transaction opens: the embedded database has one connection, held by that
   * transaction. `db` reads the live tables.
   */
  streamsToRead?(db: Kysely<Database>, events: readonly Recorded<Event>[]): Promise<StreamsToRead>;
  /**
   * Writes the batch's effect on the read model. Must be idempotent: applying events that were
   * already applied changes nothing. Use unqualified table names: a rebuild redirects them.
   */
  apply(trx: Transaction<Database>, events: readonly Recorded<Event>[], streams: Streams): Promise<void>;
  /**
   * For a rebuild, which replays the whole log into empty tables in one process: a pass that may
   * keep what it learns in memory from one batch to the next, instead of reading it back from its
   * tables, and writes what it kept in `finish`, before the tables are swapped in. Its tables must
   * then equal what `apply` makes (`ledger verify` compares them with a replay through `apply`).
   */
  rebuildPass?(): RebuildPass<Recorded<Event>>;
}

/** A rebuild's own way through the log: `apply` each batch in order, then `finish` once, in the rebuild's tables. */
export interface RebuildPass<Event = RecordedEvent> {
  apply(trx: Transaction<Database>, events: readonly Event[], streams: Streams): Promise<void>;
  finish(trx: Transaction<Database>): Promise<void>;
}

/**
 * A projection as the runner, a rebuild and a command's own writes drive it: any stored events
 * in, and only those of its `eventTypes` reach the definition's `apply`. The runner calls `apply`
 * inside the database transaction that also moves the projection's checkpoint.
 */
export interface Projection {
  name: string;
  tables: readonly string[];
  /** Only these event types are applied; without them, every event is. */
  eventTypes?: readonly string[];
  streamsToRead?(db: Kysely<Database>, events: readonly RecordedEvent[]): Promise<StreamsToRead>;
  apply(trx: Transaction<Database>, events: readonly RecordedEvent[], streams: Streams): Promise<void>;
  rebuildPass?(): RebuildPass;
}

/** The projection that applies a definition's events, typed by their type, and passes over every other. */
export function defineProjection<Event extends { type: string }>(definition: ProjectionDefinition<Event>): Projection {
  const isEvent = eventGuard<Event>(definition.eventTypes);
  const own = (events: readonly RecordedEvent[]): Recorded<Event>[] => events.filter(isEvent);
  const { name, tables, eventTypes, streamsToRead, apply, rebuildPass } = definition;
  return {
    name,
    tables,
    eventTypes,
    ...(streamsToRead && { streamsToRead: (db: Kysely<Database>, events: readonly RecordedEvent[]) => streamsToRead(db, own(events)) }),
    apply: (trx, events, streams) => apply(trx, own(events), streams),
    ...(rebuildPass && {
      rebuildPass: (): RebuildPass => {
        const pass = rebuildPass();
        return { apply: (trx, events, streams) => pass.apply(trx, own(events), streams), finish: (trx) => pass.finish(trx) };
      },
    }),
  };
}

/** Reads the streams the projection asks for before applying `events`. */
export async function readStreamsFor(
  projection: Projection,
  db: Kysely<Database>,
  store: EventStore,
  events: readonly RecordedEvent[],
): Promise<Streams> {
  const { whole, openings } = (await projection.streamsToRead?.(db, events)) ?? { whole: [], openings: [] };
  const [wholeStreams, openingStreams] = await Promise.all([
    whole.length === 0 ? new Map<string, RecordedEvent[]>() : store.readStreams(whole),
    Promise.all(openings.map(async (streamId) => [streamId, await store.readStream(streamId, { maxCount: 1 })] as const)),
  ]);
  return new Map([...wholeStreams, ...openingStreams]);
}

export function assertProjectionName(name: string): void {
  if (!/^[a-z][a-z0-9_]{0,47}$/.test(name)) throw new RangeError(`Invalid projection name: ${name}`);
}
