import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import { paymentStreamId } from "../../domain/payments/index.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { transactionsProjection } from "./transactions-projection.ts";

/**
 * Read-your-writes for payments: a transaction's POST answers once its events are appended, and
 * the reads of its client that follow on this instance wait until the read model shows it.
 */
export function rememberPaymentWrite({ db, readYourWrites }: OwnWritesContext, clientId: string, paymentId: string, revision: bigint): void {
  readYourWrites.rememberOwnWrite(targetOf(paymentId, revision), clientId, () => paymentProjected(db, paymentId, revision));
}

/** Before reading transactions of a client (of every client, when undefined): its answered writes are in. */
export function awaitOwnPaymentWrites({ readYourWrites }: Pick<OwnWritesContext, "readYourWrites">, clientId: string | undefined): Promise<void> {
  return readYourWrites.awaitOwnWrites({ projection: transactionsProjection.name, scope: clientId });
}

const targetOf = (paymentId: string, revision: bigint) => ({
  projection: transactionsProjection.name,
  streamId: paymentStreamId(paymentId),
  revision,
});

async function paymentProjected(db: Kysely<Database>, paymentId: string, revision: bigint): Promise<boolean> {
  const row = await db
    .selectFrom("payments")
    .select("payment_id")
    .where("payment_id", "=", paymentId)
    .where("revision", ">=", revision.toString())
    .executeTakeFirst();
  return row !== undefined;
}
