import { type Kysely, sql } from "kysely";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";
import { ConcurrencyError } from "../errors.ts";
import type {
  AppendResult,
  Checkpoint,
  EventStore,
  ExpectedRevision,
  Head,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
} from "../port.ts";
import { type ValidAppend, validateAppend } from "../validate-append.ts";
import { decodeCheckpoint, encodeCheckpoint, type PostgresCheckpoint } from "./checkpoint.ts";
import type { CrossProcessWakes } from "../../db/cross-process-wakes.ts";
import { liveSubscriptionDefaults, type LiveSubscriptionOptions, LiveSubscriptions } from "./live-subscription.ts";
import { sharedReadHorizon } from "./read-horizon.ts";

export type PostgresEventStoreOptions = Partial<LiveSubscriptionOptions> & {
  /** Other processes' appends on the same database, heard at once rather than at the next poll. */
  wakes?: Pick<CrossProcessWakes, "onAppended"> | undefined;
};

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

/** A row of a left join that may have matched no event. */
type NullableEventRow = { [Column in keyof EventRow]: EventRow[Column] | null };

const DEFAULT_BATCH_SIZE = 500;

/**
 * The event store on PostgreSQL (a `pg` pool or embedded PGlite: the same SQL serves both).
 * Readers of the global log see only events below the oldest open transaction of the database
 * (`readHorizon`), so a sequence position that commits late is never skipped.
 */
export class PostgresEventStore implements EventStore {
  readonly #db: Kysely<Database>;
  readonly #live: LiveSubscriptions;
  /** Each item is one append, or the appends of one `appendLinked`: all of them or none. */
  readonly #groupCommit = batchWhileBusy((items: ValidAppend[][]) => this.#appendGroup(items));
  readonly #readHorizon: () => Promise<string>;

  constructor(db: Kysely<Database>, options: PostgresEventStoreOptions = {}) {
    this.#db = db;
    this.#readHorizon = sharedReadHorizon(db);
    const { wakes, ...live } = options;
    this.#live = new LiveSubscriptions((read) => this.readAll(read), { ...liveSubscriptionDefaults, ...live });
    wakes?.onAppended(() => this.#live.appendedElsewhere());
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const valid = validateAppend(streamId, events, expected);
    const appended = isGroupable(valid) ? await this.#groupCommit([valid]) : await this.#appendLinkedAlone([valid]);
    if (appended instanceof Error) throw appended;
    this.#live.appended(valid.events);
    return appended[0]!;
  }

  async appendLinked(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const valid = appends.map(({ streamId, events, expected }) => validateAppend(streamId, events, expected));
    const appended = valid.every(isGroupable) ? await this.#groupCommit(valid) : await this.#appendLinkedAlone(valid);
    if (appended instanceof Error) throw appended;
    for (const { events } of valid) this.#live.appended(events);
    return appended;
  }

  /**
   * One stream's events in one statement: the stream row is claimed (or found at the expected
   * revision) and the events inserted, so racing appends serialize on the stream row. Undefined
   * when the stream was not at the expected revision.
   */
  async #claimOne(valid: ValidAppend, db: Kysely<Database>): Promise<AppendResult | undefined> {
    const count = valid.events.length;
    const { rows } = await sql<{ revision: string | null; position: string | null }>`
      with stream as (${claimStream(valid.streamId, count, valid.expected)}),
      appended as (
        insert into events (event_id, stream_id, revision, type, data, metadata)
        select (e.value->>'id')::uuid, ${valid.streamId}, stream.revision - ${count} + e.ordinality,
               e.value->>'type', e.value->'data', e.value->'metadata'
        from stream, jsonb_array_elements(${JSON.stringify(valid.events)}::jsonb) with ordinality as e(value, ordinality)
        returning revision, position
      )
      select max(revision)::text as revision, max(position)::text as position from appended
    `.execute(db);
    const row = rows[0];
    if (!row?.revision || !row.position) return undefined;
    return { nextExpectedRevision: BigInt(row.revision), position: BigInt(row.position) };
  }

  /** Linked appends on their own: one statement for one append, else a transaction that a conflict rolls back. */
  async #appendLinkedAlone(appends: ValidAppend[]): Promise<LinkedOutcome> {
    if (appends.length === 1) {
      const only = appends[0]!;
      return settled((async () => {
        const appended = await this.#claimOne(only, this.#db);
        return appended ? [appended] : this.#conflict(only);
      })());
    }
    let conflicting: ValidAppend | undefined;
    const appended = await settled(
      this.#db.transaction().execute(async (trx) => {
        const results: AppendResult[] = [];
        for (const valid of appends) {
          const result = await this.#claimOne(valid, trx);
          if (!result) {
            conflicting = valid;
            throw new ConcurrencyError(valid.streamId, valid.expected, "no_stream");
          }
          results.push(result);
        }
        return results;
      }),
    );
    // The stream's actual revision is read once the transaction has ended (PGlite has one connection).
    return conflicting ? this.#conflict(conflicting) : appended;
  }

  /**
   * Appends to different streams that arrive while another is in flight, in one statement and
   * one transaction: each still claims its own stream row at its expected revision, and one that
   * conflicts fails alone, but the appends of one `appendLinked` land all or none. An item with
   * a stream already in the group follows it on its own.
   */
  async #appendGroup(items: ValidAppend[][]): Promise<LinkedOutcome[]> {
    // One append alone is one statement anyway; linked appends, even alone, take the group's one
    // statement rather than a transaction of one statement each.
    if (items.length === 1 && items[0]!.length === 1) return [await this.#appendLinkedAlone(items[0]!)];
    const streams = new Set<string>();
    const together = items.flatMap((item, index) => {
      if (item.some((valid) => streams.has(valid.streamId))) return [];
      for (const valid of item) streams.add(valid.streamId);
      return [index];
    });
    const outcomes: LinkedOutcome[] = new Array(items.length);
    let claimed: (AppendResult | undefined)[][] | undefined;
    try {
      claimed = await this.#appendTogether(together.map((index) => items[index]!));
    } catch (error) {
      // Only when the server refused the statement (one bad append, a linked append claimed in
      // part, a deadlock with another instance's group) is it known that nothing was written:
      // then each is tried on its own. Any other failure leaves the outcome unknown, and every
      // append of the group reports it.
      if (!isRefusedByServer(error)) throw error;
    }
    for (const [slot, index] of together.entries()) {
      const item = items[index]!;
      const results = claimed?.[slot];
      if (!results) {
        outcomes[index] = await this.#appendLinkedAlone(item);
        continue;
      }
      const conflicting = item.find((_valid, position) => results[position] === undefined);
      outcomes[index] = conflicting ? await this.#conflict(conflicting) : (results as AppendResult[]);
    }
    for (const [index, item] of items.entries()) {
      if (outcomes[index] === undefined) outcomes[index] = await this.#appendLinkedAlone(item);
    }
    return outcomes;
  }

  /**
   * Each item's results, undefined where its stream was not at the expected revision. An item
   * claims every stream of it or none: one claimed in part fails the statement.
   */
  async #appendTogether(items: ValidAppend[][]): Promise<(AppendResult | undefined)[][]> {
    const input = items
      .flatMap((item, link) => item.map((valid) => ({ link, valid })))
      .map(({ link, valid }, slot) => ({
        slot,
        link,
        stream_id: valid.streamId,
        // Only new streams and exact revisions are grouped (isGroupable).
        expected: valid.expected === "no_stream" ? null : valid.expected.toString(),
        count: valid.events.length,
        events: valid.events,
      }));
    const { rows } = await sql<{ stream_id: string; revision: string; position: string }>`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
          as i(slot int, link int, stream_id text, expected bigint, count int, events jsonb)
      ),
      created as (
        insert into streams (stream_id, revision)
        select stream_id, count - 1 from input where expected is null
        on conflict (stream_id) do nothing
        returning stream_id, revision
      ),
      advanced as (
        -- "= any(array(...))" keeps the lookup on the primary key in every plan, even one the
        -- server cached while the table was small (a join on the input would scan it whole).
        update streams set revision = streams.revision + input.count
        from input
        where streams.stream_id = any(array(select stream_id from input where expected is not null))
          and streams.stream_id = input.stream_id and streams.revision = input.expected
        returning streams.stream_id, streams.revision
      ),
      claimed as (select stream_id, revision from created union all select stream_id, revision from advanced),
      -- The items that claimed all their streams or none. One claimed in part divides by zero:
      -- the server refuses the statement, so none of the group is written.
      whole as (
        select input.link from input left join claimed on claimed.stream_id = input.stream_id
        group by input.link
        having 1 / (count(claimed.stream_id) = 0 or count(claimed.stream_id) = count(*))::int = 1
      ),
      appended as (
        insert into events (event_id, stream_id, revision, type, data, metadata)
        select (e.value->>'id')::uuid, input.stream_id, claimed.revision - input.count + e.ordinality,
               e.value->>'type', e.value->'data', e.value->'metadata'
        from input
        join whole on whole.link = input.link
        join claimed on claimed.stream_id = input.stream_id
        cross join lateral jsonb_array_elements(input.events) with ordinality as e(value, ordinality)
        order by input.slot, e.ordinality
        returning stream_id, revision, position
      )
      select stream_id, max(revision)::text as revision, max(position)::text as position
      from appended group by stream_id
    `.execute(this.#db);
    const byStream = new Map(rows.map((row) => [row.stream_id, row]));
    return items.map((item) =>
      item.map((valid) => {
        const row = byStream.get(valid.streamId);
        return row && { nextExpectedRevision: BigInt(row.revision), position: BigInt(row.position) };
      }),
    );
  }

  async #conflict(valid: ValidAppend): Promise<ConcurrencyError> {
    return new ConcurrencyError(valid.streamId, valid.expected, await this.#currentRevision(valid.streamId));
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

  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const streams = new Map<string, RecordedEvent[]>(streamIds.map((streamId) => [streamId, []]));
    if (streamIds.length === 0) return streams;
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where stream_id = any(array(select jsonb_array_elements_text(${JSON.stringify(streamIds)}::jsonb)))
      order by events.stream_id, events.revision
    `.execute(this.#db);
    for (const row of rows) streams.get(row.stream_id)?.push(toRecordedEvent(row));
    return streams;
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    const after = options.after ? decodeCheckpoint(options.after) : { transactionId: 0n, position: 0n };
    if (options.types) return this.#readAllOfTypes(after, options.types, options);
    const horizon = await this.#readHorizon();
    const { rows } = await sql<EventRow>`
      select ${eventColumns}
      from events
      where transaction_id < ${horizon}::xid8
        and (transaction_id, position) > (${after.transactionId.toString()}::xid8, ${after.position.toString()}::bigint)
      order by events.transaction_id, events.position
      limit ${options.batchSize ?? DEFAULT_BATCH_SIZE}
    `.execute(this.#db);
    const last = rows.at(-1);
    return { events: rows.map(toRecordedEvent), checkpoint: last ? checkpointOf(last) : (options.after ?? null) };
  }

  /**
   * The log filtered by PostgreSQL, so the events of other types never reach this process. In
   * the same snapshot it finds the newest visible event: when fewer than a batch of events match,
   * every match up to it has been read, and the checkpoint moves there past the others.
   */
  async #readAllOfTypes(after: PostgresCheckpoint, types: readonly string[], options: ReadAllOptions): Promise<ReadAllResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    const horizon = await this.#readHorizon();
    const { rows } = await sql<NullableEventRow & { head_transaction_id: string; head_position: string }>`
      with matching as (
        select ${eventColumns}
        from events
        where events.transaction_id < ${horizon}::xid8
          and (events.transaction_id, position) > (${after.transactionId.toString()}::xid8, ${after.position.toString()}::bigint)
          and type in (select jsonb_array_elements_text(${JSON.stringify(types)}::jsonb))
        -- Qualified: a bare "position" would sort by the text column of the select list.
        order by events.transaction_id, events.position
        limit ${batchSize}
      ),
      head as (
        select events.transaction_id, position
        from events
        where events.transaction_id < ${horizon}::xid8
        order by events.transaction_id desc, events.position desc
        limit 1
      )
      select matching.*, head.transaction_id::text as head_transaction_id, head.position::text as head_position
      from head left join matching on true
      order by matching.transaction_id::xid8, matching.position::bigint
    `.execute(this.#db);
    // With no match, the one row is the head's alone.
    const matched = rows.filter((row) => row.event_id !== null) as EventRow[];
    const events = matched.map(toRecordedEvent);
    const last = matched.at(-1);
    if (last && matched.length === batchSize) return { events, checkpoint: checkpointOf(last) };
    const head = rows[0] && { transactionId: BigInt(rows[0].head_transaction_id), position: BigInt(rows[0].head_position) };
    const headIsNewer =
      head !== undefined &&
      (head.transactionId > after.transactionId ||
        (head.transactionId === after.transactionId && head.position > after.position));
    return { events, checkpoint: headIsNewer ? encodeCheckpoint(head) : (options.after ?? null) };
  }

  async hasEventsAfter(after: Checkpoint | null, types?: readonly string[]): Promise<boolean> {
    const from = after ? decodeCheckpoint(after) : { transactionId: 0n, position: 0n };
    const { rows } = await sql<{ found: boolean }>`
      select exists (
        select 1 from events
        where (transaction_id, position) > (${from.transactionId.toString()}::xid8, ${from.position.toString()}::bigint)
          and (${types === undefined} or type in (select jsonb_array_elements_text(${JSON.stringify(types ?? [])}::jsonb)))
      ) as found
    `.execute(this.#db);
    return rows[0]?.found === true;
  }

  async readHead(): Promise<Head> {
    const horizon = await this.#readHorizon();
    const { rows } = await sql<Pick<EventRow, "transaction_id" | "position" | "recorded_at">>`
      select transaction_id::text, position::text, recorded_at
      from events
      where transaction_id < ${horizon}::xid8
      order by events.transaction_id desc, events.position desc
      limit 1
    `.execute(this.#db);
    const head = rows[0];
    if (!head) return { position: null, recordedAt: null, checkpoint: null };
    return { position: BigInt(head.position), recordedAt: head.recorded_at, checkpoint: checkpointOf(head) };
  }

  subscribe(options: SubscribeOptions): AsyncIterable<ReadAllResult> {
    return this.#live.subscribe({ ...options, batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE });
  }

  async close(): Promise<void> {
    this.#live.close();
  }

  async #currentRevision(streamId: string): Promise<bigint | "no_stream"> {
    const row = await this.#db
      .selectFrom("streams")
      .select(sql<string>`revision::text`.as("revision"))
      .where("stream_id", "=", streamId)
      .executeTakeFirst();
    return row ? BigInt(row.revision) : "no_stream";
  }
}

/** What one item of a group comes to: its appends' results, or the error it alone failed with (a conflict, say). */
type LinkedOutcome = AppendResult[] | Error;

/** An item's outcome, its failure included, so one item's error stays its own. */
function settled(append: Promise<LinkedOutcome>): Promise<LinkedOutcome> {
  return append.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

/** An error the server answered with (it carries a severity): the statement was rolled back. */
function isRefusedByServer(error: unknown): boolean {
  return error instanceof Error && typeof (error as { severity?: unknown }).severity === "string";
}

/**
 * Appends that can share a statement with others: a new stream's or one at an exact revision.
 * Their expected revision makes a retry after an unknown outcome safe, and the rest are rare.
 */
function isGroupable(valid: ValidAppend): boolean {
  return valid.expected === "no_stream" || typeof valid.expected === "bigint";
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
