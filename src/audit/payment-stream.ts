import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { paymentStreamId } from "../domain/payments/index.ts";

/**
 * The payment stream a transaction lives in, found through the transactions read model.
 * Undefined for an unknown transaction, or one of another client than `clientId` when given.
 */
export async function paymentStreamOf(
  db: Kysely<Database>,
  transactionId: string,
  clientId?: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("transactions")
    .select("payment_id")
    .where("transaction_id", "=", transactionId)
    .$if(clientId !== undefined, (query) => query.where("client_id", "=", clientId!))
    .executeTakeFirst();
  return row && paymentStreamId(row.payment_id);
}
