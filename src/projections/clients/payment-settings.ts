import type { Kysely } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";

/**
 * A client's limits and host configurations, read in one statement from the clients and host
 * configurations read models: payments' `PaymentSettingsOf` (src/commands). Lookups that arrive
 * while one is in flight are made together: every payment still reads the current rows. One per
 * service (its batcher holds the lookups in flight), made at its start.
 */
export function paymentSettingsLookup(db: Kysely<Database>) {
  return batchWhileBusy(async (clientIds: string[]) => {
    const rows = await db
      .selectFrom("clients")
      .select((select) => [
        "client_id",
        "limits",
        jsonArrayFrom(
          select
            .selectFrom("host_configurations")
            .select(["host_configuration_id", "processor", "enabled", "version", "is_default"])
            .whereRef("host_configurations.client_id", "=", "clients.client_id"),
        ).as("host_configurations"),
      ])
      .where("client_id", "in", clientIds)
      .execute();
    const byClient = new Map(
      rows.map((row) => [row.client_id, { limits: row.limits, hostConfigurations: row.host_configurations }]),
    );
    return clientIds.map((clientId) => byClient.get(clientId) ?? { limits: [], hostConfigurations: [] });
  });
}
