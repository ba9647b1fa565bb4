import { paymentMethodStreamId } from "../../domain/payment-methods/decider.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { paymentMethodsProjection } from "./payment-methods-projection.ts";

/**
 * Until the read model shows the payment method (deleted, with `deleted`), its stream at
 * `revision`, a bounded while: a payment that names it right after the answer finds it.
 */
export function waitForPaymentMethodWrite(
  { db, readYourWrites }: OwnWritesContext,
  { paymentMethodId, revision, deleted }: { paymentMethodId: string; revision: bigint; deleted: boolean },
): Promise<boolean> {
  const target = { projection: paymentMethodsProjection.name, streamId: paymentMethodStreamId(paymentMethodId), revision };
  return readYourWrites.waitForProjection(target, async () =>
    Boolean(
      await db
        .selectFrom("payment_methods")
        .select("payment_method_id")
        .where("payment_method_id", "=", paymentMethodId)
        .$if(deleted, (query) => query.where("deleted_at", "is not", null))
        .executeTakeFirst(),
    ),
  );
}
