import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";

/**
 * Reads of the host configurations read model (`host-configurations-projection.ts` writes it): the
 * API's, and the lifecycle job's. Whoever's a configuration is, is the caller's to check.
 */

/** A configuration's view, whose it is, and whether it is its client's default. */
export function findHostConfiguration(db: Kysely<Database>, hostConfigurationId: string) {
  return db
    .selectFrom("host_configurations")
    .select(["view", "processor", "client_id", "is_default"])
    .where("host_configuration_id", "=", hostConfigurationId)
    .executeTakeFirst();
}

/** Whose a configuration is and for which processor, without its view. */
export function hostConfigurationOwner(db: Kysely<Database>, hostConfigurationId: string) {
  return db
    .selectFrom("host_configurations")
    .select(["client_id", "processor"])
    .where("host_configuration_id", "=", hostConfigurationId)
    .executeTakeFirst();
}

/**
 * A page of a processor's configurations, one client's when `clientId` is given, by id
 * descending, after `after` when given; `limit + 1` rows tell whether more follow.
 */
export function hostConfigurationsNewestFirst(
  db: Kysely<Database>,
  { processor, clientId, after, limit }: { processor: Processor; clientId: string | undefined; after: string | undefined; limit: number },
) {
  return db
    .selectFrom("host_configurations")
    .select(["host_configuration_id", "view", "is_default"])
    .where("processor", "=", processor)
    .$if(clientId !== undefined, (query) => query.where("client_id", "=", clientId!))
    .$if(after !== undefined, (query) => query.where("host_configuration_id", "<", after!))
    .orderBy("host_configuration_id", "desc")
    .limit(limit + 1)
    .execute();
}

/** Every configuration of every client, with its view (its settlement schedule). */
export function everyHostConfiguration(db: Kysely<Database>) {
  return db.selectFrom("host_configurations").select(["host_configuration_id", "client_id", "processor", "view"]).execute();
}
