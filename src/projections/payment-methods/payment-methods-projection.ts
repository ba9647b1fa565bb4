import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import {
  type PaymentMethodCreated,
  type PaymentMethodDeleted,
  toPaymentMethodView,
} from "../../domain/payment-methods/decider.ts";
import { defineProjection } from "../projection.ts";

/**
 * One row per payment method: its API view and its card's ciphertext, which a payment decrypts
 * with the data key of `payment_method_keys` (never a table of this projection, so a rebuild
 * cannot bring a deleted key back). A deleted method keeps its row, marked, without ciphertext.
 */
export const paymentMethodsProjection = defineProjection<PaymentMethodCreated | PaymentMethodDeleted>({
  name: "payment_methods",
  tables: ["payment_methods"],
  eventTypes: ["PaymentMethodCreated.v1", "PaymentMethodDeleted.v1"],
  async apply(trx, events) {
    for (const event of events) {
      if (event.type === "PaymentMethodCreated.v1") await applyCreated(trx, event);
      else await applyDeleted(trx, event);
    }
  },
});

async function applyCreated(trx: Transaction<Database>, event: PaymentMethodCreated): Promise<void> {
  const view = toPaymentMethodView(event);
  await trx
    .insertInto("payment_methods")
    .values({
      payment_method_id: view.id,
      client_id: view.clientId,
      user_id: view.userId,
      view: sql`${JSON.stringify(view)}::json`,
      encrypted_card: event.data.encryptedCard,
      encrypted_fingerprint: event.data.encryptedFingerprint ?? null,
      data_key_id: event.data.dataKeyId,
      created_at: new Date(view.createdAt),
    })
    .onConflict((conflict) => conflict.column("payment_method_id").doNothing())
    .execute();
}

async function applyDeleted(trx: Transaction<Database>, event: PaymentMethodDeleted): Promise<void> {
  await trx
    .updateTable("payment_methods")
    // A method stored before its fingerprint moved under its key has it in its view: it goes too.
    .set({ deleted_at: new Date(event.data.occurredAt), encrypted_card: null, encrypted_fingerprint: null, view: sql`(view::jsonb #- '{card,fingerprint}')::json` })
    .where("payment_method_id", "=", event.data.paymentMethodId)
    .where("deleted_at", "is", null)
    .execute();
}
