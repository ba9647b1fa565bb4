import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import { paymentDecider, type PaymentEvent } from "../../../src/domain/payments/index.ts";
import { MAX_ATTEMPTS, retryDecision } from "../../../src/domain/webhooks/retry-schedule.ts";
import { paymentMessages } from "../../../src/domain/webhooks/messages.ts";
import { approved, at, declined, failed, initiated } from "../payments/fixtures.ts";

/** The messages of each event of a payment, in order: from the payment before it and after it. */
function messagesOf(events: PaymentEvent[]) {
  const after = (count: number) => fold(paymentDecider, events.slice(0, count));
  return events.map((_, index) => paymentMessages(after(index), after(index + 1)).map((message) => `${message.type} ${message.subjectId}`));
}

describe("the webhook messages of payment events", () => {
  it("a recorded transaction is pending, then says its outcome", () => {
    expect(messagesOf([initiated("t1", "sale", 1000), approved("t1")])).toEqual([
      ["transaction.pending t1"],
      ["transaction.approved t1"],
    ]);
    expect(messagesOf([initiated("t2", "sale", 1000), declined("t2", "card_declined")])[1]).toEqual(["transaction.declined t2"]);
    expect(messagesOf([initiated("t3", "sale", 1000), failed("t3", "processor_error")])[1]).toEqual(["transaction.failed t3"]);
  });

  it("a capture speaks of the capture, then of its authorization whose state it changes", () => {
    const messages = messagesOf([
      initiated("a1", "authorization", 1000),
      approved("a1"),
      initiated("c1", "capture", 400, "a1"),
      approved("c1", at(2)),
    ]);
    expect(messages.slice(2)).toEqual([["transaction.pending c1"], ["transaction.approved c1", "transaction.updated a1"]]);
  });

  it("an expiry is authorization.expired, the authorization's new state, and the pending void it starts", () => {
    const messages = messagesOf([
      initiated("a1", "authorization", 1000),
      approved("a1"),
      {
        type: "AuthorizationExpired.v1",
        data: { transactionId: "a1", voidTransactionId: "v1", occurredAt: at(5) },
      },
      initiated("v1", "void", 1000, "a1"),
    ]);
    expect(messages.slice(2)).toEqual([["authorization.expired a1", "transaction.updated a1"], ["transaction.pending v1"]]);
  });
});

describe("the retry schedule", () => {
  it("doubles each wait, within a quarter either way, and gives up after the last attempt", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }),
        fc.integer({ min: 1, max: 120_000 }),
        // What Math.random gives: [0, 1), never NaN.
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (attempt, baseMs, random) => {
        const decision = retryDecision({ delivered: false, attemptInRound: attempt, baseMs, random: () => random });
        expect(decision.status).toBe("pending");
        const nominal = baseMs * 2 ** (attempt - 1);
        expect(decision.retryInMs).toBeGreaterThanOrEqual(Math.floor(nominal * 0.75));
        expect(decision.retryInMs).toBeLessThanOrEqual(Math.ceil(nominal * 1.25));
        },
      ),
    );
    expect(retryDecision({ delivered: false, attemptInRound: MAX_ATTEMPTS, baseMs: 1 })).toEqual({ status: "failed", retryInMs: null });
    expect(retryDecision({ delivered: true, attemptInRound: MAX_ATTEMPTS, baseMs: 1 })).toEqual({ status: "delivered", retryInMs: null });
  });

  it("spans at least the three days of the contract at the default base, and not a week", () => {
    const totalMs = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) => 60_000 * 2 ** index).reduce((sum, wait) => sum + wait, 0);
    expect(totalMs * 0.75).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(totalMs).toBeGreaterThanOrEqual(2.8 * 86_400_000);
    expect(totalMs * 1.25).toBeLessThan(7 * 86_400_000);
  });
});
