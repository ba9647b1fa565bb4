import { describe, expect, it } from "vitest";
import { fold } from "../../src/domain/decider.ts";
import {
  asEncryptedSecret,
  type CreateHostConfiguration,
  decide,
  hostConfigurationDecider,
  type HostConfigurationEvent,
  initialState,
  toView,
  type UpdateHostConfiguration,
  versions,
} from "../../src/domain/host-configurations/decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";
import {
  type HostConfigurationFields,
  hostConfigurationCreateSchema,
} from "../../src/domain/host-configurations/schemas.ts";
import type { JsonObject } from "../../src/eventstore/port.ts";

const id = "0190a8e2-0000-7000-8000-000000000001";
const clientId = "0190a8e2-7c3b-7def-8a12-3456789abcde";
const otherClientId = "0190a8e2-7c3b-7def-8a12-3456789abcdf";
const cipher1 = asEncryptedSecret("v1.k1.wrapped-one.payload-one");
const cipher2 = asEncryptedSecret("v1.k2.wrapped-two.payload-two");
const t1 = "2025-01-01T10:00:00.000Z";
const t2 = "2025-01-02T10:00:00.000Z";
const t3 = "2025-01-03T10:00:00.000Z";

/** What the command layer does with a parsed body: the credentials go to the secret box. */
const withoutCredentials = <T extends { credentials?: unknown }>({ credentials: _secret, ...fields }: T) => fields;

const processorB = withoutCredentials(hostConfigurationCreateSchema("processor_b").parse({
  clientId,
  name: "Main street store",
  enabled: true,
  merchant: { merchantId: "0000MERCH01", groupId: "00G01", tppId: "RSO001" },
  company: {
    name: "Acme Corp",
    phone: "555-1234567",
    address: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "US" },
    location: { latitude: 39.78, longitude: -89.65 },
  },
  settings: { settlementTime: "23:30", timeZone: "America/Chicago", terminalId: "00000001", mcc: "5812" },
  credentials: { datawireId: "00012345678901234567" },
  customProperties: { region: "north" },
}));
const configuration: HostConfigurationFields<"processor_b"> = processorB;
const renamed: HostConfigurationFields<"processor_b"> = { ...configuration, name: "Renamed", enabled: false };

const create: CreateHostConfiguration = {
  type: "CreateHostConfiguration",
  hostConfigurationId: id,
  processor: "processor_b",
  configuration,
  credentials: cipher1,
  now: t1,
};
const update = (overrides: Partial<UpdateHostConfiguration> = {}): UpdateHostConfiguration =>
  ({
    type: "UpdateHostConfiguration",
    hostConfigurationId: id,
    processor: "processor_b",
    configuration: renamed,
    now: t2,
    ...overrides,
  }) as UpdateHostConfiguration;

const created: HostConfigurationEvent = {
  type: "HostConfigurationCreated.v1",
  data: {
    hostConfigurationId: id,
    processor: "processor_b",
    configuration,
    version: 1,
    credentials: cipher1,
    occurredAt: t1,
  },
};
type UpdatedOverrides = Partial<{ credentials: typeof cipher1; credentialsChanged: boolean; occurredAt: string }>;
const updated = (version: number, data: UpdatedOverrides = {}): HostConfigurationEvent => ({
  type: "HostConfigurationUpdated.v1",
  data: {
    hostConfigurationId: id,
    processor: "processor_b",
    configuration: renamed,
    version,
    credentials: cipher1,
    credentialsChanged: false,
    occurredAt: t2,
    ...data,
  },
});

const spec = deciderSpec(hostConfigurationDecider);
const given = (...events: HostConfigurationEvent[]) => spec.given(events);

describe("creating a host configuration", () => {
  it("records version 1 with the encrypted credentials", () => {
    given().when(create).then([created]);
  });

  it("refuses an id that exists", () => {
    given(created).when(create).thenRefused("already_exists");
  });

  it("records no credentials for a processor without them", () => {
    const processorA = withoutCredentials(hostConfigurationCreateSchema("processor_a").parse({
      ...configuration,
      merchant: { merchantNumber: "000123456789", acquirerBin: "012345" },
      settings: {
        settlementTime: "23:30",
        timeZone: "America/Chicago",
        agentBank: "000001",
        agentChain: "000002",
        storeNumber: "0001",
        terminalNumber: "0002",
        terminalId: "00000001",
        mcc: "5411",
      },
    }));
    const decision = decide(
      {
        type: "CreateHostConfiguration",
        hostConfigurationId: id,
        processor: "processor_a",
        configuration: processorA,
        credentials: null,
        now: t1,
      },
      initialState(),
    );
    expect(decision.ok && decision.events[0]?.data.credentials).toBeNull();
    const state = decision.ok ? fold(hostConfigurationDecider, decision.events) : initialState();
    expect(toView(state)?.credentials).toEqual({ configured: false });
  });

  it("never lets plaintext credentials into the event, even when the whole body is passed", () => {
    const body = { ...configuration, credentials: { datawireId: "00012345678901234567" } };
    const decision = decide({ ...create, configuration: body }, initialState());
    expect(decision).toEqual({ ok: true, events: [created] });
    expect(JSON.stringify(decision)).not.toContain("00012345678901234567");
  });
});

describe("updating a host configuration", () => {
  it("replaces the configuration, bumps the version, and keeps the credentials when none are given", () => {
    given(created).when(update()).then([updated(2)]);
  });

  it("replaces the credentials when given", () => {
    given(created)
      .when(update({ credentials: cipher2 }))
      .then([updated(2, { credentials: cipher2, credentialsChanged: true })]);
  });

  it("counts versions up with every update", () => {
    given(created, updated(2))
      .when(update({ now: t3 }))
      .then([updated(3, { occurredAt: t3 })]);
  });

  it("applies when If-Match names the current version", () => {
    given(created, updated(2))
      .when(update({ expectedVersion: 2, now: t3 }))
      .then([updated(3, { occurredAt: t3 })]);
  });

  it("refuses when If-Match names another version", () => {
    given(created, updated(2)).when(update({ expectedVersion: 1 })).thenRefused("version_conflict");
    given(created).when(update({ expectedVersion: 2 })).thenRefused("version_conflict");
  });

  it("refuses an unknown id", () => {
    given().when(update()).thenRefused("not_found");
  });

  it("refuses an id of another processor, before comparing versions", () => {
    const asProcessorD = update({ expectedVersion: 9 });
    const command = { ...asProcessorD, processor: "processor_d" } as UpdateHostConfiguration;
    given(created).when(command).thenRefused("processor_mismatch");
  });

  it("refuses to move the configuration to another client", () => {
    given(created)
      .when(update({ configuration: { ...renamed, clientId: otherClientId } }))
      .thenRefused("client_mismatch");
  });
});

describe("the view", () => {
  const state = fold(hostConfigurationDecider, [created, updated(2, { occurredAt: t3 })]);

  it("is null before creation", () => {
    expect(toView(initialState())).toBeNull();
  });

  it("has the API shape: everything sent but the secrets", () => {
    expect(toView(state)).toEqual({
      id,
      processor: "processor_b",
      ...renamed,
      credentials: { configured: true },
      version: 2,
      createdAt: t1,
      updatedAt: t3,
    });
  });

  it("never contains the ciphertext", () => {
    const json = JSON.stringify(toView(state));
    expect(json).not.toContain(cipher1);
    expect(json).not.toContain("wrapped-one");
  });

  it("lists every version, oldest first", () => {
    const rotated = updated(3, { credentials: cipher2, credentialsChanged: true, occurredAt: t3 });
    const all = versions([created, updated(2), rotated]);
    expect(all.map((view) => [view.version, view.name, view.enabled, view.updatedAt])).toEqual([
      [1, "Main street store", true, t1],
      [2, "Renamed", false, t2],
      [3, "Renamed", false, t3],
    ]);
    expect(all.every((view) => view.createdAt === t1 && view.credentials.configured)).toBe(true);
    expect(JSON.stringify(all)).not.toMatch(/payload-(one|two)/);
  });
});

describe("events", () => {
  it("are JSON, and fold the same after a round trip through the store", () => {
    const events = [created, updated(2)];
    const stored: JsonObject[] = events.map((event) => event.data);
    const reread = JSON.parse(JSON.stringify(events)) as HostConfigurationEvent[];
    expect(fold(hostConfigurationDecider, reread)).toEqual(fold(hostConfigurationDecider, events));
    expect(stored).toHaveLength(2);
  });
});
