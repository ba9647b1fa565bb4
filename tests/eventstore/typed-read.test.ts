import { describe, expect, it } from "vitest";
import { paymentDecider } from "../../src/domain/payments/index.ts";
import type { RecordedEvent } from "../../src/eventstore/port.ts";
import { readEvents, UnexpectedEventError } from "../../src/eventstore/typed-read.ts";

const stored = (revision: number, type: string): RecordedEvent => ({
  id: `event-${revision}`,
  streamId: "payment-1",
  type,
  data: { transactionId: "1" },
  metadata: {},
  revision: BigInt(revision),
  position: BigInt(revision),
  recordedAt: new Date(0),
});

describe("a typed read of a stream", () => {
  it("gives the stream's events as its kind's events", async () => {
    const events = [stored(0, "TransactionInitiated.v1"), stored(1, "TransactionApproved.v1")];
    const read = await readEvents({ readStream: () => Promise.resolve(events) }, paymentDecider.isEvent, "payment-1");
    expect(read.map((event) => event.type)).toEqual(["TransactionInitiated.v1", "TransactionApproved.v1"]);
  });

  it("refuses an event of a type its kind does not know, naming the stream and the revision", async () => {
    const events = [stored(0, "TransactionInitiated.v1"), stored(1, "ClientRegistered.v1")];
    const read = readEvents({ readStream: () => Promise.resolve(events) }, paymentDecider.isEvent, "payment-1");
    await expect(read).rejects.toThrow(UnexpectedEventError);
    await expect(read).rejects.toThrow("Stream payment-1: event ClientRegistered.v1 at revision 1 is not one of its kind's events");
  });
});
