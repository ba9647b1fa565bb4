import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balancesOf, creditsOf, debitsOf, type JournalAccount, type JournalEntry, trialBalanceOf } from "../../src/domain/journal/index.ts";
import { capturableAmount, heldAmount, refundableAmount } from "../../src/domain/payments/amounts.ts";
import {
  evolve,
  initialState,
  type PaymentCommand,
  paymentDecider,
  type PaymentEvent,
  type PaymentState,
  settleable,
  type TransactionState,
} from "../../src/domain/payments/index.ts";
import type { SettlementClosedV2 } from "../../src/domain/settlements/events.ts";
import { type SettledItem, totalsOf } from "../../src/domain/settlements/totals.ts";
import { JournalFold } from "../support/journal-fold.ts";
import { approvedResponse, authorize, capture, clientId, decline, fail, hostConfigurationId, recordReversal, refund, requestReversal, voidOf } from "../domain/payments/fixtures.ts";

/**
 * The journal's invariants (API.md, Journal) over random histories, checked after every event
 * against a model that reads the payments' own states (src/domain/payments), never the journal's
 * books: debits equal credits per currency; processor_receivable is the unsettled approved sales
 * and captures less the unsettled approved refunds (and what the processor took late, until
 * reversed); a matched batch grows settled_funds by its net; holds is what authorizations hold.
 */

const currencies = ["USD", "EUR"] as const;
type Outcome = "approved" | "declined" | "failed" | "not_found" | "pending";

type Action =
  | { kind: "root"; sale: boolean; amount: number; currency: number; outcome: Outcome }
  | { kind: "capture"; pick: number; share: number; final: boolean; outcome: Outcome }
  | { kind: "refund"; pick: number; share: number; outcome: Outcome }
  | { kind: "void"; pick: number; outcome: Outcome }
  | { kind: "expire"; pick: number; outcome: Outcome }
  | { kind: "resolve"; pick: number; outcome: Outcome }
  | { kind: "approveLate"; pick: number }
  | { kind: "reverse"; pick: number; reversed: boolean }
  | { kind: "settle"; currency: number; leaveOut: boolean; processorOff: number };

const outcome = fc.constantFrom<Outcome>("approved", "approved", "approved", "declined", "failed", "not_found", "pending");
const pick = fc.nat(50);
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("root" as const), sale: fc.boolean(), amount: fc.integer({ min: 100, max: 5_000 }), currency: fc.nat(1), outcome }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("capture" as const), pick, share: fc.integer({ min: 1, max: 100 }), final: fc.boolean(), outcome }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick, share: fc.integer({ min: 1, max: 100 }), outcome }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("void" as const), pick, outcome }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), pick, outcome }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resolve" as const), pick, outcome }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("approveLate" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reverse" as const), pick, reversed: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("settle" as const), currency: fc.nat(1), leaveOut: fc.boolean(), processorOff: fc.constantFrom(0, 0, 0, 25, -40) }) },
);

type Balances = Record<string, Partial<Record<JournalAccount, number>>>;

/** The ledger of payments and batches a history builds, posted to the journal event by event, with every invariant checked after each. */
class History {
  readonly journal = new JournalFold();
  readonly #states = new Map<string, PaymentState>();
  /** Per currency: what closed batches said the processor pays, less what their settled transactions moved. */
  readonly #differences = new Map<string, number>();
  /** The journal's balances after each event, and when it happened. */
  readonly snapshots: { at: string; balances: Balances }[] = [];
  #ids = 0;
  #clock = Date.parse("2026-06-10T12:00:00Z");

  newId = () => `0190a8e2-0000-7000-8000-${(++this.#ids).toString().padStart(12, "0")}`;
  now = () => new Date((this.#clock += 1_000)).toISOString();

  /** Every transaction of every payment, with its payment's id. */
  transactions(): { paymentId: string; state: PaymentState; transaction: TransactionState }[] {
    return [...this.#states].flatMap(([paymentId, state]) => [...state.transactions.values()].map((transaction) => ({ paymentId, state, transaction })));
  }

  pickOf<T>(candidates: T[], index: number): T | undefined {
    return candidates.length === 0 ? undefined : candidates[index % candidates.length];
  }

  /** Decides the command on the payment's state and posts what it records; a refusal records nothing. */
  decide(paymentId: string, command: PaymentCommand): boolean {
    const decision = paymentDecider.decide(command, this.#states.get(paymentId) ?? initialState());
    if (!decision.ok) return false;
    for (const event of decision.events) this.#post(paymentId, event);
    return true;
  }

  /** The outcome the processor gives a transaction just initiated (pending: none yet). */
  answer(paymentId: string, transactionId: string, outcome: Outcome) {
    const now = this.now();
    const releaseTransactionId = this.newId();
    switch (outcome) {
      case "approved":
        return this.decide(paymentId, { type: "RecordOutcome", transactionId, outcome: { status: "approved", processorResponse: approvedResponse }, releaseTransactionId, now });
      case "declined":
        return this.decide(paymentId, decline(transactionId, "card_declined", now));
      case "failed":
        return this.decide(paymentId, fail(transactionId, "processor_error", now));
      case "not_found":
        return this.decide(paymentId, fail(transactionId, "not_found", now));
      case "pending":
        return true;
    }
  }

  /** A batch of the currency: every settleable transaction the processor settles (one perhaps left out), then its close. */
  settle(currency: string, leaveOut: boolean, processorOff: number) {
    const candidates = this.transactions().filter(({ state, transaction }) => transaction.currency === currency && settleable(state, transaction));
    if (candidates.length === 0) return;
    const settlementId = this.newId();
    const settledFundsBefore = this.#balances()[currency]?.settled_funds ?? 0;
    const items: SettledItem[] = [];
    const disputed: SettledItem[] = [];
    for (const [index, { paymentId, transaction }] of candidates.entries()) {
      const item = { type: transaction.type as SettledItem["type"], currency, amount: transaction.amount };
      if (leaveOut && index === 0) {
        disputed.push(item);
        continue;
      }
      this.decide(paymentId, { type: "SettleTransaction", transactionId: transaction.id, settlementId, now: this.now() });
      items.push(item);
    }
    const totals = totalsOf([...items, ...disputed]);
    const processorTotals = totalsOf(items).map((total) => ({ ...total, salesAmount: total.salesAmount + processorOff, netAmount: total.netAmount + processorOff }));
    const status = JSON.stringify(totals) === JSON.stringify(processorTotals) ? "matched" : "mismatched";
    const close: SettlementClosedV2 = {
      type: "SettlementClosed.v2",
      data: { settlementId, clientId, processor: "processor_a", hostConfigurationId, cutoff: this.now(), transactionCount: items.length, totals, processorTotals, status, occurredAt: this.now() },
    };
    const settledNet = totalsOf(items)[0]?.netAmount ?? 0;
    const processorNet = processorTotals[0]?.netAmount ?? 0;
    this.#differences.set(currency, (this.#differences.get(currency) ?? 0) + processorNet - settledNet);
    this.#check(this.journal.close(close), close.data.occurredAt);
    if (status === "matched") {
      // A matched batch grows settled funds by its net, and its transactions no longer count in the receivable (checked with the rest).
      expect((this.#balances()[currency]?.settled_funds ?? 0) - settledFundsBefore).toBe(totals[0]!.netAmount);
    }
  }

  #post(paymentId: string, event: PaymentEvent) {
    this.#states.set(paymentId, evolve(this.#states.get(paymentId) ?? initialState(), event));
    const entry = this.journal.payment(paymentId, event);
    this.#check(entry ? [entry] : [], event.data.occurredAt);
  }

  #balances(): Balances {
    const balances: Balances = {};
    for (const { account, currency, balance } of balancesOf(this.journal.entries.flatMap((entry) => entry.lines.map((line) => ({ ...line, clientId: entry.clientId }))))) {
      (balances[currency] ??= {})[account] = balance;
    }
    return balances;
  }

  /** Every invariant, after an event that posted `posted`. */
  #check(posted: readonly JournalEntry[], at: string) {
    for (const entry of posted) {
      expect(debitsOf(entry.lines)).toBe(creditsOf(entry.lines));
      expect(entry.lines.every((line) => line.currency === entry.currency && (line.debit === 0) !== (line.credit === 0))).toBe(true);
    }
    const lines = this.journal.entries.flatMap((entry) => entry.lines.map((line) => ({ ...line, clientId: entry.clientId })));
    for (const currency of trialBalanceOf(balancesOf(lines))) expect(currency.debit).toBe(currency.credit);
    const balances = this.#balances();
    const model = this.#model();
    for (const currency of currencies) {
      const journal = balances[currency] ?? {};
      const expected = model[currency]!;
      expect({
        processor_receivable: journal.processor_receivable ?? 0,
        sales: journal.sales ?? 0,
        refunds: journal.refunds ?? 0,
        settled_funds: journal.settled_funds ?? 0,
        settlement_differences: journal.settlement_differences ?? 0,
        holds: journal.holds ?? 0,
        holds_offset: journal.holds_offset ?? 0,
      }).toEqual(expected);
    }
    this.snapshots.push({ at, balances });
  }

  /** What each account must hold, from the payments' states: the API's definitions, read off the transactions one by one. */
  #model() {
    const model = Object.fromEntries(
      currencies.map((currency) => [currency, { processor_receivable: 0, sales: 0, refunds: 0, settled_funds: this.#differences.get(currency) ?? 0, settlement_differences: this.#differences.get(currency) ?? 0, holds: 0, holds_offset: 0 }]),
    );
    for (const { state, transaction } of this.transactions()) {
      const account = model[transaction.currency]!;
      const approved = transaction.status === "approved";
      // Money the processor took although the ledger recorded it failed (or was reversing it): owed until reversed.
      const takenLate = !approved && transaction.approvedLate !== null && !transaction.reversed;
      const settled = approved && transaction.settledAt !== null;
      switch (transaction.type) {
        case "authorization": {
          const held = approved ? heldAmount(state, transaction.id) : takenLate ? transaction.amount : 0;
          account.holds += held;
          account.holds_offset += held;
          break;
        }
        case "sale":
        case "capture":
          if ((approved && !transaction.voided) || takenLate) {
            account.sales += transaction.amount;
            if (settled) account.settled_funds += transaction.amount;
            else account.processor_receivable += transaction.amount;
          }
          break;
        case "refund":
          if (approved || takenLate) {
            account.refunds += transaction.amount;
            if (settled) account.settled_funds -= transaction.amount;
            else account.processor_receivable -= transaction.amount;
          }
          break;
        case "void":
          break;
      }
    }
    return model;
  }
}

function play(history: History, action: Action) {
  const all = history.transactions();
  const of = (...types: string[]) => all.filter(({ transaction }) => types.includes(transaction.type) && transaction.status === "approved");
  switch (action.kind) {
    case "root": {
      const id = history.newId();
      const command = authorize(id, action.amount, { currency: currencies[action.currency]!, now: history.now(), ...(action.sale && { transactionType: "sale" as const }) });
      if (history.decide(id, command)) history.answer(id, id, action.outcome);
      return;
    }
    case "capture": {
      const target = history.pickOf(of("authorization"), action.pick);
      if (!target) return;
      const amount = Math.max(1, Math.floor((capturableAmount(target.state, target.transaction.id) * action.share) / 100));
      const id = history.newId();
      if (history.decide(target.paymentId, capture(id, target.transaction.id, amount, { final: action.final, now: history.now() }))) history.answer(target.paymentId, id, action.outcome);
      return;
    }
    case "refund": {
      const target = history.pickOf(of("sale", "capture"), action.pick);
      if (!target) return;
      const amount = Math.max(1, Math.floor((refundableAmount(target.state, target.transaction.id) * action.share) / 100));
      const id = history.newId();
      if (history.decide(target.paymentId, refund(id, target.transaction.id, amount, { now: history.now() }))) history.answer(target.paymentId, id, action.outcome);
      return;
    }
    case "void": {
      const target = history.pickOf(of("authorization", "sale", "capture"), action.pick);
      if (!target) return;
      const id = history.newId();
      if (history.decide(target.paymentId, voidOf(id, target.transaction.id, { now: history.now() }))) history.answer(target.paymentId, id, action.outcome);
      return;
    }
    case "expire": {
      const target = history.pickOf(of("authorization"), action.pick);
      if (!target) return;
      const id = history.newId();
      if (history.decide(target.paymentId, { type: "ExpireAuthorization", transactionId: target.transaction.id, voidTransactionId: id, hostConfigurationVersion: 1, now: history.now() })) {
        history.answer(target.paymentId, id, action.outcome);
      }
      return;
    }
    case "resolve": {
      const target = history.pickOf(all.filter(({ transaction }) => transaction.status === "pending"), action.pick);
      if (target) history.answer(target.paymentId, target.transaction.id, action.outcome);
      return;
    }
    case "approveLate": {
      const target = history.pickOf(all.filter(({ transaction }) => transaction.status === "failed" || transaction.reversalId !== null), action.pick);
      if (target) history.answer(target.paymentId, target.transaction.id, "approved");
      return;
    }
    case "reverse": {
      const target = history.pickOf(all.filter(({ transaction }) => transaction.status === "pending" || transaction.approvedLate !== null), action.pick);
      if (!target) return;
      const reversalId = history.newId();
      history.decide(target.paymentId, requestReversal(target.transaction.id, reversalId, history.now()));
      const open = history.transactions().find(({ transaction }) => transaction.id === target.transaction.id)!.transaction.reversalId;
      if (open) history.decide(target.paymentId, recordReversal(target.transaction.id, action.reversed ? "reversed" : "refused", open, history.now()));
      return;
    }
    case "settle":
      history.settle(currencies[action.currency]!, action.leaveOut, action.processorOff);
      return;
  }
}

describe("the journal's invariants over random histories", () => {
  it("hold after every event: balanced entries and trial balance, receivable, settled funds, holds; asOf folds exactly the balances of that moment", () => {
    fc.assert(
      fc.property(fc.array(actionArbitrary, { minLength: 10, maxLength: 60, size: "max" }), fc.nat(), (actions, moment) => {
        const history = new History();
        for (const action of actions) play(history, action);
        const snapshot = history.pickOf(history.snapshots, moment);
        if (!snapshot) return;
        const upTo = history.journal.entries.filter((entry) => entry.occurredAt <= snapshot.at);
        const asOf: Balances = {};
        for (const { account, currency, balance } of balancesOf(upTo.flatMap((entry) => entry.lines.map((line) => ({ ...line, clientId: entry.clientId }))))) {
          (asOf[currency] ??= {})[account] = balance;
        }
        expect(asOf).toEqual(snapshot.balances);
      }),
      { numRuns: 300 },
    );
  });
});
