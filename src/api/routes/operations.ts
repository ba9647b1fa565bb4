import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.ts";
import { PENDING_RESOLVER_LEASE, type PassSummary } from "../../jobs/pending-resolver.ts";
import { listJobLeases, readLastPass } from "../../projections/job-leases.ts";
import { measureLag } from "../../projections/lag.ts";
import { countMismatchedSettlements } from "../../projections/settlements/queries.ts";
import { countPendingByAge } from "../../projections/transactions/pending-ages.ts";
import { countResolverWork } from "../../projections/transactions/queries.ts";
import { measureWebhookQueue } from "../../projections/webhooks/queue.ts";
import { projections } from "../../projections/all.ts";
import type { RouteDependencies } from "./dependencies.ts";

const passSummarySchema = z.object({
  at: z.iso.datetime().describe("When the pass ended."),
  counts: z
    .object({
      approved: z.number().int(),
      declined: z.number().int(),
      failed: z.number().int(),
      approved_late: z.number().int(),
      reversed: z.number().int(),
      reversal_refused: z.number().int(),
      still_pending: z.number().int(),
      errored: z.number().int(),
    })
    .describe(
      "Transactions by what the pass did: the outcome an inquiry recorded (`approved_late`: a failed one the processor approved after all), " +
        "the result of a reversal, `still_pending` when the processor gave no usable answer, `errored` when resolving it failed (logged, tried again later).",
    ),
}) satisfies z.ZodType<PassSummary>;

const operationsStatusSchema = z
  .object({
    checkedAt: z.iso.datetime(),
    projections: z.array(
      z.object({
        projection: z.string(),
        headPosition: z.string().nullable().describe("Global position of the newest event (a string: it may exceed 2^53)."),
        projectedPosition: z.string().nullable().describe("Global position of the last event the projection applied."),
        positionsBehind: z.string().describe("0 when caught up."),
        secondsBehind: z.number(),
      }),
    ),
    pending: z.object({
      byAge: z.object({ "<1m": z.number().int(), "1m-10m": z.number().int(), "10m-1h": z.number().int(), ">=1h": z.number().int() }),
      oldestSeconds: z.number(),
    }),
    resolver: z.object({
      owed: z
        .object({ inquire: z.number().int(), reverse: z.number().int(), watch: z.number().int() })
        .describe("Transactions the pending resolver still has to ask about, reverse, or watch for a late approval."),
      lastPass: passSummarySchema.nullable().describe("The resolver's most recent pass that did anything; null until one has."),
    }),
    jobs: z
      .array(
        z.object({
          name: z.string(),
          active: z.boolean().describe("An instance holds the job's lease now."),
          lastSeenAt: z.iso.datetime().describe("When an instance last took the lease (the resolver does on every pass)."),
          leaseExpiresAt: z.iso.datetime().nullable(),
        }),
      )
      .describe("The leased background jobs: the pending resolver, the webhook dispatcher."),
    webhooks: z.object({ pending: z.number().int(), oldestSeconds: z.number() }),
    settlements: z.object({ mismatched: z.number().int() }),
  })
  .meta({ id: "OperationsStatus" });

/** The pending resolver's last pass that did anything, as the API shows it. */
async function pendingResolverLastPass(db: Kysely<Database>): Promise<PassSummary | null> {
  const lastPass = await readLastPass(db, PENDING_RESOLVER_LEASE);
  return lastPass ? passSummarySchema.parse(lastPass) : null;
}

/** What an operator watches: is everything flowing, and what is stuck. */
export const operationsRoutes: FastifyPluginAsyncZod<RouteDependencies> = async (app, { db, store, now }) => {
  app.get(
    "/operations/status",
    {
      config: { access: "admin" },
      schema: {
        tags: ["operations"],
        operationId: "getOperationsStatus",
        summary: "Projection lag, pending transactions by age, the resolver's work, background jobs, webhook queue, reconciliation exceptions",
        response: { 200: operationsStatusSchema },
      },
    },
    async () => {
      const checkedAt = now();
      const [lags, pending, owed, lastPass, jobs, webhooks, mismatched] = await Promise.all([
        Promise.all(projections.map((projection) => measureLag(db, store, projection))),
        countPendingByAge(db, checkedAt),
        countResolverWork(db),
        pendingResolverLastPass(db),
        listJobLeases(db),
        measureWebhookQueue(db),
        countMismatchedSettlements(db),
      ]);
      return {
        checkedAt: checkedAt.toISOString(),
        projections: lags.map((lag) => ({
          projection: lag.projection,
          headPosition: lag.headPosition?.toString() ?? null,
          projectedPosition: lag.projectedPosition?.toString() ?? null,
          positionsBehind: lag.positionsBehind.toString(),
          secondsBehind: lag.secondsBehind,
        })),
        pending,
        resolver: { owed, lastPass },
        jobs: jobs.map((job) => ({
          ...job,
          lastSeenAt: job.lastSeenAt.toISOString(),
          leaseExpiresAt: job.leaseExpiresAt?.toISOString() ?? null,
        })),
        webhooks,
        settlements: { mismatched },
      };
    },
  );
};
