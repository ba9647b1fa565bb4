import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { type ClientEvent, clientStreamId } from "../../src/domain/clients/decider.ts";
import { clientsProjection } from "../../src/projections/clients/clients-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, idSequence, projectionSpec } from "../support/projection-spec.ts";

const registeredAt = "2026-01-01T00:00:00.000Z";
const later = "2026-01-02T00:00:00.000Z";

const registered = (clientId: string, name = "Acme"): ClientEvent => ({ type: "ClientRegistered.v1", data: { clientId, name, occurredAt: registeredAt } });
const issued = (id: string): ClientEvent => ({ type: "ApiKeyIssued.v1", data: { keyId: id, keyHash: `hash-${id}`, prefix: "ldgr_sk_abcd", name: "checkout", occurredAt: later } });
/** Issued before keys kept their prefix and name. */
const issuedUnnamed = (id: string): ClientEvent => ({ type: "ApiKeyIssued.v1", data: { keyId: id, keyHash: `hash-${id}`, occurredAt: later } });
const revoked = (id: string): ClientEvent => ({ type: "ApiKeyRevoked.v1", data: { keyId: id, occurredAt: later } });
const limitsSet = (dailyAmount: number): ClientEvent => ({ type: "ClientLimitsSet.v1", data: { limits: [{ currency: "USD", dailyAmount }], occurredAt: later } });

/** What authentication and the limits read of one client: its row, and its keys by id. */
function clientRead(clientId: string) {
  return async (db: Kysely<Database>) => {
    const client = await db.selectFrom("clients").select(["name", "limits", "revision", "updated_at"]).where("client_id", "=", clientId).executeTakeFirst();
    const keys = await db
      .selectFrom("api_keys")
      .select(["key_id", "key_hash", "prefix", "name", "revoked_at"])
      .where("client_id", "=", clientId)
      .orderBy("key_id")
      .execute();
    return {
      client: client && { name: client.name, limits: client.limits, revision: Number(client.revision), updatedAt: client.updated_at.toISOString() },
      keys: keys.map((key) => ({ ...key, revoked_at: key.revoked_at?.toISOString() ?? null })),
    };
  };
}

const key = (id: string, revokedAt: string | null = null) => ({ key_id: id, key_hash: `hash-${id}`, prefix: "ldgr_sk_abcd", name: "checkout", revoked_at: revokedAt });

for (const target of testDatabaseTargets()) {
  describe(`the clients read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given } = projectionSpec(clientsProjection, () => database.db);
    const record = eventLog();
    // One database for the file: each test a client of its own, with keys of its own.
    const newId = idSequence();
    const newClient = () => {
      const clientId = newId();
      return {
        clientId,
        keyId: newId(),
        otherKeyId: newId(),
        events: (...events: ClientEvent[]) => record(clientStreamId(clientId), events),
        read: clientRead(clientId),
      };
    };

    it("registers a client with no limits and no keys", async () => {
      const client = newClient();
      await given([])
        .when(client.events(registered(client.clientId)))
        .then(client.read, { client: { name: "Acme", limits: [], revision: 0, updatedAt: registeredAt }, keys: [] });
    });

    it("keeps each key it issues by its hash, with its prefix and name where it has them, until revoked", async () => {
      const client = newClient();
      const history = client.events(registered(client.clientId), issued(client.keyId), issuedUnnamed(client.otherKeyId));
      await given(history)
        .when(client.events(revoked(client.keyId)))
        .then(client.read, {
          client: { name: "Acme", limits: [], revision: 3, updatedAt: later },
          keys: [key(client.keyId, later), { ...key(client.otherKeyId), prefix: null, name: null }],
        });
    });

    it("keeps the limits last set", async () => {
      const client = newClient();
      const history = client.events(registered(client.clientId), limitsSet(1000));
      await given(history)
        .when(client.events(limitsSet(2000)))
        .then(client.read, { client: { name: "Acme", limits: [{ currency: "USD", dailyAmount: 2000 }], revision: 2, updatedAt: later }, keys: [] });
    });

    it("applies each event once: applied again, or after a later one, it changes nothing", async () => {
      const client = newClient();
      const [registration, issue, limits] = client.events(registered(client.clientId), issued(client.keyId), limitsSet(1000));
      const revocation = client.events(revoked(client.keyId));
      const newerLimits = client.events(limitsSet(3000));
      // A command applied the revocation and the new limits itself; the runner then applies the whole stream.
      await given([registration!, issue!, ...revocation, ...newerLimits])
        .when([{ ...registration!, data: { ...registration!.data, name: "Renamed" } }, issue!, limits!, ...revocation])
        .then(client.read, {
          client: { name: "Acme", limits: [{ currency: "USD", dailyAmount: 3000 }], revision: 4, updatedAt: later },
          keys: [key(client.keyId, later)],
        });
    });
  });
}
