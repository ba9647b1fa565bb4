import type { Checkpoint } from "../port.ts";

/** A PostgreSQL log position: the writing transaction's id, then the event's sequence position. */
export interface PostgresCheckpoint {
  transactionId: bigint;
  position: bigint;
}

export function encodeCheckpoint(checkpoint: PostgresCheckpoint): Checkpoint {
  return `${checkpoint.transactionId}:${checkpoint.position}`;
}

export function decodeCheckpoint(checkpoint: Checkpoint): PostgresCheckpoint {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(checkpoint);
  if (!match) throw new RangeError(`Not a PostgreSQL event store checkpoint: ${JSON.stringify(checkpoint)}`);
  return { transactionId: BigInt(match[1]!), position: BigInt(match[2]!) };
}
