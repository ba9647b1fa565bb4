import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.ts";
import { processors } from "../../domain/host-configurations/schemas.ts";
import { currencySchema } from "../../domain/money.ts";
import { transactionStates, transactionTypes } from "../../domain/payments/index.ts";
import { ownClientOf, principalOf } from "../auth.ts";
import { decodeTimeCursor, encodeTimeCursor, listQuery, lowerBoundOf, pageOf, timestamp, upperBoundOf } from "../pagination.ts";
import type { RouteDependencies } from "./dependencies.ts";
import { transactionSchema } from "../transaction-schema.ts";
import { awaitOwnPaymentWrites } from "../../projections/transactions/own-writes.ts";
import { type TransactionFilter, transactionsMatching } from "../../projections/transactions/queries.ts";

const transactionStatuses = ["pending", "approved", "declined", "failed"] as const;
const amountBound = z.string().regex(/^\d{1,15}$/, "must be a non-negative integer of minor units").transform(Number);

const historyQuery = listQuery
  .extend({
    clientId: z.uuid().optional(),
    userId: z.string().min(1).max(255).optional(),
    type: z.enum(transactionTypes).optional(),
    status: z.enum(transactionStatuses).optional(),
    state: z.enum(transactionStates).optional(),
    parentTransactionId: z.uuid().optional(),
    processor: z.enum(processors).optional(),
    currency: currencySchema.optional(),
    reference: z.string().min(1).max(255).optional(),
    paymentMethodId: z.uuid().optional(),
    createdFrom: timestamp.optional(),
    createdTo: timestamp.optional(),
    amountMin: amountBound.optional(),
    amountMax: amountBound.optional(),
  })
  .superRefine((query, context) => {
    const { createdFrom, createdTo, amountMin, amountMax } = query;
    if (createdFrom !== undefined && createdTo !== undefined && lowerBoundOf(createdFrom) > upperBoundOf(createdTo)) {
      context.addIssue({ code: "custom", path: ["createdFrom"], message: "must not be after createdTo" });
      context.addIssue({ code: "custom", path: ["createdTo"], message: "must not be before createdFrom" });
    }
    if (amountMin !== undefined && amountMax !== undefined && amountMin > amountMax) {
      context.addIssue({ code: "custom", path: ["amountMin"], message: "must not be greater than amountMax" });
      context.addIssue({ code: "custom", path: ["amountMax"], message: "must not be less than amountMin" });
    }
  });

/** A validated history request: its filters, the cursor as given out, and the page's size. */
export interface HistoryFilter extends TransactionFilter {
  cursor?: string | undefined;
  limit: number;
}

/**
 * One page of history, newest first, as the JSON the route answers (the route's query; exported so
 * the bench can time it alone). Each row's view is the projection's own JSON, put in the page as
 * the database returns it: the transactions projection writes exactly the API's transaction
 * object, so parsing, checking and writing it again would only cost time.
 */
export async function listHistory(db: Kysely<Database>, filter: HistoryFilter): Promise<string> {
  const after = filter.cursor === undefined ? undefined : decodeTimeCursor(filter.cursor);
  const rows = await transactionsMatching(db, filter, after, filter.limit);

  const page = pageOf(rows, filter.limit, (row) => encodeTimeCursor(new Date(row.created_at), row.transaction_id));
  return `{"data":[${page.data.map((row) => row.view).join(",")}],"nextCursor":${JSON.stringify(page.nextCursor)}}`;
}

export const historyRoutes: FastifyPluginAsyncZod<RouteDependencies> = async (app, { db, readYourWrites }) => {
  app.get(
    "/transactions",
    {
      config: { access: "any" },
      schema: {
        tags: ["transactions"],
        operationId: "listTransactions",
        summary: "Transaction history, newest first, filtered",
        description:
          "Client keys see their own transactions; admin keys see every client's, or one client's with `clientId`. " +
          "`createdFrom` and `createdTo` are inclusive; a date alone means that whole UTC day.",
        querystring: historyQuery,
        response: { 200: z.object({ data: z.array(transactionSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const query = request.query;
      // A client naming another client's id gets an empty list, as if it had no transactions
      // there: the same answer as an unknown client, so existence does not leak (and it matches
      // the host configuration list).
      if (principal.role === "client" && query.clientId !== undefined && query.clientId !== principal.clientId) {
        return { data: [], nextCursor: null };
      }
      const { createdFrom, createdTo, ...filters } = query;
      const clientId = ownClientOf(principal) ?? query.clientId;
      await awaitOwnPaymentWrites({ readYourWrites }, clientId);
      const page = await listHistory(db, {
        ...filters,
        clientId,
        createdFrom: createdFrom === undefined ? undefined : lowerBoundOf(createdFrom),
        createdTo: createdTo === undefined ? undefined : upperBoundOf(createdTo),
      });
      // Already JSON, so the route's schema documents the page but does not serialize it: a
      // string with a JSON content type is sent as it is.
      return (reply as FastifyReply).type("application/json").send(page);
    },
  );
};
