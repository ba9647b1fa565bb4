import { type JournalEntry, type PaymentBooks, postPaymentEvent, postSettlementClose, settledNetOf } from "../../src/domain/journal/index.ts";
import type { PaymentEvent } from "../../src/domain/payments/index.ts";
import type { SettlementClosedV2 } from "../../src/domain/settlements/events.ts";

/**
 * The journal folded in memory from payment events and batch closes, in log order, as the
 * projection posts it: each payment's books, and every entry posted so far.
 */
export class JournalFold {
  readonly entries: JournalEntry[] = [];
  readonly #books = new Map<string, PaymentBooks | null>();
  #position = 0n;

  /** Posts one payment event of `paymentId`; returns the entry it posted, if any. */
  payment(paymentId: string, event: PaymentEvent): JournalEntry | undefined {
    const source = this.#next(event.type, paymentId);
    const { books, entry } = postPaymentEvent(this.#books.get(paymentId) ?? null, event, source);
    this.#books.set(paymentId, books);
    if (entry) this.entries.push(entry);
    return entry;
  }

  /** Posts a batch's close; returns the entries it posted. */
  close(event: SettlementClosedV2): JournalEntry[] {
    const { settlementId, clientId, processor, processorTotals, occurredAt } = event.data;
    const settledNet = settledNetOf(this.entries.filter((entry) => entry.settlementId === settlementId));
    const entries = postSettlementClose({ settlementId, clientId, processor, processorTotals, occurredAt }, settledNet, this.#next(event.type, null));
    this.entries.push(...entries);
    return entries;
  }

  #next(type: string, paymentId: string | null) {
    this.#position += 1n;
    const id = `00000000-0000-7000-8000-${this.#position.toString().padStart(12, "0")}`;
    return { id, type, position: this.#position, paymentId: paymentId ?? "" };
  }
}
