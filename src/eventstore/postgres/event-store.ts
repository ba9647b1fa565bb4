import { EventEmitter } from "node:events";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";
import { ConcurrencyError } from "../errors.ts";
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  Head,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from "../port.ts";
import { validateAppend } from "../validate-append.ts";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint.ts";

export interface PostgresEventStoreOptions {
  /** How often a live subscription polls for events written by other processes. */
  pollIntervalMs?: number;
}

interface EventRow {
  event_id: string;
  stream_id: string;
  type: string;
  data: JsonObject;
  metadata: JsonObject;
  revision: string;
  position: string;
  transaction_id: string;
  recorded_at: Date;
}

const DEFAULT_BATCH_SIZE = 500;

/**
 * The event store on PostgreSQL (a `pg` pool or embedded PGlite: the same SQL serves both).
 * Readers of the global log see only events below the oldest open writing transaction, so a
 * sequence position that commits late is never skipped.
 */
export class PostgresEventStore implements EventStore {
  readonly #db: Kysely<Database>;
  readonly #pollIntervalMs: number;
  readonly #appended = new EventEmitter().setMaxListeners(0);

  constructor(db: Kysely<Database>, options: PostgresEventStoreOptions = {}) {
    this.#db = db;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const valid = validateAppend(streamId, events, expected);
    const count = valid.events.length;
    const payload = JSON.stringify(valid.events);
    // The stream row is claimed (or found at the expected revision) and the events inserted in
    // one statement: one round trip, and racing appends serialize on the stream row.
    const { rows } = await sql<{ revision: string | null; position: string | null }>`
      with stream as (${claimStream(valid.streamId, count, valid.expected)}),
      appended as (
        insert into events (event_id, stream_id, revision, type, data, metadata)
        select (e.value->>'id')::uuid, ${valid.streamId}, stream.revision - ${count} + e.ordinality,
               e.value->>'type', e.value->'data', e.value->'metadata'
        from stream, jsonb_array_elements(${payload}::jsonb) with ordinality as e(value, ordinality)
        returning revision, position
      )
      select max(revision)::text as revision, max(position)::text as position from appended
    `.execute(this.#db);
    const row = rows[0];
    if (!row?.revision || !row.position) {
      throw new ConcurrencyError(valid.streamId, valid.expected, await this.#currentRevision(valid.streamId));
    }
    this.#appended.emit("append", valid.events);
    return { nextExpectedRevision: BigInt(row.revision), position: BigInt(row.position) };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === "backwards";
    const from =
      options.from === undefined
        ? sql``
        : sql`and revision ${sql.raw(backwards ? "<=" : ">=")} ${options.from.toString()}::bigint`;
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where stream_id = ${streamId} ${from}
      order by events.revision ${sql.raw(backwards ? "desc" : "asc")}
      limit ${options.maxCount ?? null}
    `.execute(this.#db);
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const after = options.after ? decodeCheckpoint(options.after) : { transactionId: 0n, position: 0n };
    const { rows } = await sql<EventRow>`
      select ${eventColumns}
      from events
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        and (transaction_id, position) > (${after.transactionId.toString()}::xid8, ${after.position.toString()}::bigint)
      order by events.transaction_id, events.position
      limit ${options.batchSize ?? DEFAULT_BATCH_SIZE}
    `.execute(this.#db);
    const last = rows.at(-1);
    const types = options.types ? new Set(options.types) : undefined;
    return {
      events: rows.filter((row) => !types || types.has(row.type)).map(toRecordedEvent),
      checkpoint: last ? checkpointOf(last) : (options.after ?? null),
    };
  }

  async readHead(): Promise<Head> {
    const { rows } = await sql<Pick<EventRow, "transaction_id" | "position" | "recorded_at">>`
      select transaction_id::text, position::text, recorded_at
      from events
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      order by events.transaction_id desc, events.position desc
      limit 1
    `.execute(this.#db);
    const head = rows[0];
    if (!head) return { position: null, recordedAt: null, checkpoint: null };
    return { position: BigInt(head.position), recordedAt: head.recorded_at, checkpoint: checkpointOf(head) };
  }

  async *subscribe(options: SubscribeOptions): AsyncIterable<ReadAllResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    let after = options.after ?? null;
    while (!options.signal.aborted) {
      // Listen before reading, so an append that lands during the read still wakes us.
      const woken = this.#nextAppendOrPoll(options.signal, options.types);
      const batch = await this.readAll({ after, batchSize, types: options.types });
      if (batch.checkpoint !== after) {
        after = batch.checkpoint;
        yield batch;
      }
      if (batch.checkpoint === after && batch.events.length < batchSize) await woken;
    }
  }

  async close(): Promise<void> {
    this.#appended.removeAllListeners();
  }

  async #currentRevision(streamId: string): Promise<bigint | "no_stream"> {
    const row = await this.#db
      .selectFrom("streams")
      .select(sql<string>`revision::text`.as("revision"))
      .where("stream_id", "=", streamId)
      .executeTakeFirst();
    return row ? BigInt(row.revision) : "no_stream";
  }

  /**
   * Until this process appends an event of one of `types` (any event when there is no filter),
   * or the poll interval passes. Skipped events still move the subscriber's checkpoint, but they
   * need not wake it: the poll catches up with them.
   */
  #nextAppendOrPoll(signal: AbortSignal, types: readonly string[] | undefined): Promise<void> {
    // A plain timer, not AbortSignal.timeout: a timeout signal held only through AbortSignal.any
    // can be garbage-collected before it fires, and then an idle subscriber never polls again.
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#appended.off("append", onAppend);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const onAppend = (events: readonly NewEvent[]) => {
        if (!types || events.some((event) => types.includes(event.type))) done();
      };
      const timer = setTimeout(done, this.#pollIntervalMs);
      this.#appended.on("append", onAppend);
      signal.addEventListener("abort", done, { once: true });
      if (signal.aborted) done();
    });
  }
}

const eventColumns = sql.raw(
  "event_id, stream_id, type, data, metadata, revision::text as revision, position::text as position, " +
    "transaction_id::text as transaction_id, recorded_at",
);

/** The statement that moves the stream row to its new last revision, or returns no row. */
function claimStream(streamId: string, count: number, expected: ExpectedRevision) {
  switch (expected) {
    case "no_stream":
      return sql`insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
        on conflict (stream_id) do nothing returning revision`;
    case "any":
      return sql`insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
        on conflict (stream_id) do update set revision = streams.revision + ${count} returning revision`;
    case "stream_exists":
      return sql`update streams set revision = revision + ${count} where stream_id = ${streamId} returning revision`;
    default:
      return sql`update streams set revision = revision + ${count}
        where stream_id = ${streamId} and revision = ${expected.toString()}::bigint returning revision`;
  }
}

function checkpointOf(row: Pick<EventRow, "transaction_id" | "position">) {
  return encodeCheckpoint({ transactionId: BigInt(row.transaction_id), position: BigInt(row.position) });
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    recordedAt: row.recorded_at,
  };
}
