import type { Kysely } from "kysely";
import { expect } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import type { JsonObject, RecordedEvent } from "../../src/eventstore/port.ts";
import type { Projection } from "../../src/projections/projection.ts";

/**
 * A projection's test, as Emmett's projection specifications: given the events it has already
 * applied, when it applies these, then what a query reads from its tables.
 *
 *     const { given } = projectionSpec(transactionsProjection, () => database.db);
 *     await given(authorized).when(captured).then(readWork, { [authorization]: { … } });
 */
export function projectionSpec(projection: Projection, db: () => Kysely<Database>) {
  const apply = async (events: readonly RecordedEvent[]) => {
    if (events.length > 0) await db().transaction().execute((trx) => projection.apply(trx, events, new Map()));
  };
  return {
    given: (given: readonly RecordedEvent[]) => ({
      when: (when: readonly RecordedEvent[]) => ({
        async then<Read>(read: (db: Kysely<Database>) => Promise<Read>, expected: Read) {
          await apply(given);
          await apply(when);
          expect(await read(db())).toEqual(expected);
        },
      }),
    }),
  };
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
