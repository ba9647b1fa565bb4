import { sql } from "kysely";
import {
  evolve,
  type HostConfigurationEvent,
  hostConfigurationEventTypes,
  initialState,
  toView,
} from "../../domain/host-configurations/decider.ts";
import type { Projection } from "../projection.ts";

/** The latest version of each host configuration, as the API returns it. */
export const hostConfigurationsProjection: Projection = {
  name: "host_configurations",
  tables: ["host_configurations"],
  eventTypes: hostConfigurationEventTypes,
  async apply(trx, events) {
    for (const recorded of events) {
      // Every event is a complete snapshot: folded alone it gives the whole view, but for an
      // update its creation time, which the stored row keeps.
      const event = recorded as unknown as HostConfigurationEvent;
      const view = toView(evolve(initialState(), { type: "HostConfigurationCreated.v1", data: event.data }));
      if (!view) continue;
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
  },
};
