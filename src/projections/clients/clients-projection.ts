import { sql } from "kysely";
import { type ClientEvent, clientIdOfStream } from "../../domain/clients/decider.ts";
import { defineProjection } from "../projection.ts";

/**
 * Clients and their API keys, as the API reads them (keys by hash, for authentication). Client
 * commands apply their own events with this too, the moment they append them, so a revoked key
 * or a new limit holds at once however far the runner lags; the runner then skips those events.
 */
export const clientsProjection = defineProjection<ClientEvent>({
  name: "clients",
  tables: ["clients", "api_keys"],
  eventTypes: ["ClientRegistered.v1", "ApiKeyIssued.v1", "ApiKeyRevoked.v1", "ClientLimitsSet.v1"],
  async apply(trx, events) {
    for (const event of events) {
      const clientId = clientIdOfStream(event.streamId);
      const revision = event.revision.toString();
      const occurredAt = new Date(event.data.occurredAt);
      if (event.type === "ClientRegistered.v1") {
        await trx
          .insertInto("clients")
          .values({ client_id: clientId, name: event.data.name, created_at: occurredAt, updated_at: occurredAt, revision })
          .onConflict((conflict) => conflict.column("client_id").doNothing())
          .execute();
        continue;
      }
      // Claims the event by moving the client's revision to it. Of a runner and a command applying
      // it at once, the second waits for the first's row lock, then finds it applied and skips it;
      // an older event never moves the row back.
      const claimed = await trx
        .updateTable("clients")
        .set({ revision, updated_at: occurredAt })
        .where("client_id", "=", clientId)
        .where("revision", "<", revision)
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n) continue;
      switch (event.type) {
        case "ApiKeyIssued.v1":
          await trx
            .insertInto("api_keys")
            .values({
              key_id: event.data.keyId,
              client_id: clientId,
              key_hash: event.data.keyHash,
              prefix: event.data.prefix ?? null,
              name: event.data.name ?? null,
              created_at: occurredAt,
            })
            .execute();
          break;
        case "ApiKeyRevoked.v1":
          await trx.updateTable("api_keys").set({ revoked_at: occurredAt }).where("key_id", "=", event.data.keyId).execute();
          break;
        case "ClientLimitsSet.v1":
          await trx
            .updateTable("clients")
            .set({ limits: sql`${JSON.stringify(event.data.limits)}::jsonb` })
            .where("client_id", "=", clientId)
            .execute();
          break;
      }
    }
  },
});
