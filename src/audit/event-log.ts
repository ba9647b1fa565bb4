import { z } from "zod";
import type { Checkpoint, EventStore, RecordedEvent } from "../eventstore/port.ts";
import { type ChainCheck, chainCheckSchema, checkLogLinks } from "./link-checks.ts";

/**
 * The global event log as auditors and exports read it: one shape and one cursor for the admin
 * `GET /v1/events` route and the `ledger export` command.
 */

const jsonObject = z.record(z.string(), z.unknown());

export const auditEventSchema = z
  .object({
    id: z.string(),
    streamId: z.string(),
    /** Position in the global log, as a string: it may exceed 2^53. */
    position: z.string(),
    revision: z.number().int(),
    type: z.string(),
    occurredAt: z.string(),
    recordedAt: z.string(),
    data: jsonObject,
    /** Who caused it and in which request (requestId, idempotencyKey, actor), and its hash chain link. */
    metadata: jsonObject,
    chain: chainCheckSchema,
  })
  .meta({ id: "Event" });

export type AuditEvent = z.infer<typeof auditEventSchema>;

/** When the event happened: its own `occurredAt`, or when that is missing the time the store recorded it. */
export function occurredAtOf(event: RecordedEvent): string {
  const occurredAt = event.data.occurredAt;
  return typeof occurredAt === "string" && !Number.isNaN(Date.parse(occurredAt))
    ? new Date(occurredAt).toISOString()
    : event.recordedAt.toISOString();
}

export const toAuditEvent = (event: RecordedEvent, chain: ChainCheck): AuditEvent => ({
  id: event.id,
  streamId: event.streamId,
  position: event.position.toString(),
  revision: Number(event.revision),
  type: event.type,
  occurredAt: occurredAtOf(event),
  recordedAt: event.recordedAt.toISOString(),
  data: event.data,
  metadata: event.metadata,
  chain,
});

/** A cursor that no page of the log gave out. */
export class InvalidCursorError extends Error {
  constructor() {
    super("The cursor is not one the event log gave out.");
    this.name = "InvalidCursorError";
  }
}

/** The store's checkpoint, made opaque. Both adapters' checkpoints are `<digits>:<digits>`. */
const encodeLogCursor = (checkpoint: Checkpoint) => Buffer.from(checkpoint, "utf8").toString("base64url");

/**
 * Both adapters' positions are signed 64-bit integers (PostgreSQL's transaction ids and bigint
 * positions, EventStoreDB's commit and prepare positions): a larger number is no position, and
 * a query given it would overflow.
 */
const MAX_POSITION = 2n ** 63n - 1n;

function decodeLogCursor(cursor: string): Checkpoint {
  const checkpoint = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(\d{1,19}):(\d{1,19})$/.exec(checkpoint);
  if (!match || BigInt(match[1]!) > MAX_POSITION || BigInt(match[2]!) > MAX_POSITION) throw new InvalidCursorError();
  return checkpoint;
}

export interface LogPage {
  events: AuditEvent[];
  /** Resumes right after the page's last event; null once nothing new was read. */
  nextCursor: string | null;
}

/** Up to `limit` events of the global log after `cursor` (null: from the start), in global order. */
export async function readLogPage(store: EventStore, cursor: string | null, limit: number): Promise<LogPage> {
  const after = cursor === null ? null : decodeLogCursor(cursor);
  const page = await store.readAll({ after, batchSize: limit }).catch((error: unknown) => {
    // Both adapters reject a checkpoint they cannot read with a RangeError.
    throw error instanceof RangeError && after !== null ? new InvalidCursorError() : error;
  });
  const checks = await checkLogLinks(store, page.events);
  return {
    events: page.events.map((event, index) => toAuditEvent(event, checks[index]!)),
    nextCursor: page.checkpoint !== null && page.checkpoint !== after ? encodeLogCursor(page.checkpoint) : null,
  };
}
