import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { clientStreamId, type DefaultHostConfigurationChosen } from "../../src/domain/clients/decider.ts";
import { fold } from "../../src/domain/decider.ts";
import {
  asEncryptedSecret,
  hostConfigurationDecider,
  type HostConfigurationEvent,
  hostConfigurationStreamId,
  toView,
} from "../../src/domain/host-configurations/decider.ts";
import { hostConfigurationCreateSchema, type Processor, type ProcessorConfiguration } from "../../src/domain/host-configurations/schemas.ts";
import { hostConfigurationsProjection } from "../../src/projections/host-configurations/host-configurations-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { eventLog, idSequence, projectionSpec } from "../support/projection-spec.ts";

const t1 = "2026-01-01T00:00:00.000Z";
const t2 = "2026-01-02T00:00:00.000Z";
const credentials = asEncryptedSecret("v1.k1.wrapped.payload");

/** A processor's configuration of the client, as a create request's body parses (its credentials go to the secret box). */
function configurationOf(processor: Processor, clientId: string, name = "Main street store"): ProcessorConfiguration {
  const { credentials: _secret, ...configuration } = hostConfigurationCreateSchema(processor).parse({ ...validBodies[processor], clientId, name });
  return { processor, configuration } as ProcessorConfiguration;
}

const created = (hostConfigurationId: string, configuration: ProcessorConfiguration): HostConfigurationEvent => ({
  type: "HostConfigurationCreated.v1",
  data: { hostConfigurationId, ...configuration, version: 1, credentials, occurredAt: t1 },
});
const updated = (hostConfigurationId: string, configuration: ProcessorConfiguration, version: number): HostConfigurationEvent => ({
  type: "HostConfigurationUpdated.v1",
  data: { hostConfigurationId, ...configuration, version, credentials, credentialsChanged: false, occurredAt: t2 },
});
const chosen = (processor: Processor, hostConfigurationId: string): DefaultHostConfigurationChosen => ({
  type: "DefaultHostConfigurationChosen.v1",
  data: { processor, hostConfigurationId, occurredAt: t2 },
});

/** The client's configurations by id: the view the API serves, its columns, and whether it is the default. */
function configurationsOf(clientId: string) {
  return async (db: Kysely<Database>) => {
    const rows = await db.selectFrom("host_configurations").selectAll().where("client_id", "=", clientId).execute();
    return Object.fromEntries(
      rows.map((row) => [
        row.host_configuration_id,
        { processor: row.processor, enabled: row.enabled, version: row.version, isDefault: row.is_default, updatedAt: row.updated_at.toISOString(), view: row.view },
      ]),
    );
  };
}

/** What the row of a configuration with these events holds: the view their fold gives. */
function rowOf(events: readonly HostConfigurationEvent[], isDefault = false) {
  const view = toView(fold(hostConfigurationDecider, events))!;
  return { processor: view.processor, enabled: view.enabled, version: view.version, isDefault, updatedAt: view.updatedAt, view };
}

for (const target of testDatabaseTargets()) {
  describe(`the host configurations read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given } = projectionSpec(hostConfigurationsProjection, () => database.db);
    const record = eventLog();
    // One database for the file: each test a client and configurations of its own.
    const newId = idSequence();
    const configuration = (hostConfigurationId: string) => (...events: HostConfigurationEvent[]) => record(hostConfigurationStreamId(hostConfigurationId), events);

    it("shows a new configuration as the API serves it, no default", async () => {
      const clientId = newId();
      const id = newId();
      const events = [created(id, configurationOf("processor_b", clientId))];
      await given([]).when(configuration(id)(...events)).then(configurationsOf(clientId), { [id]: rowOf(events) });
    });

    it("replaces it with each newer version, keeping when it was created", async () => {
      const clientId = newId();
      const id = newId();
      const events = [created(id, configurationOf("processor_b", clientId)), updated(id, configurationOf("processor_b", clientId, "Renamed"), 2)];
      const [creation, update] = configuration(id)(...events);
      await given([creation!]).when([update!]).then(configurationsOf(clientId), { [id]: rowOf(events) });
    });

    it("keeps the newest version when an older one is applied again", async () => {
      const clientId = newId();
      const id = newId();
      const events = [created(id, configurationOf("processor_a", clientId)), updated(id, configurationOf("processor_a", clientId, "Renamed"), 2)];
      const [creation, update] = configuration(id)(...events);
      await given([creation!, update!]).when([creation!]).then(configurationsOf(clientId), { [id]: rowOf(events) });
    });

    it("marks the client's chosen default of a processor only, however often the choice is applied", async () => {
      const [clientId, otherClientId] = [newId(), newId()];
      const [first, second, other, othersDefault] = [newId(), newId(), newId(), newId()];
      const firstEvents = [created(first, configurationOf("processor_b", clientId))];
      const secondEvents = [created(second, configurationOf("processor_b", clientId))];
      const otherEvents = [created(other, configurationOf("processor_a", clientId))];
      const othersEvents = [created(othersDefault, configurationOf("processor_b", otherClientId))];
      const configurations = [
        ...configuration(first)(...firstEvents),
        ...configuration(second)(...secondEvents),
        ...configuration(other)(...otherEvents),
        ...configuration(othersDefault)(...othersEvents),
      ];
      const client = (...events: DefaultHostConfigurationChosen[]) => record(clientStreamId(clientId), events);
      const [chooseFirst, chooseOther, chooseSecond] = client(chosen("processor_b", first), chosen("processor_a", other), chosen("processor_b", second));
      const othersChoice = record(clientStreamId(otherClientId), [chosen("processor_b", othersDefault)]);
      const both = async (db: Kysely<Database>) => ({ ...(await configurationsOf(clientId)(db)), ...(await configurationsOf(otherClientId)(db)) });
      await given([...configurations, ...othersChoice, chooseFirst!, chooseOther!])
        .when([chooseSecond!, chooseSecond!])
        .then(both, {
          [first]: rowOf(firstEvents),
          [second]: rowOf(secondEvents, true),
          [other]: rowOf(otherEvents, true),
          [othersDefault]: rowOf(othersEvents, true),
        });
    });
  });
}
