import { paymentStreamOf } from "../audit/payment-stream.ts";
import { paymentDecider, paymentStreamId } from "../domain/payments/index.ts";
import { readEvents } from "../eventstore/typed-read.ts";
import type { Ledger } from "./connection.ts";
import { writeErr, writeOut } from "./output.ts";
import { paymentTimeline } from "./timeline.ts";

/** Prints the stream of the payment a transaction belongs to as a timeline of its states. */
export async function replay({ db, store }: Ledger, transactionId: string): Promise<number> {
  // The read model knows every transaction's payment; a root transaction names its stream itself,
  // so a payment the read model lost can still be replayed.
  const streamId = (await paymentStreamOf(db, transactionId)) ?? paymentStreamId(transactionId);
  const events = await readEvents(store, paymentDecider.isEvent, streamId);
  if (events.length === 0) {
    writeErr(`no payment holds transaction ${transactionId}\n`);
    return 1;
  }
  await writeOut([`${streamId}: ${events.length} events`, ...paymentTimeline(events), ""].join("\n"));
  return 0;
}
