import { describe, expect, it } from "vitest";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { CHAIN_KEY, chainEvents, readChainLink } from "../../src/eventstore/hash-chain.ts";
import type { JsonObject, RecordedEvent } from "../../src/eventstore/port.ts";

const content = {
  streamId: "payment-1",
  revision: 3n,
  type: "TransactionApproved.v1",
  data: { transactionId: "t-1", processorResponse: { code: "00", message: "Approved" } },
  metadata: { requestId: "r-1", actor: { role: "admin" } },
};

describe("hash chain", () => {
  it("hashes canonical JSON: key order (which jsonb does not keep) changes nothing, every field and the link do", () => {
    const hash = chainHash(null, content);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const reordered = {
      metadata: { actor: { role: "admin" }, requestId: "r-1" },
      data: { processorResponse: { message: "Approved", code: "00" }, transactionId: "t-1" },
      type: content.type,
      revision: 3n,
      streamId: "payment-1",
    };
    expect(chainHash(null, reordered)).toBe(hash);
    expect(chainHash(null, { ...content, metadata: { ...content.metadata, [CHAIN_KEY]: { previous: null, hash } } })).toBe(hash);
    for (const changed of [
      { ...content, revision: 4n },
      { ...content, streamId: "payment-2" },
      { ...content, type: "TransactionDeclined.v1" },
      { ...content, data: { ...content.data, transactionId: "t-2" } },
      { ...content, metadata: { ...content.metadata, requestId: "r-2" } },
    ]) {
      expect(chainHash(null, changed)).not.toBe(hash);
    }
    expect(chainHash("0".repeat(64), content)).not.toBe(hash);
  });

  it("links each appended event to the one before it, from the stream's last event", () => {
    const linkOf = (metadata: JsonObject | undefined) => {
      const link = readChainLink(metadata ?? {});
      if (typeof link !== "object") throw new Error(`no chain link: ${link}`);
      return link;
    };
    const [first] = chainEvents("s", undefined, [{ type: "A", data: { n: 1 }, metadata: { requestId: "r" } }]);
    const firstLink = linkOf(first!.metadata);
    expect(firstLink).toEqual({
      previous: null,
      hash: chainHash(null, { streamId: "s", revision: 0n, type: "A", data: { n: 1 }, metadata: { requestId: "r" } }),
    });

    const stored: RecordedEvent = { ...first!, id: "e-0", streamId: "s", metadata: first!.metadata!, revision: 0n, position: 1n, recordedAt: new Date() };
    const [second, third] = chainEvents("s", stored, [
      { type: "B", data: { n: 2 } },
      { type: "C", data: { n: 3 } },
    ]).map((event) => linkOf(event.metadata));
    expect(second!.previous).toBe(firstLink.hash);
    expect(third).toEqual({
      previous: second!.hash,
      hash: chainHash(second!.hash, { streamId: "s", revision: 2n, type: "C", data: { n: 3 }, metadata: {} }),
    });
  });

  it("tells events without a chain (from before hash chains) from a damaged one", () => {
    expect(readChainLink({ requestId: "r" })).toBe("absent");
    expect(readChainLink({ [CHAIN_KEY]: { previous: null, hash: "not a hash" } })).toBe("malformed");
  });
});
