import { describe, expect, it } from "vitest";
import type { EventStoreNode } from "../../bench/chaos/eventstore-node.ts";
import { type FaultTargets, planFaults } from "../../bench/chaos/faults.ts";
import { createRandom } from "../../bench/chaos/random.ts";

const node: EventStoreNode = {
  url: "esdb://127.0.0.1:1?tls=false",
  kill: async () => undefined,
  restart: async () => undefined,
  answering: async () => undefined,
};
const withoutEventStore: FaultTargets = { instances: [], processorTimeoutMs: 2_000 };

describe("the EventStoreDB lane of the chaos schedule", () => {
  it("leaves the other lanes' schedule as it is without --eventstore, so a seed replays the same faults", () => {
    const before = planFaults(createRandom(1), 120_000, withoutEventStore);
    const after = planFaults(createRandom(1), 120_000, { ...withoutEventStore, eventStore: node });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
  });

  it("plans only kills of the node, 20 to 30 s apart, each down 0.5 to 5 s", () => {
    const lane = planFaults(createRandom(7), 300_000, { ...withoutEventStore, eventStore: node }).at(-1) ?? [];
    expect(lane.length).toBeGreaterThanOrEqual(9);
    for (const [index, { at, fault }] of lane.entries()) {
      if (fault.kind !== "eventstore kill -9") throw new Error(`the EventStoreDB lane planned ${fault.kind}`);
      expect(fault.downMs).toBeGreaterThanOrEqual(500);
      expect(fault.downMs).toBeLessThanOrEqual(5_000);
      if (index > 0) expect(at - lane[index - 1]!.at).toBeGreaterThanOrEqual(20_000);
    }
  });
});
