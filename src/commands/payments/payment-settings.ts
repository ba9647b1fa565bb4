import type { Kysely } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";
import type { CurrencyLimit } from "../../domain/limits/limits.ts";

/** A client's host configuration as the read model lists it: what choosing one for a payment needs. */
export interface HostConfigurationCandidate {
  host_configuration_id: string;
  processor: string;
  enabled: boolean;
  version: number;
  is_default: boolean;
}

/** What a client's payments are decided with, as the read models have it now. */
export interface PaymentSettings {
  limits: CurrencyLimit[];
  hostConfigurations: HostConfigurationCandidate[];
}

/**
 * A client's limits and host configurations, read in one statement. Lookups that arrive while one
 * is in flight are made together: every payment still reads the current rows.
 */
export class PaymentSettingsLookup {
  readonly #lookup: (clientId: string) => Promise<PaymentSettings>;

  constructor(db: Kysely<Database>) {
    this.#lookup = batchWhileBusy(async (clientIds: string[]): Promise<PaymentSettings[]> => {
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
        rows.map((row) => [row.client_id, { limits: row.limits as CurrencyLimit[], hostConfigurations: row.host_configurations }]),
      );
      return clientIds.map((clientId) => byClient.get(clientId) ?? { limits: [], hostConfigurations: [] });
    });
  }

  of(clientId: string): Promise<PaymentSettings> {
    return this.#lookup(clientId);
  }
}
