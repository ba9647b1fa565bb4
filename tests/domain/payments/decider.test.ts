import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import {
  capturableAmount,
  decide,
  evolve,
  initialState,
  type PaymentCommand,
  paymentDecider,
  type PaymentEvent,
  paymentEventTypes,
  type PaymentState,
  paymentStreamId,
  refundableAmount,
  resolverWork,
  toTransactionView,
} from "../../../src/domain/payments/index.ts";
import {
  approve,
  approved,
  approvedLate,
  at,
  authorize,
  capture,
  card,
  clientId,
  decline,
  declined,
  fail,
  failed,
  hostConfigurationId,
  initiated,
  otherClientId,
  recordReversal,
  refund,
  requestReversal,
  reversalRefused,
  reversalRequested,
  reversed,
  sell,
  voidOf,
} from "./fixtures.ts";
import { deciderSpec } from "../../support/decider-spec.ts";

const failedReversed = (id: string): PaymentEvent => ({
  type: "TransactionFailed.v1",
  data: { transactionId: id, reason: "reversed", processorResponse: null, occurredAt: at(4) },
});

const stateAfter = (events: readonly PaymentEvent[]): PaymentState => fold(paymentDecider, events);

const { given } = deciderSpec(paymentDecider);

// An approved authorization of 1000 and an approved sale of 1000, in their own payments.
const authorized = [initiated("auth", "authorization", 1000), approved("auth")];
const sold = [initiated("sale", "sale", 1000), approved("sale")];

describe("payment", () => {
  it("lives in a stream named after its root transaction", () => {
    expect(paymentStreamId("0190a8e2")).toBe("payment-0190a8e2");
  });

  it("lists its event types", () => {
    expect(paymentEventTypes).toEqual([
      "TransactionInitiated.v1",
      "TransactionApproved.v1",
      "TransactionDeclined.v1",
      "TransactionFailed.v1",
      "TransactionApprovedLate.v1",
      "TransactionReversalRequested.v1",
      "TransactionReversed.v1",
      "TransactionReversalRefused.v1",
      "TransactionSettled.v1",
      "AuthorizationExpired.v1",
      "AuthorizationReleased.v1",
      "TransactionFailureConfirmed.v1",
    ]);
  });

  it("is a decider", () => {
    expect(paymentDecider.initialState()).toEqual(initialState());
    expect(paymentDecider.decide(authorize("auth", 1000), paymentDecider.initialState()).ok).toBe(true);
    expect(paymentDecider.evolve(initialState(), initiated("auth", "authorization", 1)).rootTransactionId).toBe("auth");
  });
});

describe("authorization and sale", () => {
  it("starts a payment, pending before the processor is called", () => {
    given([]).when(authorize("auth", 1000)).then([initiated("auth", "authorization", 1000)]);
    given([]).when(sell("sale", 1000)).then([initiated("sale", "sale", 1000)]);
  });

  it("is the only root of its payment", () => {
    given([initiated("auth", "authorization", 1000)]).when(authorize("auth", 1000)).thenRefused("already_exists");
    given(authorized).when(sell("sale", 500)).thenRefused("already_exists");
    given(sold).when(authorize("other", 500)).thenRefused("already_exists");
  });

  it.each([0, -1, 10.5, 1e13])("refuses amount %d", (amount) => {
    given([]).when(authorize("auth", amount)).thenRefused("validation_error");
  });

  it.each(["usd", "ABC", "US"])("refuses currency %j", (currency) => {
    given([]).when(sell("sale", 1000, { currency })).thenRefused("validation_error");
  });
});

describe("follow-ups", () => {
  it("need the payment to exist", () => {
    given([]).when(capture("cap", "auth", 100)).thenRefused("not_found");
    given([]).when(refund("ref", "sale", 100)).thenRefused("not_found");
    given([]).when(voidOf("void", "auth")).thenRefused("not_found");
  });

  it("need their parent in the payment", () => {
    given(authorized).when(capture("cap", "elsewhere", 100)).thenRefused("not_found");
    given(sold).when(refund("ref", "elsewhere")).thenRefused("not_found");
    given(sold).when(voidOf("void", "elsewhere")).thenRefused("not_found");
  });

  it("do not see another client's payment", () => {
    given(authorized).when(capture("cap", "auth", 100, { clientId: otherClientId })).thenRefused("not_found");
    given(sold).when(refund("ref", "sale", 100, { clientId: otherClientId })).thenRefused("not_found");
    given(sold).when(voidOf("void", "sale", { clientId: otherClientId })).thenRefused("not_found");
  });

  it("each need their own id", () => {
    given(authorized).when(capture("auth", "auth", 100)).thenRefused("already_exists");
    given([...authorized, initiated("cap", "capture", 100, "auth")])
      .when(capture("cap", "auth", 100))
      .thenRefused("already_exists");
  });

  it("take the parent's currency, user, processor and host configuration, and no card", () => {
    const euros = [
      initiated("auth", "authorization", 1000, null, {
        currency: "EUR",
        userId: "user_7",
        processor: "processor_c",
        hostConfigurationId: "hc-c",
      }),
      approved("auth"),
    ];
    given(euros)
      .when(capture("cap", "auth", 400, { hostConfigurationVersion: 3, reference: "ship-1", metadata: { box: "2" } }))
      .then([
        initiated("cap", "capture", 400, "auth", {
          currency: "EUR",
          userId: "user_7",
          processor: "processor_c",
          hostConfigurationId: "hc-c",
          hostConfigurationVersion: 3,
          card: null,
          reference: "ship-1",
          metadata: { box: "2" },
        }),
      ]);
  });

  it.each([
    ["pending", [initiated("auth", "authorization", 1000)]],
    ["declined", [initiated("auth", "authorization", 1000), declined("auth")]],
    ["failed", [initiated("auth", "authorization", 1000), failed("auth")]],
    ["voided", [...authorized, initiated("void", "void", 1000, "auth"), approved("void")]],
    ["being voided", [...authorized, initiated("void", "void", 1000, "auth")]],
  ])("never follow a %s authorization", (_status, events) => {
    given(events).when(capture("cap", "auth", 100)).thenRefused("invalid_transaction_state");
    given(events).when(voidOf("void2", "auth")).thenRefused("invalid_transaction_state");
  });

  it.each([
    ["pending", [initiated("sale", "sale", 1000)]],
    ["declined", [initiated("sale", "sale", 1000), declined("sale", "insufficient_funds")]],
    ["failed", [initiated("sale", "sale", 1000), failed("sale", "processor_authentication_failed")]],
    ["voided", [...sold, initiated("void", "void", 1000, "sale"), approved("void")]],
    ["being voided", [...sold, initiated("void", "void", 1000, "sale")]],
  ])("never follow a %s sale", (_status, events) => {
    given(events).when(refund("ref", "sale", 100)).thenRefused("invalid_transaction_state");
    given(events).when(voidOf("void2", "sale")).thenRefused("invalid_transaction_state");
  });
});

describe("capture", () => {
  it("takes everything still capturable when no amount is given", () => {
    given(authorized).when(capture("cap", "auth")).then([initiated("cap", "capture", 1000, "auth")]);
    given([...authorized, initiated("cap1", "capture", 300, "auth"), approved("cap1")])
      .when(capture("cap2", "auth"))
      .then([initiated("cap2", "capture", 700, "auth")]);
  });

  it("may be partial, several times, up to the authorized amount", () => {
    const history = [
      ...authorized,
      initiated("cap1", "capture", 300, "auth"),
      approved("cap1"),
      initiated("cap2", "capture", 300, "auth"),
      approved("cap2"),
    ];
    given(history).when(capture("cap3", "auth", 400)).then([initiated("cap3", "capture", 400, "auth")]);
    given(history).when(capture("cap3", "auth", 401)).thenRefused("amount_exceeds_capturable");
  });

  it("never exceeds the authorized amount", () => {
    given(authorized).when(capture("cap", "auth", 1001)).thenRefused("amount_exceeds_capturable");
  });

  it("counts pending captures", () => {
    given([...authorized, initiated("cap1", "capture", 800, "auth")])
      .when(capture("cap2", "auth", 201))
      .thenRefused("amount_exceeds_capturable");
  });

  it("does not count declined or failed captures", () => {
    given([
      ...authorized,
      initiated("cap1", "capture", 800, "auth"),
      declined("cap1"),
      initiated("cap2", "capture", 800, "auth"),
      failed("cap2"),
    ])
      .when(capture("cap3", "auth"))
      .then([initiated("cap3", "capture", 1000, "auth")]);
  });

  it("fails when nothing is left", () => {
    const captured = [...authorized, initiated("cap1", "capture", 1000, "auth"), approved("cap1")];
    given(captured).when(capture("cap2", "auth")).thenRefused("amount_exceeds_capturable");
    given(captured).when(capture("cap2", "auth", 1)).thenRefused("amount_exceeds_capturable");
  });

  it.each([0, -5, 2.5])("refuses amount %d", (amount) => {
    given(authorized).when(capture("cap", "auth", amount)).thenRefused("validation_error");
  });

  it("only captures an authorization", () => {
    given(sold).when(capture("cap", "sale", 100)).thenRefused("invalid_transaction_state");
    const captured = [...authorized, initiated("cap1", "capture", 100, "auth"), approved("cap1")];
    given(captured).when(capture("cap2", "cap1", 50)).thenRefused("invalid_transaction_state");
    const refunded = [...sold, initiated("ref", "refund", 100, "sale"), approved("ref")];
    given(refunded).when(capture("cap", "ref", 50)).thenRefused("invalid_transaction_state");
  });

  it("gets a voided capture's amount back: it no longer counts as captured", () => {
    const voidedCapture = [
      ...authorized,
      initiated("cap1", "capture", 600, "auth"),
      approved("cap1"),
      initiated("void", "void", 600, "cap1"),
      approved("void"),
    ];
    given(voidedCapture).when(capture("cap2", "auth")).then([initiated("cap2", "capture", 1000, "auth")]);
    const state = stateAfter(voidedCapture);
    expect(toTransactionView(state, "auth")?.capturedAmount).toBe(0);
    expect(capturableAmount(state, "auth")).toBe(1000);
    expect(refundableAmount(state, "cap1")).toBe(0);
    given(voidedCapture).when(refund("ref", "cap1")).thenRefused("invalid_transaction_state");
    given(voidedCapture).when(voidOf("void2", "auth")).then([initiated("void2", "void", 1000, "auth")]);
  });

  it("still counts a capture whose void is only pending", () => {
    const voiding = [
      ...authorized,
      initiated("cap1", "capture", 600, "auth"),
      approved("cap1"),
      initiated("void", "void", 600, "cap1"),
    ];
    given(voiding).when(capture("cap2", "auth")).then([initiated("cap2", "capture", 400, "auth")]);
    expect(toTransactionView(stateAfter(voiding), "auth")?.capturedAmount).toBe(600);
  });
});

describe("refund", () => {
  it("takes everything still refundable when no amount is given", () => {
    given(sold).when(refund("ref", "sale")).then([initiated("ref", "refund", 1000, "sale")]);
  });

  it("records its reason", () => {
    given(sold)
      .when(refund("ref", "sale", 100, { reason: "damaged" }))
      .then([initiated("ref", "refund", 100, "sale", { reason: "damaged" })]);
  });

  it("may be partial, several times, up to the amount sold", () => {
    const history = [...sold, initiated("ref1", "refund", 600, "sale"), approved("ref1")];
    given(history).when(refund("ref2", "sale", 400)).then([initiated("ref2", "refund", 400, "sale")]);
    given(history).when(refund("ref2", "sale", 401)).thenRefused("amount_exceeds_refundable");
    given(history).when(refund("ref2", "sale")).then([initiated("ref2", "refund", 400, "sale")]);
  });

  it("of a capture never exceeds what it captured", () => {
    const captured = [...authorized, initiated("cap", "capture", 300, "auth"), approved("cap")];
    given(captured).when(refund("ref", "cap")).then([initiated("ref", "refund", 300, "cap")]);
    given(captured).when(refund("ref", "cap", 301)).thenRefused("amount_exceeds_refundable");
  });

  it("counts pending refunds", () => {
    given([...sold, initiated("ref1", "refund", 900, "sale")])
      .when(refund("ref2", "sale", 101))
      .thenRefused("amount_exceeds_refundable");
  });

  it("does not count declined or failed refunds", () => {
    given([
      ...sold,
      initiated("ref1", "refund", 900, "sale"),
      failed("ref1"),
      initiated("ref2", "refund", 900, "sale"),
      declined("ref2"),
    ])
      .when(refund("ref3", "sale"))
      .then([initiated("ref3", "refund", 1000, "sale")]);
  });

  it("fails when nothing is left", () => {
    const refunded = [...sold, initiated("ref1", "refund", 1000, "sale"), approved("ref1")];
    given(refunded).when(refund("ref2", "sale")).thenRefused("amount_exceeds_refundable");
    given(refunded).when(refund("ref2", "sale", 1)).thenRefused("amount_exceeds_refundable");
  });

  it.each([0, -5, 2.5])("refuses amount %d", (amount) => {
    given(sold).when(refund("ref", "sale", amount)).thenRefused("validation_error");
  });

  it("only refunds a sale or a capture", () => {
    given(authorized).when(refund("ref", "auth", 100)).thenRefused("invalid_transaction_state");
    const refunded = [...sold, initiated("ref1", "refund", 100, "sale"), approved("ref1")];
    given(refunded).when(refund("ref2", "ref1", 50)).thenRefused("invalid_transaction_state");
    const voided = [...authorized, initiated("void", "void", 1000, "auth"), approved("void")];
    given(voided).when(refund("ref", "void", 50)).thenRefused("invalid_transaction_state");
  });

  it("never follows a pending, declined or voided capture", () => {
    const pending = [...authorized, initiated("cap", "capture", 300, "auth")];
    given(pending).when(refund("ref", "cap")).thenRefused("invalid_transaction_state");
    given([...pending, declined("cap")]).when(refund("ref", "cap")).thenRefused("invalid_transaction_state");
    given([...pending, approved("cap"), initiated("void", "void", 300, "cap"), approved("void")])
      .when(refund("ref", "cap"))
      .thenRefused("invalid_transaction_state");
  });
});

describe("final capture", () => {
  const authorized = [initiated("auth", "authorization", 1000), approved("auth")];
  const finalCapture = (amount: number) => [...authorized, initiated("cap", "capture", amount, "auth", { final: true })];
  const releaseOf = (amount: number): PaymentEvent[] => [
    {
      type: "AuthorizationReleased.v1",
      data: { transactionId: "auth", captureTransactionId: "cap", voidTransactionId: "rel", occurredAt: at(1) },
    },
    initiated("rel", "void", amount, "auth", { occurredAt: at(1) }),
  ];

  it("records that it is final", () => {
    given(authorized)
      .when(capture("cap", "auth", 300, { final: true }))
      .then([initiated("cap", "capture", 300, "auth", { final: true })]);
  });

  it("releases the rest with its approval, in the same decision", () => {
    given(finalCapture(300))
      .when({ ...approve("cap"), releaseTransactionId: "rel" })
      .then([approved("cap"), ...releaseOf(700)]);
  });

  it("releases nothing when it captured all, or was declined or failed", () => {
    given(finalCapture(1000)).when({ ...approve("cap"), releaseTransactionId: "rel" }).then([approved("cap")]);
    given(finalCapture(300)).when(decline("cap")).then([declined("cap")]);
    given(finalCapture(300)).when(fail("cap")).then([failed("cap")]);
  });

  it("releases once: the same approval recorded again decides nothing", () => {
    given([...finalCapture(300), approved("cap"), ...releaseOf(700)])
      .when({ ...approve("cap"), releaseTransactionId: "rel-2" })
      .thenNothing();
  });

  it("leaves the authorization voided with its captures once the release is approved", () => {
    const state = stateAfter([...finalCapture(300), approved("cap"), ...releaseOf(700), approved("rel")]);
    expect(state.transactions.get("auth")).toMatchObject({ voided: true, capturedAmount: 300 });
    expect(state.transactions.get("cap")).toMatchObject({ voided: false, capturedAmount: 300 });
  });

  it("waits for every other capture's answer, and nothing follows it while it is pending", () => {
    const otherPending = [...authorized, initiated("other", "capture", 100, "auth")];
    given(otherPending).when(capture("cap", "auth", 300, { final: true })).thenRefused("invalid_transaction_state");
    given(finalCapture(300)).when(capture("next", "auth", 100)).thenRefused("invalid_transaction_state");
    given(finalCapture(300)).when(voidOf("void", "auth")).thenRefused("invalid_transaction_state");
  });

  it("never releases while a capture's void is pending, nor voids a capture while a release is pending: either would leave its amount held", () => {
    const captureVoiding = [...authorized, initiated("cap", "capture", 300, "auth"), approved("cap"), initiated("cv", "void", 300, "cap")];
    given(captureVoiding).when(voidOf("void", "auth")).thenRefused("invalid_transaction_state");
    given(captureVoiding).when(capture("fin", "auth", 100, { final: true })).thenRefused("invalid_transaction_state");
    const releasing = [...authorized, initiated("cap", "capture", 300, "auth"), approved("cap"), initiated("void", "void", 700, "auth")];
    given(releasing).when(voidOf("cv", "cap")).thenRefused("invalid_transaction_state");
    given([...releasing, approved("void")]).when(voidOf("cv", "cap")).then([initiated("cv", "void", 300, "cap")]);
  });

  it("after release, nothing more can be captured and the authorization cannot be voided again", () => {
    const released = [...finalCapture(300), approved("cap"), ...releaseOf(700), approved("rel")];
    given(released).when(capture("next", "auth", 100)).thenRefused("invalid_transaction_state");
    given(released).when(voidOf("void", "auth")).thenRefused("invalid_transaction_state");
  });
});

describe("void", () => {
  it("voids an authorization with nothing captured, for its whole amount", () => {
    given(authorized).when(voidOf("void", "auth")).then([initiated("void", "void", 1000, "auth")]);
  });

  it("voids an authorization whose captures were all declined or failed", () => {
    given([
      ...authorized,
      initiated("cap1", "capture", 100, "auth"),
      declined("cap1"),
      initiated("cap2", "capture", 100, "auth"),
      failed("cap2"),
    ])
      .when(voidOf("void", "auth"))
      .then([initiated("void", "void", 1000, "auth")]);
  });

  it("releases the uncaptured rest of an authorization with captures, once no capture is pending", () => {
    const pending = [...authorized, initiated("cap", "capture", 300, "auth")];
    given(pending).when(voidOf("void", "auth")).thenRefused("invalid_transaction_state");
    given([...pending, approved("cap")]).when(voidOf("void", "auth")).then([initiated("void", "void", 700, "auth")]);
    given([...pending, declined("cap")]).when(voidOf("void", "auth")).then([initiated("void", "void", 1000, "auth")]);
  });

  it("refuses an authorization with nothing left to capture", () => {
    given([...authorized, initiated("cap", "capture", 1000, "auth"), approved("cap")])
      .when(voidOf("void", "auth"))
      .thenRefused("invalid_transaction_state");
  });

  it("voids a sale or a capture that is not refunded", () => {
    given(sold).when(voidOf("void", "sale")).then([initiated("void", "void", 1000, "sale")]);
    given([...authorized, initiated("cap", "capture", 300, "auth"), approved("cap")])
      .when(voidOf("void", "cap"))
      .then([initiated("void", "void", 300, "cap")]);
  });

  it("refuses a sale with an approved or pending refund", () => {
    const pending = [...sold, initiated("ref", "refund", 100, "sale")];
    given(pending).when(voidOf("void", "sale")).thenRefused("invalid_transaction_state");
    given([...pending, approved("ref")]).when(voidOf("void", "sale")).thenRefused("invalid_transaction_state");
  });

  it("ignores failed or declined refunds", () => {
    given([
      ...sold,
      initiated("ref1", "refund", 100, "sale"),
      failed("ref1"),
      initiated("ref2", "refund", 100, "sale"),
      declined("ref2"),
    ])
      .when(voidOf("void", "sale"))
      .then([initiated("void", "void", 1000, "sale")]);
  });

  it("refuses a settled sale", () => {
    const state = stateAfter(sold);
    const sale = state.transactions.get("sale");
    if (sale?.status !== "approved") throw new Error("no approved sale");
    const settled: PaymentState = {
      ...state,
      transactions: new Map(state.transactions).set("sale", { ...sale, settledAt: at(30) }),
    };
    expect(decide(voidOf("void", "sale"), settled)).toMatchObject({ ok: false, error: "invalid_transaction_state" });
    expect(decide(refund("ref", "sale"), settled)).toMatchObject({ ok: true });
  });

  it("refuses a refund or a void", () => {
    given([...sold, initiated("ref", "refund", 100, "sale"), approved("ref")])
      .when(voidOf("void", "ref"))
      .thenRefused("invalid_transaction_state");
    given([...sold, initiated("void", "void", 1000, "sale"), approved("void")])
      .when(voidOf("void2", "void"))
      .thenRefused("invalid_transaction_state");
  });

  it("happens once: a second void, pending or not, is refused", () => {
    const pending = [...sold, initiated("void1", "void", 1000, "sale")];
    given(pending).when(voidOf("void2", "sale")).thenRefused("invalid_transaction_state");
    given([...pending, approved("void1")]).when(voidOf("void2", "sale")).thenRefused("invalid_transaction_state");
  });

  it("may be tried again after a declined or failed void", () => {
    given([
      ...sold,
      initiated("void1", "void", 1000, "sale"),
      declined("void1"),
      initiated("void2", "void", 1000, "sale"),
      failed("void2"),
    ])
      .when(voidOf("void3", "sale"))
      .then([initiated("void3", "void", 1000, "sale")]);
  });
});

describe("recording an outcome", () => {
  const pending = [initiated("auth", "authorization", 1000)];

  it("approves, declines or fails a pending transaction", () => {
    given(pending).when(approve("auth", at(5))).then([approved("auth", at(5))]);
    given(pending).when(decline("auth", "incorrect_cvc", at(5))).then([declined("auth", "incorrect_cvc", at(5))]);
    given(pending)
      .when(fail("auth", "processor_authentication_failed", at(5)))
      .then([failed("auth", "processor_authentication_failed", at(5))]);
  });

  it("keeps the limit a limit decline would break, so a retry can answer it again", () => {
    const limitBreach = { limit: "dailyAmount" as const, value: 5000, remaining: 400 };
    const declineCode = "limit_exceeded" as const;
    const event: PaymentEvent = {
      type: "TransactionDeclined.v1",
      data: { transactionId: "auth", declineCode, processorResponse: null, limitBreach, occurredAt: at(5) },
    };
    const outcome = { status: "declined" as const, declineCode, processorResponse: null, limitBreach };
    given(pending).when({ type: "RecordOutcome", transactionId: "auth", outcome, now: at(5) }).then([event]);
    expect(stateAfter([...pending, event]).transactions.get("auth")).toMatchObject({ status: "declined", limitBreach });
    // Recorded before the breach was kept: none to answer.
    expect(stateAfter([...pending, declined("auth", "limit_exceeded")]).transactions.get("auth")).toMatchObject({ status: "declined", limitBreach: null });
  });

  it("needs the transaction", () => {
    given([]).when(approve("auth")).thenRefused("not_found");
    given(pending).when(approve("other")).thenRefused("not_found");
  });

  it("records the same outcome once: again is a no-op", () => {
    given([...pending, approved("auth")]).when(approve("auth", at(9))).thenNothing();
    given([...pending, declined("auth", "expired_card")]).when(decline("auth", "expired_card", at(9))).thenNothing();
    given([...pending, failed("auth")]).when(fail("auth", "processor_error", at(9))).thenNothing();
  });

  it.each([
    ["approved", approved("auth"), [decline("auth"), fail("auth")]],
    ["declined", declined("auth"), [approve("auth"), decline("auth", "insufficient_funds"), fail("auth")]],
    ["failed", failed("auth"), [decline("auth"), fail("auth", "processor_authentication_failed")]],
  ])("never moves a %s transaction to another outcome", (_status, outcome, commands) => {
    for (const command of commands) given([...pending, outcome]).when(command).thenRefused("invalid_transaction_state");
  });

  it("decides follow-ups too", () => {
    given([...authorized, initiated("cap", "capture", 100, "auth")]).when(approve("cap")).then([approved("cap")]);
  });
});

describe("a late approval", () => {
  const failedSale = [initiated("sale", "sale", 1000), failed("sale")];

  it("of a failed transaction is recorded as a fact of its own; the failure stands", () => {
    given(failedSale).when(approve("sale", at(2))).then([approvedLate("sale", at(2))]);
    const state = stateAfter([...failedSale, approvedLate("sale")]);
    expect(toTransactionView(state, "sale")).toMatchObject({ status: "failed", capturedAmount: 0 });
    expect(resolverWork(state.transactions.get("sale")!)).toBe("reverse");
  });

  it("is recorded once", () => {
    given([...failedSale, approvedLate("sale")]).when(approve("sale", at(9))).thenNothing();
  });

  it("of a pending transaction being reversed waits for the reversal", () => {
    const reversing = [initiated("sale", "sale", 1000), reversalRequested("sale")];
    given(reversing).when(approve("sale", at(2))).then([approvedLate("sale", at(2))]);
    const state = stateAfter([...reversing, approvedLate("sale")]);
    expect(state.transactions.get("sale")?.status).toBe("pending");
  });

  it("of a refund or a void is recorded, but there is nothing to reverse", () => {
    const failedRefund = [...sold, initiated("ref", "refund", 100, "sale"), failed("ref")];
    given(failedRefund).when(approve("ref", at(2))).then([approvedLate("ref", at(2))]);
    expect(resolverWork(stateAfter([...failedRefund, approvedLate("ref")]).transactions.get("ref")!)).toBeNull();
  });
});

describe("a failure on a not-found", () => {
  const notFoundSale = [initiated("sale", "sale", 1000), failed("sale", "not_found")];
  const confirmFailure = (transactionId: string, now = at(5)): PaymentCommand => ({ type: "ConfirmFailure", transactionId, now });
  const failureConfirmed = (transactionId: string, occurredAt = at(5)): PaymentEvent => ({
    type: "TransactionFailureConfirmed.v1",
    data: { transactionId, occurredAt },
  });

  it("is watched for a late approval until its failure is confirmed, once", () => {
    expect(resolverWork(stateAfter(notFoundSale).transactions.get("sale")!)).toBe("watch");
    given(notFoundSale).when(confirmFailure("sale")).then([failureConfirmed("sale")]);
    const confirmed = stateAfter([...notFoundSale, failureConfirmed("sale")]);
    expect(resolverWork(confirmed.transactions.get("sale")!)).toBeNull();
    expect(toTransactionView(confirmed, "sale")).toEqual(toTransactionView(stateAfter(notFoundSale), "sale"));
    given([...notFoundSale, failureConfirmed("sale")]).when(confirmFailure("sale", at(9))).thenNothing();
  });

  it("approved late is reversed, not confirmed", () => {
    const late = [...notFoundSale, approvedLate("sale")];
    given(late).when(confirmFailure("sale")).thenNothing();
    expect(resolverWork(stateAfter(late).transactions.get("sale")!)).toBe("reverse");
  });

  it("is the only failure watched", () => {
    given([initiated("sale", "sale", 1000), failed("sale")]).when(confirmFailure("sale")).thenNothing();
    given([]).when(confirmFailure("sale")).thenRefused("not_found");
  });
});

describe("a reversal", () => {
  const pendingSale = [initiated("sale", "sale", 1000)];
  const approvedLateSale = [initiated("sale", "sale", 1000), failed("sale"), approvedLate("sale")];

  it("is requested for a pending transaction, or a failed one the processor approved late", () => {
    given(pendingSale).when(requestReversal("sale")).then([reversalRequested("sale")]);
    given(approvedLateSale).when(requestReversal("sale")).then([reversalRequested("sale")]);
  });

  it("is requested once: a second request, from anywhere, is a no-op", () => {
    given([...pendingSale, reversalRequested("sale")]).when(requestReversal("sale", "rev2")).thenNothing();
    given([...pendingSale, reversalRequested("sale"), reversed("sale"), failedReversed("sale")])
      .when(requestReversal("sale", "rev2"))
      .thenNothing();
  });

  it("is refused for what holds no money the ledger does not know of", () => {
    given(sold).when(requestReversal("sale")).thenRefused("invalid_transaction_state");
    given([initiated("sale", "sale", 1000), failed("sale")]).when(requestReversal("sale")).thenRefused("invalid_transaction_state");
    given([...sold, initiated("ref", "refund", 100, "sale")]).when(requestReversal("ref")).thenRefused("invalid_transaction_state");
    given([]).when(requestReversal("sale")).thenRefused("not_found");
  });

  it("of a pending transaction records it failed, reason reversed, and gives nothing else to do", () => {
    const reversing = [...pendingSale, reversalRequested("sale")];
    given(reversing)
      .when(recordReversal("sale", "reversed"))
      .then([reversed("sale"), failedReversed("sale")]);
    const state = stateAfter([...reversing, reversed("sale"), failedReversed("sale")]);
    const sale = state.transactions.get("sale")!;
    expect(sale).toMatchObject({ status: "failed", failureReason: "reversed" });
    expect(resolverWork(sale)).toBeNull();
  });

  it("of a late approval records the reversal alone: the transaction was already failed", () => {
    const reversing = [...approvedLateSale, reversalRequested("sale")];
    given(reversing).when(recordReversal("sale", "reversed")).then([reversed("sale")]);
    expect(resolverWork(stateAfter([...reversing, reversed("sale")]).transactions.get("sale")!)).toBeNull();
  });

  it("refused by the processor is recorded, and may be requested again", () => {
    const reversing = [...approvedLateSale, reversalRequested("sale")];
    given(reversing).when(recordReversal("sale", "refused")).then([reversalRefused("sale")]);
    const refused = [...reversing, reversalRefused("sale")];
    expect(resolverWork(stateAfter(refused).transactions.get("sale")!)).toBe("reverse");
    given(refused).when(requestReversal("sale", "rev2")).then([reversalRequested("sale", "rev2")]);
  });

  it("records the answer of the reversal asked for only", () => {
    given([...pendingSale, reversalRequested("sale")]).when(recordReversal("sale", "reversed", "other")).thenNothing();
    given(pendingSale).when(recordReversal("sale", "reversed")).thenNothing();
  });

  it("is what the resolver owes an open reversal, and a pending transaction is asked about", () => {
    expect(resolverWork(stateAfter(pendingSale).transactions.get("sale")!)).toBe("inquire");
    expect(resolverWork(stateAfter([...pendingSale, reversalRequested("sale")]).transactions.get("sale")!)).toBe("reverse");
    expect(resolverWork(stateAfter(sold).transactions.get("sale")!)).toBeNull();
  });
});

describe("state and view", () => {
  const viewKeys = [
    "id",
    "type",
    "status",
    "clientId",
    "userId",
    "processor",
    "hostConfigurationId",
    "amount",
    "currency",
    "parentTransactionId",
    "card",
    "paymentMethodId",
    "declineCode",
    // Why a failed transaction failed (issue 15: a failed transaction shows its failure reason).
    "failureReason",
    "processorResponse",
    "capturedAmount",
    "refundedAmount",
    "voided",
    "settledAt",
    // API.md, "Settlement, expiry and reversals": a settled transaction's batch, an authorization's expiry.
    "settlementId",
    "expiredAt",
    "state",
    "reference",
    "metadata",
    "createdAt",
    "updatedAt",
  ];

  it("shows the API transaction object, exactly", () => {
    const state = stateAfter([initiated("auth", "authorization", 1099), approved("auth", at(1))]);
    const view = toTransactionView(state, "auth");
    expect(view).toEqual({
      id: "auth",
      type: "authorization",
      status: "approved",
      clientId,
      userId: "user_42",
      processor: "processor_a",
      hostConfigurationId,
      amount: 1099,
      currency: "USD",
      parentTransactionId: null,
      card,
      paymentMethodId: null,
      declineCode: null,
      failureReason: null,
      processorResponse: { code: "00", message: "Approved", authorizationCode: "A1B2C3", reference: "ref-1" },
      capturedAmount: 0,
      refundedAmount: 0,
      voided: false,
      settledAt: null,
      settlementId: null,
      expiredAt: null,
      state: "authorized",
      reference: "order-1001",
      metadata: { orderId: "1001" },
      createdAt: at(0),
      updatedAt: at(1),
    });
    expect(Object.keys(view ?? {})).toEqual(viewKeys);
  });

  it("is null for an unknown transaction", () => {
    expect(toTransactionView(stateAfter(authorized), "other")).toBeNull();
  });

  it("keeps transactions in the order they began", () => {
    const state = stateAfter([
      ...authorized,
      initiated("cap2", "capture", 1, "auth"),
      initiated("cap1", "capture", 1, "auth"),
    ]);
    expect([...state.transactions.keys()]).toEqual(["auth", "cap2", "cap1"]);
    expect(state.rootTransactionId).toBe("auth");
  });

  it("shows a pending transaction", () => {
    expect(toTransactionView(stateAfter([initiated("sale", "sale", 500)]), "sale")).toMatchObject({
      status: "pending",
      processorResponse: null,
      capturedAmount: 0,
    });
  });

  it("counts approved captures on the authorization, and updates it", () => {
    const state = stateAfter([
      ...authorized,
      initiated("cap1", "capture", 300, "auth", { occurredAt: at(2) }),
      approved("cap1", at(3)),
      initiated("cap2", "capture", 200, "auth", { occurredAt: at(4) }),
      declined("cap2", "card_declined", at(5)),
      initiated("cap3", "capture", 100, "auth", { occurredAt: at(6) }),
    ]);
    expect(toTransactionView(state, "auth")).toMatchObject({ capturedAmount: 300, updatedAt: at(3) });
    expect(toTransactionView(state, "cap1")).toMatchObject({
      status: "approved",
      capturedAmount: 300,
      parentTransactionId: "auth",
      card: null,
    });
    expect(toTransactionView(state, "cap2")).toMatchObject({
      status: "declined",
      declineCode: "card_declined",
      processorResponse: { code: "05", authorizationCode: null },
      capturedAmount: 0,
    });
    expect(capturableAmount(state, "auth")).toBe(600);
  });

  it("shows a sale as captured, and its approved refunds", () => {
    const state = stateAfter([
      ...sold,
      initiated("ref1", "refund", 300, "sale"),
      approved("ref1", at(7)),
      initiated("ref2", "refund", 200, "sale"),
      failed("ref2"),
      initiated("ref3", "refund", 100, "sale"),
    ]);
    expect(toTransactionView(state, "sale")).toMatchObject({
      capturedAmount: 1000,
      refundedAmount: 300,
      updatedAt: at(7),
    });
    expect(toTransactionView(state, "ref2")).toMatchObject({ status: "failed", declineCode: null });
    expect(state.transactions.get("ref2")).toMatchObject({ status: "failed", failureReason: "processor_error" });
    expect(refundableAmount(state, "sale")).toBe(600);
  });

  it("marks a transaction voided once its void is approved", () => {
    const pending = stateAfter([...authorized, initiated("void", "void", 1000, "auth")]);
    expect(toTransactionView(pending, "auth")?.voided).toBe(false);
    const done = evolve(pending, approved("void", at(8)));
    expect(toTransactionView(done, "auth")).toMatchObject({ voided: true, updatedAt: at(8) });
    expect(toTransactionView(done, "void")).toMatchObject({ amount: 1000, voided: false });
  });

  it("never changes a decided transaction, even given a stray outcome", () => {
    const state = stateAfter([...authorized]);
    expect(evolve(state, declined("auth"))).toEqual(state);
    expect(evolve(state, approved("nobody"))).toEqual(state);
  });

  it("ignores an event type it does not know", () => {
    const state = stateAfter(authorized);
    const unknown = { type: "TransactionSettled.v9", data: { transactionId: "auth" } } as unknown as PaymentEvent;
    expect(evolve(state, unknown)).toEqual(state);
  });

  it("ignores a second initiation of the same transaction", () => {
    const state = stateAfter(authorized);
    expect(evolve(state, initiated("auth", "authorization", 5))).toEqual(state);
  });
});

describe("capturable and refundable amounts", () => {
  it("are 0 for what cannot be captured or refunded", () => {
    const state = stateAfter([...authorized, initiated("cap", "capture", 100, "auth")]);
    expect(capturableAmount(state, "auth")).toBe(900);
    expect(capturableAmount(state, "cap")).toBe(0);
    expect(capturableAmount(state, "nobody")).toBe(0);
    expect(refundableAmount(state, "auth")).toBe(0);
    expect(refundableAmount(state, "cap")).toBe(0);
    expect(refundableAmount(evolve(state, approved("cap")), "cap")).toBe(100);
    expect(capturableAmount(stateAfter([initiated("auth", "authorization", 1000)]), "auth")).toBe(0);
    expect(capturableAmount(stateAfter([...authorized, initiated("void", "void", 1000, "auth")]), "auth")).toBe(0);
    expect(refundableAmount(stateAfter([...sold, initiated("void", "void", 1000, "sale")]), "sale")).toBe(0);
  });
});
