import type { Kysely } from "kysely";
import { clientStreamId } from "../../domain/clients/decider.ts";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";
import { clientsProjection } from "./clients-projection.ts";

/**
 * Applies the client's events its read-model rows lack, up to `revision` at least, with the clients
 * projection's own function. Keys and limits are read from those rows on every request, so once
 * a client's command answers, its effect holds on every instance, however far the projection lags.
 */
export async function applyClientWrite(
  { db, store }: { db: Kysely<Database>; store: EventStore },
  clientId: string,
  revision: bigint | undefined,
): Promise<void> {
  if (revision === undefined) return;
  const row = await db.selectFrom("clients").select("revision").where("client_id", "=", clientId).executeTakeFirst();
  const applied = row ? BigInt(row.revision) : -1n;
  if (applied >= revision) return;
  const events = await store.readStream(clientStreamId(clientId), { from: applied + 1n });
  await db.transaction().execute((trx) => clientsProjection.apply(trx, events, new Map()));
}
