import { sql } from "kysely";
import type { ClientEvent } from "../../domain/clients/decider.ts";
import type { Projection } from "../projection.ts";

/** Clients and their API keys, as the API reads them (keys by hash, for authentication). */
export const clientsProjection: Projection = {
  name: "clients",
  tables: ["clients", "api_keys"],
  eventTypes: ["ClientRegistered.v1", "ApiKeyIssued.v1", "ApiKeyRevoked.v1", "ClientLimitsSet.v1"],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as ClientEvent;
      const clientId = recorded.streamId.replace(/^client-/, "");
      const revision = recorded.revision.toString();
      switch (event.type) {
        case "ClientRegistered.v1":
          await trx
            .insertInto("clients")
            .values({
              client_id: clientId,
              name: event.data.name,
              created_at: new Date(event.data.occurredAt),
              updated_at: new Date(event.data.occurredAt),
              revision,
            })
            .onConflict((conflict) => conflict.column("client_id").doNothing())
            .execute();
          break;
        case "ApiKeyIssued.v1":
          await trx
            .insertInto("api_keys")
            .values({
              key_id: event.data.keyId,
              client_id: clientId,
              key_hash: event.data.keyHash,
              created_at: new Date(event.data.occurredAt),
            })
            .onConflict((conflict) => conflict.column("key_id").doNothing())
            .execute();
          break;
        case "ApiKeyRevoked.v1":
          await trx
            .updateTable("api_keys")
            .set({ revoked_at: new Date(event.data.occurredAt) })
            .where("key_id", "=", event.data.keyId)
            .where("revoked_at", "is", null)
            .execute();
          break;
        case "ClientLimitsSet.v1":
          await trx
            .updateTable("clients")
            .set({ limits: sql`${JSON.stringify(event.data.limits)}::jsonb` })
            .where("client_id", "=", clientId)
            .where("revision", "<", revision)
            .execute();
          break;
      }
      // The stream's revision, so a command can wait until the read model reflects its write.
      await trx
        .updateTable("clients")
        .set({ revision, updated_at: new Date(event.data.occurredAt) })
        .where("client_id", "=", clientId)
        .where("revision", "<", revision)
        .execute();
    }
  },
};
