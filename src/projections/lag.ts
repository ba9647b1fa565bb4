import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import { readCheckpoint } from "./checkpoints.ts";

export interface ProjectionLag {
  projection: string;
  /** Global position of the newest event in the log. */
  headPosition: bigint | null;
  /** Global position of the last event the projection applied. */
  projectedPosition: bigint | null;
  /** Head position minus projected position: how far behind, in the store's position units. */
  positionsBehind: bigint;
  /** Time between the newest event and the last applied one; 0 when caught up. */
  secondsBehind: number;
}

/** How far a projection trails the head of the log. */
export async function measureLag(db: Kysely<Database>, store: EventStore, projection: string): Promise<ProjectionLag> {
  const [head, stored] = await Promise.all([store.readHead(), readCheckpoint(db, projection)]);
  const caughtUp = head.checkpoint === null || stored.checkpoint === head.checkpoint;
  const headTime = head.recordedAt?.getTime() ?? 0;
  const projectedTime = stored.lastRecordedAt?.getTime() ?? 0;
  return {
    projection,
    headPosition: head.position,
    projectedPosition: stored.lastPosition,
    positionsBehind: caughtUp ? 0n : (head.position ?? 0n) - (stored.lastPosition ?? 0n),
    secondsBehind: caughtUp ? 0 : Math.max(0, (headTime - projectedTime) / 1000),
  };
}
