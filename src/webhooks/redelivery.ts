import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";

/**
 * Makes a delivery due again at once, with a fresh retry schedule (the same message, the same
 * `webhook-id`). False when the delivery is gone: purged past WEBHOOK_LOG_RETENTION_DAYS.
 */
export async function redeliver(db: Kysely<Database>, deliveryId: string): Promise<boolean> {
  const redelivered = await db
    .updateTable("webhook_deliveries")
    .set({
      status: "pending",
      next_attempt_at: sql`now()`,
      round_start: sql`attempts`,
      redeliveries: sql`redeliveries + 1`,
      updated_at: sql`now()`,
    })
    .where("delivery_id", "=", deliveryId)
    .executeTakeFirst();
  return redelivered.numUpdatedRows > 0n;
}
