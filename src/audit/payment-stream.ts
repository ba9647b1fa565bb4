import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { paymentStreamId } from "../domain/payments/index.ts";
import { findTransaction } from "../projections/transactions/queries.ts";

/**
 * The payment stream a transaction lives in, found through the transactions read model.
 * Undefined for an unknown transaction, or one of another client than `clientId` when given.
 */
export async function paymentStreamOf(
  db: Kysely<Database>,
  transactionId: string,
  clientId?: string,
): Promise<string | undefined> {
  const found = await findTransaction(db, transactionId, clientId);
  return found && paymentStreamId(found.paymentId);
}
