import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";

/**
 * The API's reads of the payment methods read model (`payment-methods-projection.ts` writes it).
 * Each row comes with what its view needs shown: the fingerprint is kept under the method's data
 * key, whose wrapped key is joined in (none once the method is deleted). Whose a method is, and
 * whether a deleted one may be shown, is the caller's to check.
 */

const withKeys = (db: Kysely<Database>) =>
  db
    .selectFrom("payment_methods")
    .leftJoin("payment_method_keys", "payment_method_keys.payment_method_id", "payment_methods.payment_method_id")
    .select(["payment_methods.payment_method_id", "view", "client_id", "deleted_at", "encrypted_fingerprint", "wrapped_key"]);

/** A payment method, deleted or not. */
export function findPaymentMethod(db: Kysely<Database>, paymentMethodId: string) {
  return withKeys(db).where("payment_methods.payment_method_id", "=", paymentMethodId).executeTakeFirst();
}

/**
 * A page of the payment methods not deleted, one client's and one user's when given, by id
 * descending, after `after` when given; `limit + 1` rows tell whether more follow.
 */
export function paymentMethodsNewestFirst(
  db: Kysely<Database>,
  { clientId, userId, after, limit }: { clientId: string | undefined; userId: string | undefined; after: string | undefined; limit: number },
) {
  return withKeys(db)
    .where("deleted_at", "is", null)
    .$if(clientId !== undefined, (query) => query.where("client_id", "=", clientId!))
    .$if(userId !== undefined, (query) => query.where("user_id", "=", userId!))
    .$if(after !== undefined, (query) => query.where("payment_methods.payment_method_id", "<", after!))
    .orderBy("payment_methods.payment_method_id", "desc")
    .limit(limit + 1)
    .execute();
}
