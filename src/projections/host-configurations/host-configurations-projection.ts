import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import { clientIdOfStream, type DefaultHostConfigurationChosen } from "../../domain/clients/decider.ts";
import {
  evolve,
  type HostConfigurationEvent,
  hostConfigurationEventTypes,
  initialState,
  toView,
} from "../../domain/host-configurations/decider.ts";
import type { Recorded } from "../../eventstore/typed-read.ts";
import { defineProjection } from "../projection.ts";

type AppliedEvent = HostConfigurationEvent | DefaultHostConfigurationChosen;

/** The latest version of each host configuration, as the API returns it, and which is its client's default. */
export const hostConfigurationsProjection = defineProjection<AppliedEvent>({
  name: "host_configurations",
  tables: ["host_configurations"],
  eventTypes: [...hostConfigurationEventTypes, "DefaultHostConfigurationChosen.v1"],
  async apply(trx, events) {
    for (const event of events) {
      if (event.type === "DefaultHostConfigurationChosen.v1") await applyDefault(trx, event);
      else await applySnapshot(trx, event);
    }
  },
});

async function applySnapshot(trx: Transaction<Database>, event: HostConfigurationEvent): Promise<void> {
  // Every event is a complete snapshot: folded alone it gives the whole view, but for an
  // update its creation time, which the stored row keeps.
  const view = toView(evolve(initialState(), { type: "HostConfigurationCreated.v1", data: event.data }));
  if (!view) return;
  await trx
    .insertInto("host_configurations")
    .values({
      host_configuration_id: view.id,
      processor: view.processor,
      client_id: view.clientId,
      enabled: view.enabled,
      version: view.version,
      view: sql`${JSON.stringify(view)}::jsonb`,
      created_at: new Date(view.createdAt),
      updated_at: new Date(view.updatedAt),
    })
    .onConflict((conflict) =>
      conflict
        .column("host_configuration_id")
        .doUpdateSet((eb) => ({
          enabled: eb.ref("excluded.enabled"),
          version: eb.ref("excluded.version"),
          view: sql`excluded.view || jsonb_build_object('createdAt', host_configurations.view->'createdAt')`,
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where("host_configurations.version", "<", (eb) => eb.ref("excluded.version")),
    )
    .execute();
}

/** Marks the chosen row and unmarks the client's other rows of the processor: applied twice, the same. */
async function applyDefault(trx: Transaction<Database>, event: Recorded<DefaultHostConfigurationChosen>): Promise<void> {
  const { processor, hostConfigurationId } = event.data;
  await trx
    .updateTable("host_configurations")
    .set((eb) => ({ is_default: eb("host_configuration_id", "=", hostConfigurationId).$castTo<boolean>() }))
    .where("client_id", "=", clientIdOfStream(event.streamId))
    .where("processor", "=", processor)
    .where((eb) => eb.or([eb("is_default", "=", true), eb("host_configuration_id", "=", hostConfigurationId)]))
    .execute();
}
