import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import { projectionReachingHead } from "../retry/policies.ts";
import { poll } from "../retry/retry.ts";
import { readCheckpoint } from "./checkpoints.ts";
import type { Projection } from "./projection.ts";

export interface ProjectionLag {
  projection: string;
  /** Global position of the newest event in the log. */
  headPosition: bigint | null;
  /** Global position of the last event the projection applied. */
  projectedPosition: bigint | null;
  /** Head position minus projected position: how far behind, in the store's position units; 0 when caught up. */
  positionsBehind: bigint;
  /** Time between the newest event and the last applied one; 0 when caught up. */
  secondsBehind: number;
}

/**
 * How far a projection trails the head of the log. It is caught up when no event of its types
 * follows its checkpoint: comparing checkpoints with the head would not do, as a filtered reader's
 * checkpoint need not reach the last record of the log (on EventStoreDB it moves past the records
 * it does not want only every few dozen records the server scanned).
 */
export async function measureLag(
  db: Kysely<Database>,
  store: EventStore,
  projection: Pick<Projection, "name" | "eventTypes">,
): Promise<ProjectionLag> {
  // The checkpoint first: read after it, the log can only be as new or newer.
  const stored = await readCheckpoint(db, projection.name);
  const [unapplied, head] = await Promise.all([
    store.readAll({ after: stored.checkpoint, types: projection.eventTypes, batchSize: 1 }),
    store.readHead(),
  ]);
  const caughtUp = unapplied.events.length === 0;
  const headTime = head.recordedAt?.getTime() ?? 0;
  const projectedTime = stored.lastRecordedAt?.getTime() ?? 0;
  const difference = (head.position ?? 0n) - (stored.lastPosition ?? 0n);
  return {
    projection: projection.name,
    headPosition: head.position,
    projectedPosition: stored.lastPosition,
    // At least 1 while behind: PostgreSQL commits positions out of order, so the difference can be 0 or less.
    positionsBehind: caughtUp ? 0n : difference > 0n ? difference : 1n,
    secondsBehind: caughtUp ? 0 : Math.max(0, (headTime - projectedTime) / 1000),
  };
}

/**
 * Waits until `projection` has applied every event of its types that the log held when called
 * (events appended since may still be unapplied): `false` when `timeoutMs` ran out first. A
 * reader that must see everything recorded before it started (a settlement's candidates) waits
 * here rather than trust a read model that lags.
 */
export async function waitUntilApplied(
  db: Kysely<Database>,
  store: EventStore,
  projection: Pick<Projection, "name" | "eventTypes">,
  timeoutMs: number,
): Promise<boolean> {
  const head = await store.readHead();
  if (head.position === null) return true;
  const headPosition = head.position;
  const applied = async () => {
    const stored = await readCheckpoint(db, projection.name);
    const { events } = await store.readAll({ after: stored.checkpoint, types: projection.eventTypes, batchSize: 1 });
    const next = events[0];
    return next === undefined || next.position > headPosition;
  };
  return (await applied()) || poll(projectionReachingHead(timeoutMs), applied);
}
