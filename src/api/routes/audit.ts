import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  evolve,
  initialState,
  type PaymentEvent,
  paymentStreamId,
  type TransactionView,
  toTransactionView,
} from "../../domain/payments/index.ts";
import type { EventStore, RecordedEvent } from "../../eventstore/port.ts";
import { principalOf } from "../auth.ts";
import { ApiProblem, notFound } from "../problems.ts";
import type { RouteDependencies } from "./dependencies.ts";

/**
 * A transaction as it was at `asOf`, folded from its payment stream alone (never the read
 * model); `null` when it did not exist yet. The fold stops at the first event that happened
 * after `asOf`, so the answer is always a state the stream really passed through. "Happened"
 * is the event's own `occurredAt` (the clock that gave the transaction its createdAt and
 * updatedAt, so `asOf=<updatedAt>` shows exactly that version), or when it is missing the
 * time the store recorded it.
 */
export async function transactionAsOf(
  store: EventStore,
  paymentId: string,
  transactionId: string,
  asOf: Date,
): Promise<TransactionView | null> {
  const events = await store.readStream(paymentStreamId(paymentId));
  let state = initialState();
  for (const event of events) {
    if (new Date(occurredAtOf(event)).getTime() > asOf.getTime()) break;
    state = evolve(state, event as unknown as PaymentEvent);
  }
  return toTransactionView(state, transactionId);
}

function occurredAtOf(event: RecordedEvent): string {
  const occurredAt = event.data.occurredAt;
  return typeof occurredAt === "string" && !Number.isNaN(Date.parse(occurredAt))
    ? new Date(occurredAt).toISOString()
    : event.recordedAt.toISOString();
}

const jsonObject = z.record(z.string(), z.unknown());

const eventSchema = z
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
    /** Who caused it and in which request: requestId, idempotencyKey, actor. */
    metadata: jsonObject,
  })
  .meta({ id: "Event" });

const toEventObject = (event: RecordedEvent): z.infer<typeof eventSchema> => ({
  id: event.id,
  streamId: event.streamId,
  position: event.position.toString(),
  revision: Number(event.revision),
  type: event.type,
  occurredAt: occurredAtOf(event),
  recordedAt: event.recordedAt.toISOString(),
  data: event.data,
  metadata: event.metadata,
});

/** The store's checkpoint, made opaque. Both adapters' checkpoints are `<digits>:<digits>`. */
const encodeLogCursor = (checkpoint: string) => Buffer.from(checkpoint, "utf8").toString("base64url");

function decodeLogCursor(cursor: string, parameter: string): string {
  const checkpoint = Buffer.from(cursor, "base64url").toString("utf8");
  if (!/^\d{1,20}:\d{1,20}$/.test(checkpoint)) throw invalidCursor(parameter);
  return checkpoint;
}

const invalidCursor = (parameter: string) =>
  new ApiProblem("validation_error", "The cursor is not one this list gave out.", {
    errors: [{ path: parameter, message: "is invalid" }],
  });

async function readLogPage(store: EventStore, after: string | null, limit: number, parameter: string) {
  try {
    return await store.readAll({ after, batchSize: limit });
  } catch (error) {
    // Both adapters reject a checkpoint they cannot read with a RangeError.
    if (error instanceof RangeError && after !== null) throw invalidCursor(parameter);
    throw error;
  }
}

const logQuery = z
  .strictObject({
    after: z.string().min(1).max(200).optional(),
    /** The list convention's name for the same thing, so generic pagers work too. */
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .refine((query) => query.after === undefined || query.cursor === undefined || query.after === query.cursor, {
    path: ["cursor"],
    message: "give either after or cursor, not two different ones",
  });

export const auditRoutes: FastifyPluginAsyncZod<RouteDependencies> = async (app, { db, store }) => {
  app.get(
    "/transactions/:id/events",
    {
      config: { access: "any" },
      schema: {
        tags: ["audit"],
        summary: "The event stream a transaction lives in (its payment's), oldest first",
        params: z.strictObject({ id: z.uuid() }),
        response: { 200: z.object({ streamId: z.string(), events: z.array(eventSchema) }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const ownClient = principal.role === "client" ? principal.clientId : undefined;
      const row = await db
        .selectFrom("transactions")
        .select("payment_id")
        .where("transaction_id", "=", request.params.id)
        .$if(ownClient !== undefined, (query) => query.where("client_id", "=", ownClient!))
        .executeTakeFirst();
      if (!row) throw notFound("transaction");
      const streamId = paymentStreamId(row.payment_id);
      const events = await store.readStream(streamId);
      return { streamId, events: events.map(toEventObject) };
    },
  );

  app.get(
    "/events",
    {
      config: { access: "admin" },
      schema: {
        tags: ["audit"],
        summary: "The whole event log in global order, for exports and auditors",
        description:
          "Pass `nextCursor` as `after` (or `cursor`) to resume right after the last event of a page. " +
          "`nextCursor` is null once nothing new was read: keep the last cursor and ask again later for newer events.",
        querystring: logQuery,
        response: { 200: z.object({ data: z.array(eventSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { limit } = request.query;
      const given = request.query.after ?? request.query.cursor;
      const parameter = request.query.after === undefined ? "cursor" : "after";
      const after = given === undefined ? null : decodeLogCursor(given, parameter);
      const page = await readLogPage(store, after, limit, parameter);
      return {
        data: page.events.map(toEventObject),
        nextCursor: page.checkpoint !== null && page.checkpoint !== after ? encodeLogCursor(page.checkpoint) : null,
      };
    },
  );
};
