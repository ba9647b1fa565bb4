import type { Kysely } from "kysely";
import type { Database, SettlementsTable } from "../../db/schema.ts";
import { settlementStreamId } from "../../domain/settlements/events.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { settlementsProjection } from "./settlements-projection.ts";

/**
 * Read-your-writes for settlement batches: a batch's close answers once its events are appended
 * (closing, closed or failed), and the reads of its client that follow on this instance wait until the read model shows it.
 */
export function rememberSettlementWrite(
  { db, readYourWrites }: OwnWritesContext,
  clientId: string,
  settlementId: string,
  revision: bigint,
  status: SettlementsTable["status"],
): void {
  const target = { projection: settlementsProjection.name, streamId: settlementStreamId(settlementId), revision };
  readYourWrites.rememberOwnWrite(target, clientId, () => settlementInReadModel(db, settlementId, status));
}

/** Before reading batches of a client (of every client, when undefined): its answered closes are in. */
export function awaitOwnSettlementWrites({ readYourWrites }: Pick<OwnWritesContext, "readYourWrites">, clientId: string | undefined): Promise<void> {
  return readYourWrites.awaitOwnWrites({ projection: settlementsProjection.name, scope: clientId });
}

async function settlementInReadModel(db: Kysely<Database>, settlementId: string, status: SettlementsTable["status"]): Promise<boolean> {
  const row = await db
    .selectFrom("settlements")
    .select("settlement_id")
    .where("settlement_id", "=", settlementId)
    .where("status", "=", status)
    .executeTakeFirst();
  return row !== undefined;
}
