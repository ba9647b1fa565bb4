import type { Kysely, NotNull } from "kysely";
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
  /*
   * A plain read, though a deletion may erase the key once it has looked for payments under way:
   * the payment's intent, which names the method, is the record of its use, and it is committed
   * before this statement is asked, so before it starts. A deletion marks the key deleting (a
   * committed update), and only then looks, in the transactions read model caught up with the log,
   * for pending payments with the method (`deletePaymentMethod`). If this statement started before
   * the mark committed, the intent committed before that, so the deletion's look (which starts
   * after the mark) finds it and waits for its processor call; if it started after, it sees the key
   * deleting and the payment fails unsent.
   */
  const use = batchWhileBusy(async (paymentMethodIds: string[]) => {
    const rows = await db
      .selectFrom("payment_method_keys")
      .innerJoin("payment_methods", "payment_methods.payment_method_id", "payment_method_keys.payment_method_id")
      .select(["payment_method_keys.payment_method_id", "payment_methods.encrypted_card", "payment_method_keys.wrapped_key"])
      .where("payment_method_keys.payment_method_id", "in", [...new Set(paymentMethodIds)])
      .where("payment_method_keys.deleting_since", "is", null)
      .where("payment_methods.deleted_at", "is", null)
      .where("payment_methods.encrypted_card", "is not", null)
      .$narrowType<{ encrypted_card: NotNull }>()
      .execute();
    const found = new Map(rows.map((row) => [row.payment_method_id, { encryptedCard: row.encrypted_card, wrappedKey: row.wrapped_key }]));
    return paymentMethodIds.map((paymentMethodId) => {
      const key = found.get(paymentMethodId);
      return key && { open: () => openCard(secrets, paymentMethodId, key.wrappedKey, key.encryptedCard) };
    });
  });
  return {
    of: (paymentMethodId) => lookup(paymentMethodId),
    use: (paymentMethodId) => use(paymentMethodId),
  };
}
