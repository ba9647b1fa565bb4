import { describe, expect, it } from "vitest";
import { checkJournal, type JournalEvidence } from "../../bench/chaos/journal-checks.ts";
import { type JournalAccount, type JournalLine, lineOf } from "../../src/domain/journal/index.ts";
import type { FlatTransaction } from "../../src/domain/payments/stored-state.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";

/** The chaos harness's journal invariants, judged on evidence made by hand. */

const record = (fields: Partial<SimulatedTransaction> & Pick<SimulatedTransaction, "transactionId" | "operation" | "amount">): SimulatedTransaction => ({
  processor: "processor_a",
  currency: "USD",
  merchantId: "000123456789",
  terminalId: "00000001",
  parentTransactionId: null,
  code: "00",
  message: "Approved",
  authorizationCode: "A1B2C3",
  reference: `ref-${fields.transactionId}`,
  recordedAt: "2026-03-01T12:00:00.000Z",
  voided: false,
  settlementId: null,
  heldAmount: 0,
  ...fields,
});

const lines = (...changes: [JournalAccount, number][]): JournalLine[] => changes.map(([account, amount]) => lineOf(account, "processor_a", "USD", amount)!);
let entryCount = 0;
const entry = (transactionId: string, entryLines: JournalLine[], settlementId: string | null = null): JournalEvidence["entries"][number] => ({
  id: `entry-${(entryCount += 1)}`,
  clientId: "client-1",
  currency: "USD",
  settlementId,
  transactionId,
  lines: entryLines,
});

// The ledger knows each transaction's client.
const byId = new Map(["sale-1", "sale-2", "auth-1", "refund-1"].map((id) => [id, { id, clientId: "client-1" } as FlatTransaction]));
const judge = (entries: JournalEvidence["entries"], records: SimulatedTransaction[]) =>
  checkJournal({ caughtUp: true, entries }, records, byId).map((violation) => `${violation.invariant}: ${violation.detail}`);

describe("the journal's invariants against the processor's record", () => {
  const records = [
    record({ transactionId: "sale-1", operation: "sale", amount: 1000, settlementId: "batch-1" }),
    record({ transactionId: "sale-2", operation: "sale", amount: 500 }),
    record({ transactionId: "refund-1", operation: "refund", amount: 200, parentTransactionId: "sale-2" }),
    record({ transactionId: "auth-1", operation: "authorization", amount: 800, heldAmount: 800 }),
    record({ transactionId: "sale-3", operation: "sale", amount: 700, code: "05" }),
  ];
  const books = [
    entry("sale-1", lines(["processor_receivable", 1000], ["sales", 1000])),
    entry("sale-1", lines(["settled_funds", 1000], ["processor_receivable", -1000]), "batch-1"),
    entry("sale-2", lines(["processor_receivable", 500], ["sales", 500])),
    entry("refund-1", lines(["refunds", 200], ["processor_receivable", -200])),
    entry("auth-1", lines(["holds", 800], ["holds_offset", 800])),
  ];

  it("holds when the journal posts what the processor approved, settled and holds", () => {
    expect(judge(books, records)).toEqual([]);
  });

  it("names a receivable the processor does not show, a batch that moved another net, missing holds and an unbalanced entry", () => {
    expect(judge([...books.slice(0, 4), entry("sale-2", lines(["processor_receivable", 1], ["sales", 2]))], records)).toEqual([
      expect.stringMatching(/^journal entries balance, debits equal credits per currency: entry entry-\d+: debits 1, credits 2/),
      "journal entries balance, debits equal credits per currency: USD: the trial balance's debits 1501, credits 1502",
      "journal receivable is what the processor shows approved and unsettled: client-1 processor_a USD: the journal's processor_receivable is 301; the processor shows 300 approved, not voided and not settled",
      "journal holds are what the processor holds: client-1 processor_a USD: the journal's holds is 0; the processor shows 800 held by approved authorizations",
    ]);
    const otherNet = [entry("sale-1", lines(["processor_receivable", 1000], ["sales", 1000])), entry("sale-1", lines(["settled_funds", 900], ["processor_receivable", -900]), "batch-1"), ...books.slice(2)];
    expect(judge(otherNet, records)).toEqual([
      "journal receivable is what the processor shows approved and unsettled: client-1 processor_a USD: the journal's processor_receivable is 400; the processor shows 300 approved, not voided and not settled",
      "journal settled funds of each batch are its net at the processor: batch batch-1, USD: its entries moved 900 into settled_funds; the processor settled a net of 1000 in it",
    ]);
  });

  it("counts nothing a void cancelled at the processor", () => {
    const voided = records.map((each) => (each.transactionId === "sale-2" ? { ...each, voided: true } : each));
    expect(judge(books, voided)).toEqual([
      "journal receivable is what the processor shows approved and unsettled: client-1 processor_a USD: the journal's processor_receivable is 300; the processor shows -200 approved, not voided and not settled",
    ]);
  });
});
