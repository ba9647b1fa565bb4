import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { SettlementCandidate } from "../../domain/settlements/events.ts";
import type { EventStore } from "../../eventstore/port.ts";
import { waitUntilApplied } from "../lag.ts";
import { transactionsProjection } from "./transactions-projection.ts";

/** A settlement's candidates from the transactions read model (`SettlementCandidates` of src/commands). */
export const settlementCandidatesOf = (db: Kysely<Database>, store: EventStore) => ({
  catchUp: (timeoutMs: number): Promise<boolean> => waitUntilApplied(db, store, transactionsProjection, timeoutMs),
  of: (batch: { hostConfigurationId: string; cutoff: Date }): Promise<SettlementCandidate[]> =>
    db
      .selectFrom("transactions")
      .select(["transaction_id as transactionId", "payment_id as paymentId"])
      .where("host_configuration_id", "=", batch.hostConfigurationId)
      .where("awaiting_settlement", "=", true)
      .where("created_at", "<=", batch.cutoff)
      .orderBy("created_at")
      .orderBy("transaction_id")
      .execute(),
});
