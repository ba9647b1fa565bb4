import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { SettlementState } from "../../domain/settlements/decider.ts";
import {
  type BatchIdentity,
  closedBatchOf,
  type SettlementCandidate,
  type SettlementEvent,
  settlementEventTypes,
} from "../../domain/settlements/events.ts";
import { type SettlementView, toSettlementView } from "../../domain/settlements/view.ts";
import { defineProjection } from "../projection.ts";

/**
 * Settlement batches as the API shows them, from their opening on (an open one is also how a
 * batch whose opener died is found and finished), and each batch's candidates, for its paged list
 * of transactions (which keeps those the transactions read model shows settled in it). Taken from
 * the batch's own chunks, a few hundred rows a statement at its opening: nothing is written per
 * transaction while the batch is marked, when payment traffic matters. A batch's events are
 * applied in order, each at most once: opening inserts the row, sealing, closing or failing moves
 * it on from `open` only.
 */
export const settlementsProjection = defineProjection<SettlementEvent>({
  name: "settlements",
  tables: ["settlements", "settlement_transactions"],
  eventTypes: settlementEventTypes,
  async apply(trx, events) {
    for (const event of events) await applySettlementEvent(trx, event);
  },
});

async function applySettlementEvent(trx: Transaction<Database>, event: SettlementEvent): Promise<void> {
  switch (event.type) {
    case "SettlementOpened.v1":
    case "SettlementOpened.v2": {
      const { occurredAt, ...batch } = event.data;
      const transactionCount = event.type === "SettlementOpened.v1" ? event.data.candidates.length : undefined;
      const state: SettlementState =
        transactionCount === undefined
          ? { status: "opening", batch, openedAt: occurredAt, candidateCount: 0 }
          : { status: "open", batch, openedAt: occurredAt, transactionCount };
      if (event.type === "SettlementOpened.v1") await recordCandidates(trx, batch.settlementId, event.data.candidates);
      await trx
        .insertInto("settlements")
        .values({
          settlement_id: batch.settlementId,
          client_id: batch.clientId,
          processor: batch.processor,
          host_configuration_id: batch.hostConfigurationId,
          local_date: batch.localDate,
          status: "open",
          cutoff: new Date(batch.cutoff),
          opened_at: new Date(occurredAt),
          closed_at: null,
          view: jsonb(toSettlementView(state)),
        })
        .onConflict((conflict) => conflict.column("settlement_id").doNothing())
        .execute();
      return;
    }
    case "SettlementCandidatesRecorded.v1":
      await recordCandidates(trx, event.data.settlementId, event.data.candidates);
      return;
    case "SettlementSealed.v1": {
      const { settlementId, transactionCount, occurredAt } = event.data;
      const batch = await openBatch(trx, settlementId);
      if (!batch) return;
      const view = toSettlementView({ status: "open", batch, openedAt: occurredAt, transactionCount });
      await trx.updateTable("settlements").set({ view: jsonb(view) }).where("settlement_id", "=", settlementId).execute();
      return;
    }
    case "SettlementClosed.v1":
    case "SettlementClosed.v2": {
      const batch = await openBatch(trx, event.data.settlementId);
      if (!batch) return;
      const closed = closedBatchOf(event);
      await trx
        .updateTable("settlements")
        .set({ status: closed.status, closed_at: new Date(closed.occurredAt), view: jsonb(toSettlementView({ status: "closed", batch, closed })) })
        .where("settlement_id", "=", batch.settlementId)
        .execute();
      return;
    }
    case "SettlementFailed.v1": {
      const { settlementId, message, occurredAt } = event.data;
      const batch = await openBatch(trx, settlementId);
      if (!batch) return;
      await trx
        .updateTable("settlements")
        .set({ status: "failed", closed_at: new Date(occurredAt), view: jsonb(toSettlementView({ status: "failed", batch, message, failedAt: occurredAt })) })
        .where("settlement_id", "=", settlementId)
        .execute();
      return;
    }
  }
}

/** Rows per statement: an older batch's opening holds every candidate at once. */
const CANDIDATE_ROWS_PER_INSERT = 1_000;

async function recordCandidates(trx: Transaction<Database>, settlementId: string, candidates: readonly SettlementCandidate[]): Promise<void> {
  for (let start = 0; start < candidates.length; start += CANDIDATE_ROWS_PER_INSERT) {
    await trx
      .insertInto("settlement_transactions")
      .values(candidates.slice(start, start + CANDIDATE_ROWS_PER_INSERT).map(({ transactionId }) => ({ settlement_id: settlementId, transaction_id: transactionId })))
      .onConflict((conflict) => conflict.columns(["settlement_id", "transaction_id"]).doNothing())
      .execute();
  }
}

/** The batch's view as the column takes it: JSON text, stored as jsonb. */
const jsonb = (view: SettlementView) => sql<string>`${JSON.stringify(view)}::jsonb`;

/** The batch's identity from its row, if it is still open. */
async function openBatch(trx: Transaction<Database>, settlementId: string): Promise<BatchIdentity | undefined> {
  const row = await trx
    .selectFrom("settlements")
    .select(["client_id", "processor", "host_configuration_id", "local_date", "cutoff"])
    .where("settlement_id", "=", settlementId)
    .where("status", "=", "open")
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    settlementId,
    clientId: row.client_id,
    processor: row.processor as Processor,
    hostConfigurationId: row.host_configuration_id,
    localDate: row.local_date,
    cutoff: new Date(row.cutoff).toISOString(),
  };
}
