import { describe, expect, it } from "vitest";
import { type ClientCommand, type ClientEvent, clientDecider, type ClientState } from "../../src/domain/clients/decider.ts";
import { fold } from "../../src/domain/decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const clientId = "0190a8e2-7c3b-7def-8a12-3456789abcde";
const first = "0190a8e2-0000-7000-8000-000000000001";
const second = "0190a8e2-0000-7000-8000-000000000002";
const now = "2025-01-01T10:00:00.000Z";

const registered: ClientEvent = { type: "ClientRegistered.v1", data: { clientId, name: "Acme", occurredAt: now } };
const chosen = (hostConfigurationId: string, processor: "processor_a" | "processor_b" = "processor_a"): ClientEvent => ({
  type: "DefaultHostConfigurationChosen.v1",
  data: { processor, hostConfigurationId, occurredAt: now },
});

const stateAfter = (events: ClientEvent[]): ClientState => fold(clientDecider, events);
const { given } = deciderSpec(clientDecider);

const choose = (hostConfigurationId: string, processor: "processor_a" | "processor_b" = "processor_a"): ClientCommand => ({
  type: "ChooseDefaultHostConfiguration",
  processor,
  hostConfigurationId,
  now,
});
const chooseIfNone = (hostConfigurationId: string, processor: "processor_a" | "processor_b" = "processor_a"): ClientCommand => ({
  type: "ChooseDefaultHostConfigurationIfNone",
  processor,
  hostConfigurationId,
  now,
});

describe("the client decider's API keys", () => {
  const issue: ClientCommand = { type: "IssueApiKey", keyId: first, keyHash: "hash", prefix: "ldgr_sk_abcd", name: undefined, now };
  const issued: ClientEvent = { type: "ApiKeyIssued.v1", data: { keyId: first, keyHash: "hash", prefix: "ldgr_sk_abcd", occurredAt: now } };
  const revoked: ClientEvent = { type: "ApiKeyRevoked.v1", data: { keyId: first, occurredAt: now } };

  it("issues a key under its id, and tracks when it was issued and whether it is revoked", () => {
    given([registered]).when(issue).then([issued]);
    expect(stateAfter([registered, issued, revoked]).keys).toEqual(new Map([[first, { issuedAt: now, name: null, revoked: true }]]));
  });

  it("keeps a named key's name in its event and state; an unnamed key's event has none, as before names", () => {
    const named: ClientEvent = { type: "ApiKeyIssued.v1", data: { ...issued.data, name: "checkout" } };
    given([registered]).when({ ...issue, name: "checkout" }).then([named]);
    expect(stateAfter([registered, named]).keys.get(first)).toEqual({ issuedAt: now, name: "checkout", revoked: false });
    expect(stateAfter([registered, issued]).keys.get(first)).toEqual({ issuedAt: now, name: null, revoked: false });
  });

  it("refuses an id already issued, revoked or not: a retry issues no second key", () => {
    given([registered, issued]).when(issue).thenRefused("already_exists");
    given([registered, issued, revoked]).when(issue).thenRefused("already_exists");
  });
});

describe("the client decider's default host configurations", () => {
  it("tracks the default per processor, the latest choice replacing the one before", () => {
    const state = stateAfter([registered, chosen(first), chosen(second, "processor_b"), chosen(second)]);
    expect(state.defaultHostConfigurations).toEqual(new Map([["processor_a", second], ["processor_b", second]]));
  });

  describe("ChooseDefaultHostConfiguration", () => {
    it("records the first choice and a change of default", () => {
      given([registered]).when(choose(first)).then([chosen(first)]);
      given([registered, chosen(first)]).when(choose(second)).then([chosen(second)]);
    });

    it("records nothing when the configuration is already the default", () => {
      given([registered, chosen(first)]).when(choose(first)).thenNothing();
    });

    it("keeps processors apart", () => {
      given([registered, chosen(first)]).when(choose(first, "processor_b")).then([chosen(first, "processor_b")]);
    });

    it("refuses an unknown client", () => {
      given([]).when(choose(first)).thenRefused("not_found");
    });
  });

  describe("ChooseDefaultHostConfigurationIfNone", () => {
    it("records the choice while the processor has no default", () => {
      given([registered]).when(chooseIfNone(first)).then([chosen(first)]);
      given([registered, chosen(first, "processor_b")]).when(chooseIfNone(second)).then([chosen(second)]);
    });

    it("accepts and records nothing once a default is chosen, whichever it is", () => {
      given([registered, chosen(first)]).when(chooseIfNone(second)).thenNothing();
      given([registered, chosen(first)]).when(chooseIfNone(first)).thenNothing();
    });

    it("refuses an unknown client", () => {
      given([]).when(chooseIfNone(first)).thenRefused("not_found");
    });
  });
});
