import { describe, expect, it } from "vitest";
import { checkChain } from "../../console/src/chain.ts";
import type { LoggedEvent } from "../../console/src/types.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { chainEvents } from "../../src/eventstore/hash-chain.ts";
import type { JsonObject } from "../../src/eventstore/port.ts";

/**
 * The console checks links with WebCrypto (the browser has no node:crypto), so it keeps its own
 * copy of the chain-hash rule: it must give the hash src/eventstore/chain-hash.ts gives.
 */
describe("the console's chain hash", () => {
  // Content where canonical JSON matters: key order, non-ASCII text, escapes, numbers, nesting.
  const contents: Array<{ type: string; data: JsonObject; metadata: JsonObject }> = [
    { type: "SaleRequested", data: { z: 1, a: "Zoë ☕ 🧾", amount: 1000 }, metadata: { actor: { role: "client", id: "c1" } } },
    { type: "SaleApproved", data: { nested: { b: [3, 1.5, -0, 1e21], a: null }, quote: "\"\\\n\u0001" }, metadata: {} },
    { type: "Refunded", data: { amount: 0.1, empty: {}, list: [] }, metadata: { occurredAt: "2026-11-28T00:00:00.000Z" } },
  ];

  it("verifies every link the service's rule made, with the same hashes", async () => {
    const chained = chainEvents("payment-1", undefined, contents);
    const events: LoggedEvent[] = chained.map((event, revision) => ({
      id: `e${revision}`,
      streamId: "payment-1",
      position: String(revision + 1),
      revision,
      type: event.type,
      occurredAt: "2026-11-28T00:00:00.000Z",
      recordedAt: "2026-11-28T00:00:00.000Z",
      data: event.data,
      metadata: event.metadata ?? {},
      chain: { status: "verified", problems: [] },
    }));
    const checks = await checkChain(events);
    const served = events.map((event) => (event.metadata.chain as { hash: string }).hash);
    expect(checks).toEqual(served.map((hash) => ({ verdict: "verified", hash })));
    expect(served[1]).toBe(chainHash(served[0]!, { ...events[1]!, revision: 1n }));

    const edited = events.with(1, { ...events[1]!, data: { ...events[1]!.data, quote: "changed" } });
    expect((await checkChain(edited))[1]).toMatchObject({ verdict: "broken" });
  });
});
