import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import { paymentStreamId } from "../../domain/payments/index.ts";
import { awaitOwnWrites, rememberOwnWrite, waitForProjection } from "../read-your-writes.ts";
import { transactionsProjection } from "./transactions-projection.ts";

/**
 * Read-your-writes for payments: a transaction's POST answers once its events are appended, and
 * the reads of its client that follow on this instance wait until the read model shows it.
 */
export function rememberPaymentWrite(db: Kysely<Database>, clientId: string, paymentId: string, revision: bigint): void {
  rememberOwnWrite(db, targetOf(paymentId, revision), clientId, () => paymentProjected(db, paymentId, revision));
}

/** Before reading transactions of a client (of every client, when undefined): its answered writes are in. */
export function awaitOwnPaymentWrites(db: Kysely<Database>, clientId: string | undefined): Promise<void> {
  return awaitOwnWrites(db, { projection: transactionsProjection.name, scope: clientId });
}

/** Until the transactions read model reflects the payment up to `revision`. */
export function waitForPayment(db: Kysely<Database>, paymentId: string, revision: bigint): Promise<boolean> {
  return waitForProjection(db, targetOf(paymentId, revision), () => paymentProjected(db, paymentId, revision));
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
