import { describe, expect, it } from "vitest";
import { checkInvariants, type Evidence, type InvariantName, type LedgerBatch } from "../../bench/chaos/invariants.ts";
import type { FlatTransaction } from "../../src/domain/payments/stored-state.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import type { Answer } from "../../bench/chaos/workload.ts";

/** The invariants of settlement closes, expiries and reversals, judged on evidence made by hand. */

const judgedAt = new Date("2026-03-01T12:10:00.000Z");
const ago = (seconds: number) => new Date(judgedAt.getTime() - seconds * 1_000).toISOString();

function transaction(fields: Partial<FlatTransaction> & Pick<FlatTransaction, "id" | "type">): FlatTransaction {
  return {
    status: "approved",
    clientId: "client-1",
    userId: "user-1",
    processor: "processor_a",
    hostConfigurationId: "host-1",
    hostConfigurationVersion: 1,
    amount: 1000,
    currency: "USD",
    parentTransactionId: null,
    card: null,
    declineCode: null,
    limitBreach: null,
    failureReason: null,
    processorResponse: null,
    capturedAmount: 0,
    refundedAmount: 0,
    voided: false,
    settledAt: null,
    settlementId: null,
    expiredAt: null,
    approvedAt: ago(300),
    reference: null,
    metadata: {},
    reason: null,
    final: false,
    approvedLate: null,
    reversalId: null,
    reversed: false,
    failureConfirmed: false,
    createdAt: ago(301),
    updatedAt: ago(300),
    ...fields,
  };
}

/** The processor's record of a ledger transaction: approved, as the ledger has it. */
const recordOf = (of: FlatTransaction, fields: Partial<SimulatedTransaction> = {}): SimulatedTransaction => ({
  processor: of.processor,
  transactionId: of.id,
  operation: of.type,
  amount: of.amount,
  currency: of.currency,
  merchantId: "000123456789",
  terminalId: "00000001",
  parentTransactionId: of.parentTransactionId,
  code: "00",
  message: "Approved",
  authorizationCode: "A1B2C3",
  reference: `ref-${of.id}`,
  recordedAt: of.createdAt,
  voided: of.voided,
  settlementId: of.settlementId,
  heldAmount: of.type === "authorization" && !of.voided ? of.amount - of.capturedAmount : 0,
  ...fields,
});

function evidence(transactions: FlatTransaction[], fields: Partial<Evidence> = {}): Evidence {
  return {
    payments: transactions.map((each) => ({ rootTransactionId: each.id, transactions: [each] })),
    processorTransactions: transactions.map((each) => recordOf(each)),
    answers: [],
    paymentMethods: [],
    incompleteIdempotencyRecords: [],
    limitUsage: new Map(),
    openReservations: new Map(),
    today: judgedAt.toISOString().slice(0, 10),
    settlements: [],
    webhooks: [],
    undeliveredWebhooks: [],
    journal: { caughtUp: true, entries: [] },
    scheduledCloses: [],
    authorizationTtlMs: 30_000,
    judgedAt,
    ...fields,
  };
}

const violationsOf = (invariant: InvariantName, judged: Evidence) =>
  checkInvariants(judged)
    .filter((violation) => violation.invariant === invariant)
    .map((violation) => violation.transactionId ?? violation.settlementId);

describe("expiry invariants", () => {
  const authorization = (fields: Partial<FlatTransaction> = {}) => transaction({ id: "auth-1", type: "authorization", ...fields });

  it("wants an approved authorization with something left to capture expired once its TTL and the grace are past", () => {
    expect(violationsOf("authorizations past their time expired", evidence([authorization({ approvedAt: ago(46) })]))).toEqual(["auth-1"]);
    expect(violationsOf("authorizations past their time expired", evidence([authorization({ approvedAt: ago(44) })]))).toEqual([]);
    expect(violationsOf("authorizations past their time expired", evidence([authorization({ capturedAmount: 1000 })]))).toEqual([]);
    expect(violationsOf("authorizations past their time expired", evidence([authorization({ expiredAt: ago(200), voided: true })]))).toEqual([]);
  });

  it("wants an expired authorization voided in the ledger and at the processor", () => {
    const expired = authorization({ expiredAt: ago(250), voided: true });
    const expiryVoid = transaction({ id: "void-1", type: "void", parentTransactionId: "auth-1", createdAt: ago(250) });
    const released = evidence([], {
      payments: [{ rootTransactionId: "auth-1", transactions: [expired, expiryVoid] }],
      processorTransactions: [recordOf(expired), recordOf(expiryVoid)],
    });
    expect(violationsOf("expired authorizations released at the processor and in the ledger", released)).toEqual([]);

    // The expiry's void never reached the processor, and the ledger took its "not found" as final.
    const held = authorization({ expiredAt: ago(250) });
    const lostVoid = transaction({ id: "void-1", type: "void", parentTransactionId: "auth-1", status: "failed", failureReason: "not_found" });
    const notReleased = evidence([], {
      payments: [{ rootTransactionId: "auth-1", transactions: [held, lostVoid] }],
      processorTransactions: [recordOf(held)],
    });
    expect(violationsOf("expired authorizations released at the processor and in the ledger", notReleased)).toEqual(["auth-1"]);
    expect(checkInvariants(notReleased).find((violation) => violation.transactionId === "auth-1")?.detail).toContain("void-1 failed (not_found)");

    // Voided in the ledger, still held at the processor.
    const onlyInTheLedger = evidence([], {
      payments: [{ rootTransactionId: "auth-1", transactions: [expired, expiryVoid] }],
      processorTransactions: [recordOf(expired, { voided: false })],
    });
    expect(violationsOf("expired authorizations released at the processor and in the ledger", onlyInTheLedger)).toEqual(["auth-1"]);
  });
});

describe("held amounts invariant", () => {
  it("wants what an authorization holds in the ledger held at the processor, once nothing of its payment is pending", () => {
    const partly = transaction({ id: "auth-1", type: "authorization", capturedAmount: 300 });
    expect(violationsOf("held amounts agree with the processor", evidence([partly], { processorTransactions: [recordOf(partly)] }))).toEqual([]);
    const releasedInTheLedgerOnly = transaction({ id: "auth-1", type: "authorization", capturedAmount: 300, voided: true });
    const stillHeld = evidence([releasedInTheLedgerOnly], { processorTransactions: [recordOf(releasedInTheLedgerOnly, { heldAmount: 700 })] });
    expect(violationsOf("held amounts agree with the processor", stillHeld)).toEqual(["auth-1"]);
    const pendingRelease = transaction({ id: "void-1", type: "void", status: "pending", parentTransactionId: "auth-1", amount: 700 });
    const judgedLater = evidence([], {
      payments: [{ rootTransactionId: "auth-1", transactions: [partly, pendingRelease] }],
      processorTransactions: [recordOf(partly, { heldAmount: 0 })],
    });
    expect(violationsOf("held amounts agree with the processor", judgedLater)).toEqual([]);
  });
});

describe("reversal invariant", () => {
  it("wants a reversed transaction not held at the processor", () => {
    const reversed = transaction({ id: "sale-1", type: "sale", status: "failed", reversed: true, approvedLate: { code: "00", message: "Approved", authorizationCode: "A", reference: "r" } });
    const held = evidence([reversed], { processorTransactions: [recordOf(reversed, { voided: false })] });
    expect(violationsOf("reversals reached the processor", held)).toEqual(["sale-1"]);
    expect(violationsOf("reversals reached the processor", evidence([reversed], { processorTransactions: [recordOf(reversed, { voided: true })] }))).toEqual([]);
    // Reversed because the processor never approved it.
    expect(violationsOf("reversals reached the processor", evidence([reversed], { processorTransactions: [] }))).toEqual([]);
  });
});

describe("processor approvals invariant", () => {
  it("takes a transaction reversed while its outcome was unknown, approved and voided at the processor, as in the ledger; not one still held", () => {
    const reversed = transaction({ id: "sale-2", type: "sale", status: "failed", reversed: true });
    const voided = evidence([reversed], { processorTransactions: [recordOf(reversed, { voided: true })] });
    expect(violationsOf("processor approvals are in the ledger", voided)).toEqual([]);
    const held = evidence([reversed], { processorTransactions: [recordOf(reversed, { voided: false })] });
    expect(violationsOf("processor approvals are in the ledger", held)).toEqual(["sale-2"]);
  });
});

describe("settlement invariants", () => {
  const batch = (settlementId: string, transactionIds: string[] | null, fields: Partial<LedgerBatch> = {}): LedgerBatch => ({
    settlementId,
    status: transactionIds === null ? "open" : "matched",
    hostConfigurationId: "host-1",
    localDate: null,
    transactionIds,
    ...fields,
  });

  it("wants each settled transaction listed by its one batch, and the processor's batch the ledger's", () => {
    const sale = transaction({ id: "sale-1", type: "sale", settlementId: "batch-1" });
    const other = transaction({ id: "sale-2", type: "sale", settlementId: "batch-1" });
    const agreed = evidence([sale, other], { settlements: [batch("batch-1", ["sale-1", "sale-2"])] });
    expect(violationsOf("each settled transaction in one batch, each batch once at the processor", agreed)).toEqual([]);

    const listedTwice = evidence([sale, other], { settlements: [batch("batch-1", ["sale-1", "sale-2"]), batch("batch-2", ["sale-2"])] });
    expect(violationsOf("each settled transaction in one batch, each batch once at the processor", listedTwice)).toEqual(["sale-2", "batch-2"]);

    // The processor settled sale-2 in a batch the ledger says settled only sale-1.
    const processorOnly = evidence([sale, other], { settlements: [batch("batch-1", ["sale-1"])] });
    expect(violationsOf("each settled transaction in one batch, each batch once at the processor", processorOnly)).toEqual(["sale-2", "batch-1"]);

    const unknownAtProcessor = evidence([transaction({ id: "sale-1", type: "sale" })], {
      settlements: [batch("batch-1", [])],
      processorTransactions: [recordOf(sale, { settlementId: "batch-9" })],
    });
    expect(violationsOf("each settled transaction in one batch, each batch once at the processor", unknownAtProcessor)).toEqual(["batch-9"]);

    const twoScheduled = evidence([], { settlements: [batch("batch-1", [], { localDate: "2026-03-01" }), batch("batch-2", [], { localDate: "2026-03-01" })] });
    expect(violationsOf("each settled transaction in one batch, each batch once at the processor", twoScheduled)).toEqual(["batch-2"]);
  });

  it("takes a manual close's Idempotency-Key as answered by its batch, and a key bound to nothing known as unanswered", () => {
    const records = [
      { scope: "admin", key: "close-1", transactionId: "batch-1" },
      { scope: "admin", key: "close-2", transactionId: "batch-2" },
    ];
    const bound = evidence([], { settlements: [batch("batch-1", null)], incompleteIdempotencyRecords: records });
    expect(violationsOf("idempotency records complete", bound)).toEqual(["batch-2"]);
  });

  it("wants what was approved well before a scheduled close settled once it came round", () => {
    const closedAt = new Date(judgedAt.getTime() - 60_000);
    const scheduledCloses = [{ hostConfigurationId: "host-1", at: closedAt }];
    const before = (id: string, fields: Partial<FlatTransaction> = {}) =>
      transaction({ id, type: "sale", createdAt: ago(200), approvedAt: ago(199), ...fields });
    const left = evidence([before("sale-1"), before("sale-2", { approvedAt: ago(65) }), before("sale-3", { voided: true }), before("sale-4", { hostConfigurationId: "host-2" })], {
      scheduledCloses,
    });
    expect(violationsOf("batches closed on schedule", left)).toEqual(["sale-1"]);
    // Not judged until the close has had its grace.
    expect(violationsOf("batches closed on schedule", { ...left, scheduledCloses: [{ hostConfigurationId: "host-1", at: new Date(judgedAt.getTime() - 10_000) }] })).toEqual([]);
  });
});

describe("payment method invariants", () => {
  const storedCard = { brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "f" } as const;
  const deletedAt = ago(200);
  const paymentMethods = [{ clientId: "client-1", id: "pm-1", last4: "4242", deletedAt }];
  const answerOf = (of: FlatTransaction, fields: Partial<Answer>): Answer => ({
    clientId: of.clientId,
    idempotencyKey: `key-${of.id}`,
    operation: "sale",
    httpStatus: 201,
    transactionId: of.id,
    status: of.status,
    amount: of.amount,
    parentTransactionId: null,
    reference: null,
    paymentMethodId: null,
    sentAt: of.createdAt,
    at: of.updatedAt,
    ...fields,
  });

  it("wants no payment sent naming a payment method after its deletion was answered approved, in the ledger or at the processor", () => {
    const before = transaction({ id: "sale-1", type: "sale", paymentMethodId: "pm-1", card: storedCard, createdAt: ago(201) });
    const after = transaction({ id: "sale-2", type: "sale", status: "declined", paymentMethodId: "pm-1", card: storedCard, createdAt: ago(199) });
    const answers = [answerOf(before, { paymentMethodId: "pm-1" }), answerOf(after, { paymentMethodId: "pm-1", httpStatus: 402 })];
    const declinedEverywhere = evidence([before, after], {
      answers,
      paymentMethods,
      processorTransactions: [recordOf(before), recordOf(after, { code: "05" })],
    });
    expect(violationsOf("nothing approved with a deleted payment method", declinedEverywhere)).toEqual([]);
    const approvedAtTheProcessor = evidence([before, after], { answers, paymentMethods, processorTransactions: [recordOf(before), recordOf(after)] });
    expect(violationsOf("nothing approved with a deleted payment method", approvedAtTheProcessor)).toEqual(["sale-2"]);
    const approvedInTheLedger = transaction({ ...after, status: "approved" });
    const inTheLedger = evidence([before, approvedInTheLedger], {
      answers,
      paymentMethods,
      processorTransactions: [recordOf(before), recordOf(after, { code: "05" })],
    });
    expect(violationsOf("nothing approved with a deleted payment method", inTheLedger)).toEqual(["sale-2"]);
  });

  it("wants each sale and authorization with the paymentMethodId it was sent with and the stored card's last four digits", () => {
    const stored = transaction({ id: "auth-1", type: "authorization", paymentMethodId: "pm-1", card: storedCard });
    const inline = transaction({ id: "sale-1", type: "sale", card: { ...storedCard, last4: "4444" } });
    const answers = [answerOf(stored, { operation: "authorization", paymentMethodId: "pm-1" }), answerOf(inline, {})];
    const judged = (...transactions: FlatTransaction[]) => violationsOf("stored-card payments carry their payment method", evidence(transactions, { answers, paymentMethods }));
    expect(judged(stored, inline)).toEqual([]);
    expect(judged(transaction({ ...stored, paymentMethodId: undefined }), inline)).toEqual(["auth-1"]);
    expect(judged(transaction({ ...stored, card: { ...storedCard, last4: "0005" } }), inline)).toEqual(["auth-1"]);
    expect(judged(stored, transaction({ ...inline, paymentMethodId: "pm-1" }))).toEqual(["sale-1"]);
  });
});
