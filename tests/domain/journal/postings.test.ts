import { describe, expect, it } from "vitest";
import { creditsOf, debitsOf, type JournalEntry } from "../../../src/domain/journal/index.ts";
import type { PaymentEvent } from "../../../src/domain/payments/index.ts";
import type { SettlementClosedV2 } from "../../../src/domain/settlements/events.ts";
import { totalsOf } from "../../../src/domain/settlements/totals.ts";
import { JournalFold } from "../../support/journal-fold.ts";
import {
  approved,
  approvedLate,
  at,
  clientId,
  declined,
  failed,
  hostConfigurationId,
  initiated,
  reversalRequested,
  reversed,
} from "../payments/fixtures.ts";

/** An entry as a test states it: its kind, and each line as [account, debit, credit]. */
type Posted = { kind: JournalEntry["kind"]; lines: [string, number, number][] };
const posted = (entry: JournalEntry): Posted => ({ kind: entry.kind, lines: entry.lines.map((line) => [line.account, line.debit, line.credit]) });

const PAYMENT = "pay-1";

/**
 * A posting rule's test, as a decider's specification: given the payment's past events, when one
 * more is posted, then the entry it posts (or nothing).
 */
function given(events: readonly PaymentEvent[]) {
  const fold = new JournalFold();
  for (const event of events) fold.payment(PAYMENT, event);
  return {
    fold,
    when: (event: PaymentEvent) => ({
      then(expected: Posted) {
        const entry = fold.payment(PAYMENT, event);
        expect(entry && posted(entry)).toEqual(expected);
        expect(debitsOf(entry!.lines)).toBe(creditsOf(entry!.lines));
      },
      thenNothing() {
        expect(fold.payment(PAYMENT, event)).toBeUndefined();
      },
    }),
  };
}

const settled = (transactionId: string, settlementId = "batch-1"): PaymentEvent => ({
  type: "TransactionSettled.v1",
  data: { transactionId, settlementId, occurredAt: at(5) },
});
const expired = (transactionId: string, voidTransactionId: string): PaymentEvent => ({
  type: "AuthorizationExpired.v1",
  data: { transactionId, voidTransactionId, occurredAt: at(6) },
});
const released = (transactionId: string, captureTransactionId: string, voidTransactionId: string): PaymentEvent => ({
  type: "AuthorizationReleased.v1",
  data: { transactionId, captureTransactionId, voidTransactionId, occurredAt: at(3) },
});

const sale = [initiated("s", "sale", 1000), approved("s")];
const authorization = [initiated("a", "authorization", 1000), approved("a")];

describe("journal postings", () => {
  it("an approved sale: the processor owes it, and it is a sale", () => {
    given([initiated("s", "sale", 1000)]).when(approved("s")).then({
      kind: "sale_approved",
      lines: [
        ["processor_receivable", 1000, 0],
        ["sales", 0, 1000],
      ],
    });
  });

  it("names the event that caused it", () => {
    const fold = new JournalFold();
    fold.payment(PAYMENT, initiated("s", "sale", 1000));
    const entry = fold.payment(PAYMENT, approved("s", at(9)))!;
    expect(entry).toMatchObject({
      eventType: "TransactionApproved.v1",
      eventPosition: 2n,
      transactionId: "s",
      paymentId: PAYMENT,
      clientId,
      processor: "processor_a",
      currency: "USD",
      occurredAt: at(9),
    });
  });

  it("an intent, a decline, a failure, a reversal's request and a replayed approval post nothing", () => {
    given([]).when(initiated("s", "sale", 1000)).thenNothing();
    given([initiated("s", "sale", 1000)]).when(declined("s")).thenNothing();
    given([initiated("s", "sale", 1000)]).when(failed("s")).thenNothing();
    given([initiated("s", "sale", 1000), failed("s")]).when(reversalRequested("s")).thenNothing();
    given(sale).when(approved("s")).thenNothing();
    given([initiated("a", "authorization", 1000), declined("a")]).when(approved("a")).thenNothing();
  });

  it("an approved authorization holds its amount on the memo pair", () => {
    given([initiated("a", "authorization", 1000)]).when(approved("a")).then({
      kind: "authorization_approved",
      lines: [
        ["holds", 1000, 0],
        ["holds_offset", 0, 1000],
      ],
    });
  });

  it("a capture is a sale and releases what it captured from the hold", () => {
    given([...authorization, initiated("c", "capture", 400, "a")]).when(approved("c")).then({
      kind: "capture_approved",
      lines: [
        ["processor_receivable", 400, 0],
        ["sales", 0, 400],
        ["holds", 0, 400],
        ["holds_offset", 400, 0],
      ],
    });
  });

  it("a final capture's release voids the rest of the hold", () => {
    const history = [...authorization, initiated("c", "capture", 400, "a", { final: true }), approved("c"), released("a", "c", "v"), initiated("v", "void", 600, "a")];
    given(history).when(approved("v")).then({
      kind: "authorization_released",
      lines: [
        ["holds", 0, 600],
        ["holds_offset", 600, 0],
      ],
    });
  });

  it("a void of an authorization releases its rest; the captures stay sales", () => {
    const history = [...authorization, initiated("c", "capture", 300, "a"), approved("c"), initiated("v", "void", 700, "a")];
    given(history).when(approved("v")).then({
      kind: "authorization_voided",
      lines: [
        ["holds", 0, 700],
        ["holds_offset", 700, 0],
      ],
    });
  });

  it("an expiry's void releases the rest", () => {
    given([...authorization, expired("a", "v"), initiated("v", "void", 1000, "a")]).when(approved("v")).then({
      kind: "authorization_expired",
      lines: [
        ["holds", 0, 1000],
        ["holds_offset", 1000, 0],
      ],
    });
  });

  it("a void of a sale takes the sale and what the processor owed for it back", () => {
    given([...sale, initiated("v", "void", 1000, "s")]).when(approved("v")).then({
      kind: "sale_voided",
      lines: [
        ["processor_receivable", 0, 1000],
        ["sales", 1000, 0],
      ],
    });
  });

  it("a void of a capture takes the sale back, and its authorization holds that amount again", () => {
    const history = [...authorization, initiated("c", "capture", 400, "a"), approved("c"), initiated("v", "void", 400, "c")];
    given(history).when(approved("v")).then({
      kind: "capture_voided",
      lines: [
        ["processor_receivable", 0, 400],
        ["sales", 400, 0],
        ["holds", 400, 0],
        ["holds_offset", 0, 400],
      ],
    });
  });

  it("a refund is owed back by the processor", () => {
    given([...sale, initiated("r", "refund", 300, "s")]).when(approved("r")).then({
      kind: "refund_approved",
      lines: [
        ["processor_receivable", 0, 300],
        ["refunds", 300, 0],
      ],
    });
  });

  it("a late approval posts the money the processor took, and its reversal gives it back", () => {
    const history = [initiated("s", "sale", 1000), failed("s", "not_found")];
    const { fold } = given(history);
    given(history).when(approvedLate("s")).then({
      kind: "late_approval",
      lines: [
        ["processor_receivable", 1000, 0],
        ["sales", 0, 1000],
      ],
    });
    given([...history, approvedLate("s"), reversalRequested("s")]).when(reversed("s")).then({
      kind: "reversal",
      lines: [
        ["processor_receivable", 0, 1000],
        ["sales", 1000, 0],
      ],
    });
    // A pending transaction reversed before any approval never held money.
    expect(fold.payment("pay-2", initiated("t", "sale", 500))).toBeUndefined();
    expect(fold.payment("pay-2", reversalRequested("t"))).toBeUndefined();
    expect(fold.payment("pay-2", reversed("t"))).toBeUndefined();
  });

  it("a late approval of an authorization holds until reversed", () => {
    given([initiated("a", "authorization", 800), reversalRequested("a")]).when(approvedLate("a")).then({
      kind: "late_approval",
      lines: [
        ["holds", 800, 0],
        ["holds_offset", 0, 800],
      ],
    });
  });

  it("a settled sale moves from receivable to settled funds; a settled refund the other way", () => {
    given(sale).when(settled("s")).then({
      kind: "transaction_settled",
      lines: [
        ["processor_receivable", 0, 1000],
        ["settled_funds", 1000, 0],
      ],
    });
    given([...sale, initiated("r", "refund", 300, "s"), approved("r")]).when(settled("r")).then({
      kind: "transaction_settled",
      lines: [
        ["processor_receivable", 300, 0],
        ["settled_funds", 0, 300],
      ],
    });
  });
});

describe("settlement closes", () => {
  const close = (status: "matched" | "mismatched", processorNet: number, ledgerNet = 1000): SettlementClosedV2 => ({
    type: "SettlementClosed.v2",
    data: {
      settlementId: "batch-1",
      clientId,
      processor: "processor_a",
      hostConfigurationId,
      cutoff: at(4),
      transactionCount: 1,
      totals: totalsOf([{ type: "sale", currency: "USD", amount: ledgerNet }]),
      processorTotals: totalsOf([{ type: "sale", currency: "USD", amount: processorNet }]),
      status,
      occurredAt: at(6),
    },
  });

  it("a matched batch posts nothing more: its settled transactions moved its net", () => {
    const { fold } = given([...sale, settled("s")]);
    expect(fold.close(close("matched", 1000))).toEqual([]);
  });

  it("a mismatched batch posts the processor's net less what its transactions moved, per currency", () => {
    const { fold } = given([...sale, settled("s")]);
    const [entry, ...more] = fold.close(close("mismatched", 900));
    expect(more).toEqual([]);
    expect(posted(entry!)).toEqual({
      kind: "settlement_difference",
      lines: [
        ["settled_funds", 0, 100],
        ["settlement_differences", 100, 0],
      ],
    });
    expect(entry).toMatchObject({ settlementId: "batch-1", transactionId: null, eventType: "SettlementClosed.v2", currency: "USD" });
  });

  it("a transaction the processor left out stays owed: no difference when the processor paid what it settled", () => {
    const { fold } = given([...sale, initiated("t", "sale", 500), approved("t"), settled("s")]);
    expect(fold.close(close("mismatched", 1000, 1500))).toEqual([]);
  });
});
