import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";

/**
 * The ids of a client's enabled configurations of a processor made before (by id) the one named,
 * at most `limit`, from the host configurations read model: choosing a first default's
 * `EnabledConfigurationsBefore` (src/commands).
 */
export const enabledConfigurationsBefore =
  (db: Kysely<Database>) =>
  async ({ clientId, processor, before, limit }: { clientId: string; processor: Processor; before: string; limit: number }): Promise<string[]> => {
    const rows = await db
      .selectFrom("host_configurations")
      .select("host_configuration_id")
      .where("client_id", "=", clientId)
      .where("processor", "=", processor)
      .where("enabled", "=", true)
      .where("host_configuration_id", "<", before)
      .limit(limit)
      .execute();
    return rows.map((row) => row.host_configuration_id);
  };
