import { type Kysely, sql } from "kysely";
import type { PaymentMethodOfPayment, StoredCards } from "../commands/payment-methods/stored-card.ts";
import { batchWhileBusy } from "../batching/batch-while-busy.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Database } from "../db/schema.ts";
import { cardSummaryOf } from "../domain/cards.ts";
import { openCard } from "./card-vault.ts";

/**
 * Payment methods with their wrapped data keys, as payments look them up (the commands'
 * `StoredCards`): the lookups that arrive while one is in flight are made together, in one
 * statement. A lookup is only ever answered by a statement that started after it was asked, so it
 * sees every deletion answered before; nothing read is kept once its lookup is answered. One per
 * service (its batchers hold the lookups in flight), made at its start.
 */
export function createStoredCards(db: Kysely<Database>, secrets: SecretBox): StoredCards {
  const lookup = batchWhileBusy(async (paymentMethodIds: string[]) => {
    const rows = await db
      .selectFrom("payment_methods")
      .innerJoin("payment_method_keys", "payment_method_keys.payment_method_id", "payment_methods.payment_method_id")
      .select(["payment_methods.payment_method_id", "payment_methods.client_id", "payment_methods.user_id", "payment_methods.view"])
      .where("payment_methods.payment_method_id", "in", [...new Set(paymentMethodIds)])
      .where("payment_methods.deleted_at", "is", null)
      .where("payment_methods.encrypted_card", "is not", null)
      .execute();
    const found = new Map(
      rows.map((row): [string, PaymentMethodOfPayment] => [
        row.payment_method_id,
        { clientId: row.client_id, userId: row.user_id, summary: cardSummaryOf(row.view.card, { paidWithMethod: true }) },
      ]),
    );
    return paymentMethodIds.map((paymentMethodId) => found.get(paymentMethodId));
  });
  // FOR SHARE: a deletion's mark (an update of the key row) waits for this statement, uses
  // registered, to commit, or this statement waits for the mark and then skips the row. So a
  // deletion that marked the key sees every use of it registered before.
  const use = batchWhileBusy(async (uses: { paymentMethodId: string; transactionId: string }[]) => {
    const asked = sql.join(uses.map(({ paymentMethodId, transactionId }) => sql`(${paymentMethodId}::uuid, ${transactionId}::uuid)`));
    const { rows } = await sql<{ payment_method_id: string; encrypted_card: string; wrapped_key: string }>`
      with asked (payment_method_id, transaction_id) as (values ${asked}),
      found as (
        select payment_method_keys.payment_method_id, payment_methods.encrypted_card, payment_method_keys.wrapped_key
        from payment_method_keys
        join payment_methods on payment_methods.payment_method_id = payment_method_keys.payment_method_id
        where payment_method_keys.payment_method_id in (select payment_method_id from asked)
          and payment_method_keys.deleting_since is null
          and payment_methods.deleted_at is null
          and payment_methods.encrypted_card is not null
        for share of payment_method_keys
      ),
      registered as (
        insert into payment_method_uses (transaction_id, payment_method_id, started_at)
        select asked.transaction_id, asked.payment_method_id, now() from asked join found on found.payment_method_id = asked.payment_method_id
      )
      select payment_method_id, encrypted_card, wrapped_key from found`.execute(db);
    const found = new Map(rows.map((row) => [row.payment_method_id, { encryptedCard: row.encrypted_card, wrappedKey: row.wrapped_key }]));
    return uses.map(({ paymentMethodId }) => {
      const key = found.get(paymentMethodId);
      return key && { open: () => openCard(secrets, paymentMethodId, key.wrappedKey, key.encryptedCard) };
    });
  });
  const release = batchWhileBusy(async (transactionIds: string[]) => {
    await db.deleteFrom("payment_method_uses").where("transaction_id", "in", transactionIds).execute();
    return transactionIds.map(() => undefined);
  });
  return {
    of: (paymentMethodId) => lookup(paymentMethodId),
    use: (paymentMethodId, transactionId) => use({ paymentMethodId, transactionId }),
    release: (transactionId) => release(transactionId),
  };
}
