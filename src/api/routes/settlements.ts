import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { closeSettlement, type SettlementContext } from "../../commands/settlements.ts";
import { processors } from "../../domain/host-configurations/schemas.ts";
import type { SettlementView } from "../../domain/settlements/view.ts";
import { newId } from "../../ids.ts";
import { awaitOwnSettlementWrites } from "../../projections/settlements/own-writes.ts";
import { awaitOwnPaymentWrites } from "../../projections/transactions/own-writes.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { decodeTimeCursor, encodeTimeCursor, listQuery, lowerBoundOf, newestFirst, pageOf, timestamp, upperBoundOf } from "../pagination.ts";
import { ApiProblem, notFound } from "../problems.ts";
import type { TransactionRouteDependencies } from "./transactions.ts";

const totalsSchema = z.object({
  currency: z.string(),
  salesCount: z.number().int(),
  salesAmount: z.number().int(),
  refundsCount: z.number().int(),
  refundsAmount: z.number().int(),
  netAmount: z.number().int(),
});

export const settlementSchema = z
  .object({
    id: z.uuid(),
    clientId: z.uuid(),
    processor: z.enum(processors),
    hostConfigurationId: z.uuid(),
    closedAt: z.string(),
    cutoff: z.string().describe("The batch took what was made up to this moment."),
    status: z.enum(["matched", "mismatched"]).describe("`mismatched`: the processor's totals differ from the ledger's."),
    totals: z.array(totalsSchema).describe("The ledger's, per currency; `salesCount`/`salesAmount` count sales and captures."),
    processorTotals: z.array(totalsSchema).describe("The processor's own count of the same batch."),
    transactionIds: z.array(z.uuid()),
  })
  .meta({ id: "Settlement" });

const settlementsQuery = listQuery.extend({
  clientId: z.uuid().optional(),
  processor: z.enum(processors).optional(),
  hostConfigurationId: z.uuid().optional(),
  from: timestamp.optional().describe("Closed at or after; a date alone means from the start of that UTC day."),
  to: timestamp.optional().describe("Closed at or before; a date alone means to the end of that UTC day."),
});

const tags = ["settlements"];

export const settlementRoutes: FastifyPluginAsyncZod<TransactionRouteDependencies> = async (app, deps) => {
  const { db } = deps;

  for (const processor of processors) {
    app.post(
      `/host-configurations/${processor}/:id/settle`,
      {
        config: { access: "admin" },
        schema: {
          tags,
          summary: `Close a ${processor} host configuration's settlement batch now`,
          description:
            "Takes every approved sale, capture and refund of the configuration not yet settled. Nothing to take: 409 `nothing_to_settle`; " +
            "another batch of the configuration still being closed: 409 `settlement_in_progress`.",
          params: z.strictObject({ id: z.uuid() }),
          response: { 201: settlementSchema },
        },
      },
      async (request, reply) => {
        const configuration = await db
          .selectFrom("host_configurations")
          .select(["client_id", "processor"])
          .where("host_configuration_id", "=", request.params.id)
          .executeTakeFirst();
        if (!configuration || configuration.processor !== processor) throw notFound("host configuration");
        // What this instance just answered for the client is in the batch, not left for the next.
        await awaitOwnPaymentWrites(deps, configuration.client_id);
        // A batch of many thousands takes minutes (marking yields to payments): the operator's
        // connection must not be dropped as idle meanwhile (CONNECTION_TIMEOUT_MS).
        request.raw.socket.setTimeout(0);
        const context: SettlementContext = { ...deps, logger: request.log, metadata: eventMetadataOf(request) };
        const result = await closeSettlement(context, {
          settlementId: newId(),
          hostConfigurationId: request.params.id,
          clientId: configuration.client_id,
          processor,
          localDate: null,
          cutoff: deps.now(),
        });
        if (result.ok) return reply.code(201).send(result.settlement);
        switch (result.error) {
          case "nothing_to_settle":
            throw new ApiProblem("nothing_to_settle", result.detail);
          case "settlement_in_progress":
            throw new ApiProblem("settlement_in_progress", `${result.detail} Retry once it is closed.`);
          case "processor_timeout":
            throw new ApiProblem("processor_timeout", `${result.detail} The batch stays open and is closed as soon as the processor answers.`);
          case "processor_error":
            throw new ApiProblem("processor_error", result.detail);
          case "already_exists":
            throw new ApiProblem("internal_error", result.detail);
        }
      },
    );
  }

  app.get(
    "/settlements",
    {
      config: { access: "any" },
      schema: {
        tags,
        summary: "Settlement batches, newest first, filtered",
        description: "Client keys see their own batches; admin keys see every client's, or one client's with `clientId`.",
        querystring: settlementsQuery,
        response: { 200: z.object({ data: z.array(settlementSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId: askedFor, processor, hostConfigurationId, from, to, limit, cursor } = request.query;
      if (principal.role === "client" && askedFor !== undefined && askedFor !== principal.clientId) return { data: [], nextCursor: null };
      const clientId = ownClientOf(principal) ?? askedFor;
      await awaitOwnSettlementWrites(deps, clientId);
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const filtered = db
        .selectFrom("settlements")
        .select(["settlement_id", "closed_at", "view"])
        .where("status", "in", ["matched", "mismatched"])
        .$if(clientId !== undefined, (q) => q.where("client_id", "=", clientId!))
        .$if(processor !== undefined, (q) => q.where("processor", "=", processor!))
        .$if(hostConfigurationId !== undefined, (q) => q.where("host_configuration_id", "=", hostConfigurationId!))
        .$if(from !== undefined, (q) => q.where("closed_at", ">=", lowerBoundOf(from!)))
        .$if(to !== undefined, (q) => q.where("closed_at", "<=", upperBoundOf(to!)));
      const rows = await newestFirst(filtered, ["closed_at", "settlement_id"], after, limit).execute();
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(new Date(row.closed_at!), row.settlement_id));
      return { data: page.data.map((row) => row.view as SettlementView), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/settlements/:id",
    {
      config: { access: "any" },
      schema: { tags, summary: "A settlement batch", params: z.strictObject({ id: z.uuid() }), response: { 200: settlementSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      await awaitOwnSettlementWrites(deps, ownClientOf(principal));
      const row = await db
        .selectFrom("settlements")
        .select(["client_id", "view"])
        .where("settlement_id", "=", request.params.id)
        .where("status", "in", ["matched", "mismatched"])
        .executeTakeFirst();
      if (!row || !canSeeClient(principal, row.client_id)) throw notFound("settlement");
      return row.view as SettlementView;
    },
  );
};
