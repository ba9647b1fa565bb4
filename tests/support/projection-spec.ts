import { type Kysely, sql } from "kysely";
import { expect } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import type { JsonObject, RecordedEvent } from "../../src/eventstore/port.ts";
import type { Projection, Streams } from "../../src/projections/projection.ts";

/**
 * A projection's test, as Emmett's projection specifications: given the events it has already
 * applied, when it applies these, then what a query reads from its tables. The streams a
 * projection asks to read are read from the given and the applied events together, as the log
 * holds them.
 *
 *     const { given } = projectionSpec(transactionsProjection, () => database.db);
 *     await given(authorized).when(captured).then(readWork, { [authorization]: { … } });
 *
 * Tests of one file may share a database: `reset` empties the projection's tables between them.
 */
export function projectionSpec(projection: Projection, db: () => Kysely<Database>) {
  const apply = async (events: readonly RecordedEvent[], log: readonly RecordedEvent[]) => {
    if (events.length === 0) return;
    const streams = await streamsFor(projection, db(), events, log);
    await db().transaction().execute((trx) => projection.apply(trx, events, streams));
  };
  return {
    reset: async () => {
      await sql`truncate ${sql.join(projection.tables.map((table) => sql.table(table)))}`.execute(db());
    },
    given: (given: readonly RecordedEvent[]) => ({
      when: (when: readonly RecordedEvent[]) => ({
        async then<Read>(read: (db: Kysely<Database>) => Promise<Read>, expected: Read) {
          const log = [...given, ...when];
          await apply(given, log);
          await apply(when, log);
          expect(await read(db())).toEqual(expected);
        },
      }),
    }),
  };
}

/** The streams the projection asks for before applying `events`, as `log` holds them (`readStreamsFor` of a store). */
async function streamsFor(projection: Projection, db: Kysely<Database>, events: readonly RecordedEvent[], log: readonly RecordedEvent[]): Promise<Streams> {
  const { whole, openings } = (await projection.streamsToRead?.(db, events)) ?? { whole: [], openings: [] };
  // An event applied twice over (a replay) is in the log once.
  const recorded = [...new Map(log.map((event) => [event.id, event])).values()];
  const stream = (streamId: string) => recorded.filter((event) => event.streamId === streamId).sort((a, b) => Number(a.revision - b.revision));
  return new Map([
    ...whole.map((streamId) => [streamId, stream(streamId)] as const),
    ...openings.map((streamId) => [streamId, stream(streamId).slice(0, 1)] as const),
  ]);
}

/**
 * Events as a store records them: each stream's revisions from 0, positions rising across all
 * the streams of one log.
 */
export function eventLog() {
  let position = 0n;
  const next = new Map<string, bigint>();
  return (streamId: string, events: readonly { type: string; data: object }[]): RecordedEvent[] =>
    events.map(({ type, data }) => {
      const revision = next.get(streamId) ?? 0n;
      next.set(streamId, revision + 1n);
      position += 1n;
      const id = `00000000-0000-7000-8000-${position.toString().padStart(12, "0")}`;
      return { id, streamId, type, data: data as JsonObject, metadata: {}, revision, position, recordedAt: new Date(0) };
    });
}

/** Ids for the tests of one file that share a database: each call a new one, in order. */
export function idSequence(): () => string {
  let last = 0;
  return () => {
    last += 1;
    return `0190a8e2-0000-7000-8000-${last.toString().padStart(12, "0")}`;
  };
}
