import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply } from "fastify";
import {
  finishSettlement,
  openSettlement,
  type SettlementCandidates,
  type SettlementContext,
  settlementAsItStands,
  type SettlementResult,
} from "../../commands/settlements/index.ts";
import { processors } from "../../domain/host-configurations/schemas.ts";
import { newId } from "../../ids.ts";
import { awaitOwnSettlementWrites, rememberSettlementWrite } from "../../projections/settlements/own-writes.ts";
import { findSettlement, settlementOwner, settlementsNewestFirst } from "../../projections/settlements/queries.ts";
import { hostConfigurationOwner } from "../../projections/host-configurations/queries.ts";
import { awaitOwnPaymentWrites, rememberPaymentWrite } from "../../projections/transactions/own-writes.ts";
import { settledTransactions } from "../../projections/transactions/queries.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { decodeIdCursor, decodeTimeCursor, encodeIdCursor, encodeTimeCursor, listQuery, lowerBoundOf, pageOf, timestamp, upperBoundOf } from "../pagination.ts";
import { ApiProblem, notFound } from "../problems.ts";
import { pascalCase } from "../openapi/pascal-case.ts";
import { transactionSchema } from "../transaction-schema.ts";
import type { TransactionRouteDependencies } from "./dependencies.ts";
import { bindIdempotencyKey } from "../idempotency.ts";

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
    closedAt: z.string().nullable().describe("When it closed or failed; null while closing."),
    cutoff: z.string().describe("The batch took what was made up to this moment."),
    status: z
      .enum(["closing", "matched", "mismatched", "failed"])
      .describe("`closing`: the processor is closing it; `mismatched`: the processor's totals differ from the ledger's; `failed`: the processor refused it, nothing in it settled."),
    totals: z.array(totalsSchema).describe("The ledger's, per currency; `salesCount`/`salesAmount` count sales and captures. Empty until closed."),
    processorTotals: z.array(totalsSchema).describe("The processor's own count of the same batch. Empty until closed."),
    transactionCount: z
      .number()
      .int()
      .describe("The transactions it takes while closing; those it settled once closed. Paged at `/v1/settlements/{id}/transactions`."),
  })
  .meta({ id: "Settlement" });

const settlementsQuery = listQuery.extend({
  clientId: z.uuid().optional(),
  processor: z.enum(processors).optional(),
  hostConfigurationId: z.uuid().optional(),
  status: z.enum(["closing", "matched", "mismatched", "failed"]).optional().describe("Only batches in this status; every status by default."),
  from: timestamp.optional().describe("Closed (or, while closing, opened) at or after; a date alone means from the start of that UTC day."),
  to: timestamp.optional().describe("Closed (or, while closing, opened) at or before; a date alone means to the end of that UTC day."),
});

const tags = ["settlements"];

export interface SettlementRouteDependencies extends TransactionRouteDependencies {
  settlementCandidates: SettlementCandidates;
  settlement: {
    /** How long a manual close waits for its batch to close before answering 202 (SETTLEMENT_SYNC_WAIT_MS). */
    syncWaitMs: number;
    /** When a claim or an unsealed batch counts as its opener's that died (SETTLEMENT_RESUME_AFTER_MS). */
    resumeAfterMs: number;
  };
}

/** How often a request answering a batch that another call closes looks at it again. */
const BATCH_POLL_MS = 200;

export const settlementRoutes: FastifyPluginAsyncZod<SettlementRouteDependencies> = async (app, deps) => {
  const { db } = deps;
  const options = { staleAfterMs: deps.settlement.resumeAfterMs };
  /** The client's next reads on this instance wait until the read models show the batch as answered, and the payments it marked settled. */
  const remembered = (result: SettlementResult): SettlementResult => {
    if (result.kind === "refused") return result;
    const { clientId, settlementId, revision, status } = result.written;
    rememberSettlementWrite(deps, clientId, settlementId, revision, status);
    for (const payment of result.paymentsWritten) rememberPaymentWrite(deps, payment.clientId, payment.paymentId, payment.revision);
    return result;
  };

  for (const processor of processors) {
    app.post(
      `/host-configurations/${processor}/:id/settle`,
      {
        config: { access: "admin" },
        schema: {
          tags,
          operationId: `close${pascalCase(processor)}SettlementBatch`,
          summary: `Close a ${processor} host configuration's settlement batch now`,
          description:
            "Takes every approved sale, capture and refund of the configuration not yet settled. 201 the batch once closed within " +
            "`SETTLEMENT_SYNC_WAIT_MS`; otherwise 202 the same object in `status: \"closing\"` with a `location` header and field " +
            "(`/v1/settlements/{id}`), and the close goes on. Nothing to take: " +
            "409 `nothing_to_settle`; another batch of the configuration still being closed: 409 `settlement_in_progress`; the " +
            "processor refused the batch: 502 `processor_error`. The same request again with its `Idempotency-Key` answers that " +
            "batch as it stands.",
          params: z.strictObject({ id: z.uuid() }),
          // One success schema per operation in the reference: the 202 is the same batch, `closing`,
          // with `location` added.
          response: { 201: settlementSchema },
        },
      },
      async (request, reply) => {
        const waitUntil = performance.now() + deps.settlement.syncWaitMs;
        const configuration = await hostConfigurationOwner(db, request.params.id);
        if (!configuration || configuration.processor !== processor) throw notFound("host configuration");
        // Under an Idempotency-Key, the key belongs to the batch (as to a transaction): a retry,
        // even one that took over the key of a request still closing, answers that batch.
        const bound = request.idempotency?.bound?.transactionId;
        const settlementId = bound ?? newId();
        const bind = bound === undefined ? bindIdempotencyKey(request) : undefined;
        if (bind && !(await bind({ transactionId: settlementId, paymentId: settlementId }))) {
          throw new ApiProblem("idempotency_request_in_progress", "A request with this Idempotency-Key is still being processed; retry later.");
        }
        const context: SettlementContext = { ...deps, logger: request.log, metadata: eventMetadataOf(request) };
        if (request.idempotency?.unanswered) {
          // The key's first request may still run (its claim is held): it alone opens the batch,
          // and this retry, holding no claim, could store no answer for a close it made itself.
          const asItStands = await settlementAsItStands(context, settlementId);
          if (!asItStands) throw new ApiProblem("idempotency_request_in_progress", "A request with this Idempotency-Key is still being processed; retry later.");
          return answer(reply, remembered(asItStands));
        }
        // What this instance just answered for the client is in the batch, not left for the next.
        await awaitOwnPaymentWrites(deps, configuration.client_id);
        const opened = await openSettlement(
          context,
          { settlementId, hostConfigurationId: request.params.id, clientId: configuration.client_id, processor, localDate: null, cutoff: deps.now() },
          options,
        );
        if (opened.kind === "refused") return answer(reply, opened);
        if (opened.kind === "opened") {
          // The close goes on after a 202; a failure is the lifecycle job's to finish.
          const finishing = finishSettlement(context, settlementId, options).then(remembered);
          finishing.catch((error: unknown) => request.log.error({ err: error, settlementId }, "closing a settlement batch failed; the lifecycle job finishes it"));
          const finished = await within(finishing, waitUntil);
          if (finished) return answer(reply, finished);
        }
        return answer(reply, remembered(await batchAsItStands(context, settlementId, waitUntil)));
      },
    );
  }

  /** The batch another call opened, once it closes or the wait is over; a batch not opened yet is still in progress. */
  async function batchAsItStands(context: SettlementContext, settlementId: string, waitUntil: number): Promise<SettlementResult> {
    for (;;) {
      const batch = await settlementAsItStands(context, settlementId);
      const closing = !batch || (batch.kind === "batch" && batch.settlement.status === "closing");
      if (!closing || performance.now() >= waitUntil) {
        return batch ?? { kind: "refused", error: "settlement_in_progress", detail: `Batch ${settlementId} is being opened.` };
      }
      await sleep(Math.min(BATCH_POLL_MS, waitUntil - performance.now()));
    }
  }

  app.get(
    "/settlements/:id/transactions",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listSettlementTransactions",
        summary: "The transactions a settlement batch settled, newest first",
        description: "While the batch closes, those settled so far.",
        params: z.strictObject({ id: z.uuid() }),
        querystring: listQuery,
        response: { 200: z.object({ data: z.array(transactionSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { limit, cursor } = request.query;
      await awaitOwnSettlementWrites(deps, ownClientOf(principal));
      const batch = await settlementOwner(db, request.params.id);
      if (!batch || !canSeeClient(principal, batch.client_id)) throw notFound("settlement");
      await awaitOwnPaymentWrites(deps, batch.client_id);
      const after = cursor === undefined ? undefined : decodeIdCursor(cursor);
      const rows = await settledTransactions(db, request.params.id, after, limit);
      const page = pageOf(rows, limit, (row) => encodeIdCursor(row.transactionId));
      return { data: page.data.map((row) => row.view), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/settlements",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listSettlements",
        summary: "Settlement batches of every status, newest first, filtered",
        description:
          "Client keys see their own batches; admin keys see every client's, or one client's with `clientId`. Newest first by when each batch opened, `closing` and `failed` ones included.",
        querystring: settlementsQuery,
        response: { 200: z.object({ data: z.array(settlementSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId: askedFor, processor, hostConfigurationId, status, from, to, limit, cursor } = request.query;
      if (principal.role === "client" && askedFor !== undefined && askedFor !== principal.clientId) return { data: [], nextCursor: null };
      const clientId = ownClientOf(principal) ?? askedFor;
      await awaitOwnSettlementWrites(deps, clientId);
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const filter = {
        clientId,
        processor,
        hostConfigurationId,
        status,
        from: from === undefined ? undefined : lowerBoundOf(from),
        to: to === undefined ? undefined : upperBoundOf(to),
      };
      const rows = await settlementsNewestFirst(db, filter, after, limit);
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(new Date(row.opened_at), row.settlement_id));
      return { data: page.data.map((row) => row.view), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/settlements/:id",
    {
      config: { access: "any" },
      schema: { operationId: "getSettlement", tags, summary: "A settlement batch", params: z.strictObject({ id: z.uuid() }), response: { 200: settlementSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      await awaitOwnSettlementWrites(deps, ownClientOf(principal));
      const row = await findSettlement(db, request.params.id);
      if (!row || !canSeeClient(principal, row.client_id)) throw notFound("settlement");
      return row.view;
    },
  );
};

/** The processor's words as one sentence, whether they end with a full stop or not. */
const sentence = (words: string) => (/[.!?]$/.test(words) ? words : `${words}.`);

/** The batch before the deadline, or undefined. */
async function within(finishing: Promise<SettlementResult>, waitUntil: number): Promise<SettlementResult | undefined> {
  const timer = new AbortController();
  const timeout = sleep(Math.max(0, waitUntil - performance.now()), undefined, { signal: timer.signal }).catch(() => undefined);
  try {
    return await Promise.race([finishing, timeout]);
  } finally {
    timer.abort();
  }
}

/** One answer per outcome: 201 closed, 202 closing (the close goes on), 502 refused by the processor, 409 none opened. */
function answer(reply: FastifyReply, result: SettlementResult) {
  if (result.kind === "refused") {
    const detail = result.error === "settlement_in_progress" ? `${result.detail} Retry once it is closed.` : result.detail;
    throw new ApiProblem(result.error, detail);
  }
  const { settlement } = result;
  switch (settlement.status) {
    case "matched":
    case "mismatched":
      return reply.code(201).send(settlement);
    case "closing": {
      const location = `/v1/settlements/${settlement.id}`;
      return reply.code(202).header("location", location).send({ ...settlement, location });
    }
    case "failed":
      throw new ApiProblem("processor_error", `Batch ${settlement.id} failed: ${sentence(result.detail ?? "the processor refused it")} Its transactions wait for the next batch.`);
  }
}
