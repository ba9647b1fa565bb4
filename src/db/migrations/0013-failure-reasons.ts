import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The transaction object now names why a failed transaction failed: stored views gain the
  // field from their payment's folded state, as a replay would write it.
  await sql`
    update transactions t
    set view = t.view || jsonb_build_object('failureReason', coalesce(item->'failureReason', 'null'::jsonb))
    from payments p, jsonb_array_elements(p.state->'transactions') item
    where p.payment_id = t.payment_id and item->>'id' = t.transaction_id::text and not (t.view ? 'failureReason')
  `.execute(db);
}
