import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import { paymentDecider, type PaymentCommand, type PaymentEvent } from "../../../src/domain/payments/index.ts";
import { fromStored, toStored } from "../../../src/domain/payments/stored-state.ts";
import { approve, at, authorize, capture, decidedAfter, decline, fail, sell } from "./fixtures.ts";

/** The events a run of commands records on a new payment. */
const decided = (...commands: PaymentCommand[]) => decidedAfter([], ...commands);

/** Through the read model's column: JSON text and back. */
const throughTheColumn = (events: PaymentEvent[]) => fromStored(JSON.parse(JSON.stringify(toStored(fold(paymentDecider, events)))));

describe("a payment's state as the transactions read model stores it", () => {
  it("reads back as it was folded, whatever its transactions went through", () => {
    const histories = [
      decided(sell("s", 1000), approve("s")),
      decided(sell("s", 1000), decline("s")),
      decided(sell("s", 1000), fail("s", "not_found"), { type: "ConfirmFailure", transactionId: "s", now: at(30) }),
      decided(authorize("a", 1000), approve("a"), capture("c", "a", 400, { final: true }), { ...approve("c", at(2)), releaseTransactionId: "r" }),
      decided(authorize("a", 1000), approve("a"), { type: "ExpireAuthorization", transactionId: "a", voidTransactionId: "v", hostConfigurationVersion: 1, now: at(9) }),
    ];
    for (const events of histories) expect(throughTheColumn(events)).toEqual(fold(paymentDecider, events));
  });

  it("stores a limit breach, a confirmed not-found and a final capture only where there is one", () => {
    const [stored] = toStored(fold(paymentDecider, decided(sell("s", 1000), approve("s")))).transactions;
    expect(stored).not.toHaveProperty("limitBreach");
    expect(stored).not.toHaveProperty("failureConfirmed");
    expect(stored).not.toHaveProperty("final");
  });

  it("reads a state stored before the later fields existed with each as none, whatever its status", () => {
    const later = ["approvedLate", "reversalId", "reversed", "settlementId", "expiredAt", "approvedAt", "limitBreach", "failureConfirmed", "final"];
    const storedBeforeThem = (events: PaymentEvent[]) => {
      const stored = toStored(fold(paymentDecider, events));
      const transactions = stored.transactions.map((transaction) => Object.fromEntries(Object.entries(transaction).filter(([key]) => !later.includes(key))));
      return { ...stored, transactions } as typeof stored;
    };
    const none = { approvedLate: null, reversalId: null, reversed: false, final: false };
    const approved = fromStored(storedBeforeThem(decided(sell("s", 1000), approve("s")))).transactions.get("s");
    expect(approved).toEqual({ ...fold(paymentDecider, decided(sell("s", 1000), approve("s"))).transactions.get("s"), approvedAt: null });
    expect(approved).toMatchObject({ status: "approved", ...none, settlementId: null, expiredAt: null, approvedAt: null });
    const declined = fromStored(storedBeforeThem(decided(sell("s", 1000), decline("s")))).transactions.get("s");
    expect(declined).toMatchObject({ status: "declined", ...none, limitBreach: null });
    const failed = fromStored(storedBeforeThem(decided(sell("s", 1000), fail("s", "not_found")))).transactions.get("s");
    expect(failed).toMatchObject({ status: "failed", ...none, failureConfirmed: false });
  });

  it("keeps only the fields of a transaction's status, so what one status cannot have is never read from the column", () => {
    const [stored] = toStored(fold(paymentDecider, decided(sell("s", 1000), decline("s")))).transactions;
    expect(stored).toMatchObject({ status: "declined", capturedAmount: 0, settledAt: null, failureReason: null });
    const read = fromStored({ rootTransactionId: "s", transactions: [stored!] }).transactions.get("s")!;
    for (const field of ["capturedAmount", "refundedAmount", "voided", "settledAt", "settlementId", "expiredAt", "approvedAt", "failureReason", "failureConfirmed"]) {
      expect(read).not.toHaveProperty(field);
    }
  });
});
