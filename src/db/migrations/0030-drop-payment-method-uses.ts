import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A payment's intent, which names the payment method, is the record of its use: a deletion looks
  // for the method's pending payments in the transactions read model, no longer for these rows.
  await sql`drop table payment_method_uses`.execute(db);
}
