import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";
import { waitUntilApplied } from "../lag.ts";
import { transactionsProjection } from "./transactions-projection.ts";

/** A payment method's payments from the transactions read model (`PaymentsWithCard` of src/commands). */
export const paymentsWithCardOf = (db: Kysely<Database>, store: EventStore) => ({
  catchUp: (timeoutMs: number): Promise<boolean> => waitUntilApplied(db, store, transactionsProjection, timeoutMs),
  // The partial index of migration 0022 on (client_id, paymentMethodId, created_at desc) serves it.
  anyPendingBetween: async ({ clientId, paymentMethodId, from, to }: { clientId: string; paymentMethodId: string; from: Date; to: Date }): Promise<boolean> =>
    (await db
      .selectFrom("transactions")
      .select("transaction_id")
      .where("client_id", "=", clientId)
      .where(sql`view->>'paymentMethodId'`, "=", paymentMethodId)
      .where("status", "=", "pending")
      .where("created_at", ">", from)
      .where("created_at", "<=", to)
      .limit(1)
      .executeTakeFirst()) !== undefined,
});
