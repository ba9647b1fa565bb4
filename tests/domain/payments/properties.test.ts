import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import {
  capturableAmount,
  decide,
  evolve,
  type FlatTransaction,
  flatTransaction,
  initialState,
  type PaymentCommand,
  paymentDecider,
  type PaymentEvent,
  type PaymentFailure,
  type PaymentState,
  refundableAmount,
  type TransactionType,
} from "../../../src/domain/payments/index.ts";
import { fromStored, type StoredPaymentState, toStored } from "../../../src/domain/payments/stored-state.ts";
import { approve, authorize, capture, decline, fail, refund, sell, voidOf } from "./fixtures.ts";

/**
 * A step picks its target by index among the payment's transactions, so any of them can be hit
 * (most rejections come from there). Most follow-ups go to an approved transaction and most
 * outcomes to a pending one, so that payments get far enough for the amount rules to matter.
 */
type Step =
  | { kind: "capture" | "refund" | "void"; pick: number; usual: boolean; amount: number | undefined }
  | { kind: "outcome"; pick: number; usual: boolean; outcome: Outcome };
type Outcome = "approved" | "declined" | "failed";

const usually = fc.constantFrom(true, true, true, false);
// Small amounts against a root of at most 1000, so sums often reach and cross the limits; -1 and 0 are invalid.
const amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1, max: 1200 }) },
);
const outcome = fc.constantFrom<Outcome>("approved", "approved", "approved", "approved", "declined", "failed");

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constantFrom("capture" as const, "refund" as const),
      pick: fc.nat(),
      usual: usually,
      amount,
    }),
  },
  // A void ends what it targets, so it comes rarely enough for payments to get somewhere first.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("void" as const), pick: fc.nat(), usual: usually, amount }) },
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant("outcome" as const), pick: fc.nat(), usual: usually, outcome }),
  },
);

const scenarioArbitrary = fc.record({
  root: fc.constantFrom("authorization" as const, "sale" as const),
  rootAmount: fc.integer({ min: 1, max: 1000 }),
  steps: fc.array(step, { minLength: 5, maxLength: 60, size: "max" }),
});
type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

function commandFor(s: Step, state: PaymentState, index: number): PaymentCommand {
  const all = [...state.transactions.values()];
  const preferred = all.filter((t) => t.status === (s.kind === "outcome" ? "pending" : "approved"));
  const candidates = s.usual && preferred.length > 0 ? preferred : all;
  const target = candidates[s.pick % candidates.length]?.id ?? "missing";
  const id = `t${index}`;
  switch (s.kind) {
    case "capture":
      return capture(id, target, s.amount);
    case "refund":
      return refund(id, target, s.amount);
    case "void":
      return voidOf(id, target);
    case "outcome":
      if (s.outcome === "approved") return approve(target);
      return s.outcome === "declined" ? decline(target) : fail(target);
  }
}

const failures: PaymentFailure[] = [
  "already_exists",
  "not_found",
  "invalid_transaction_state",
  "amount_exceeds_capturable",
  "amount_exceeds_refundable",
  "validation_error",
];

/** Runs every command; returns the accepted events and the state after each of them. */
function play({ root, rootAmount, steps }: Scenario) {
  const log: PaymentEvent[] = [];
  const states: PaymentState[] = [initialState()];
  const run = (command: PaymentCommand) => {
    const current = states.at(-1) ?? initialState();
    const decision = decide(command, current);
    if (!decision.ok) {
      expect(failures).toContain(decision.error);
      return;
    }
    let state = current;
    for (const event of decision.events) {
      state = evolve(state, event);
      log.push(event);
      states.push(state);
    }
  };
  run(root === "authorization" ? authorize("root", rootAmount) : sell("root", rootAmount));
  steps.forEach((s, index) => run(commandFor(s, states.at(-1) ?? initialState(), index)));
  return { log, states, final: states.at(-1) ?? initialState() };
}

/** The payment's transactions with every status's fields ("none" where a status has no such field). */
const flat = (state: PaymentState) => [...state.transactions.values()].map(flatTransaction);
const children = (state: PaymentState, parentId: string, type: TransactionType) =>
  flat(state).filter((t) => t.parentTransactionId === parentId && t.type === type);
const total = (transactions: readonly FlatTransaction[]) => transactions.reduce((sum, t) => sum + t.amount, 0);
const approved = (transactions: readonly FlatTransaction[]) => transactions.filter((t) => t.status === "approved");
const open = (transactions: readonly FlatTransaction[]) =>
  transactions.filter((t) => t.status === "approved" || t.status === "pending");
const notVoided = (transactions: readonly FlatTransaction[]) => transactions.filter((t) => !t.voided);
const ofType = (state: PaymentState, ...types: TransactionType[]) => flat(state).filter((t) => types.includes(t.type));

/** Checks an invariant on the state after every accepted event of any scenario. */
const holdsAfterEveryEvent = (invariant: (state: PaymentState) => void) =>
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      for (const state of play(scenario).states) invariant(state);
    }),
    { numRuns: 300 },
  );

describe("payment money rules, for any sequence of commands", () => {
  it("approved captures that are not voided never exceed the authorized amount, and are what it shows captured", () => {
    holdsAfterEveryEvent((state) => {
      for (const authorization of ofType(state, "authorization")) {
        const captured = total(notVoided(approved(children(state, authorization.id, "capture"))));
        expect(captured).toBeLessThanOrEqual(authorization.amount);
        expect(authorization.capturedAmount).toBe(captured);
      }
    });
  });

  it("approved and pending captures that are not voided never exceed the authorized amount", () => {
    holdsAfterEveryEvent((state) => {
      for (const authorization of ofType(state, "authorization")) {
        const holding = notVoided(open(children(state, authorization.id, "capture")));
        expect(total(holding)).toBeLessThanOrEqual(authorization.amount);
        if (authorization.status === "approved" && open(children(state, authorization.id, "void")).length === 0) {
          expect(capturableAmount(state, authorization.id)).toBe(authorization.amount - total(holding));
        }
      }
    });
  });

  it("a voided capture or sale is not refundable", () => {
    holdsAfterEveryEvent((state) => {
      for (const t of ofType(state, "sale", "capture")) if (t.voided) expect(refundableAmount(state, t.id)).toBe(0);
    });
  });

  it("approved refunds never exceed what was captured or sold", () => {
    holdsAfterEveryEvent((state) => {
      for (const parent of ofType(state, "sale", "capture")) {
        const refunded = total(approved(children(state, parent.id, "refund")));
        expect(refunded).toBeLessThanOrEqual(parent.status === "approved" ? parent.amount : 0);
        expect(total(open(children(state, parent.id, "refund")))).toBeLessThanOrEqual(parent.amount);
        expect(parent.refundedAmount).toBe(refunded);
      }
    });
  });

  it("a voided transaction has nothing refunded, a voided authorization's void released no more than its captures left, and one approved void at most", () => {
    holdsAfterEveryEvent((state) => {
      for (const t of flat(state)) {
        const voids = approved(children(state, t.id, "void"));
        expect(voids.length).toBeLessThanOrEqual(1);
        if (!t.voided) continue;
        expect(open(children(state, t.id, "refund"))).toEqual([]);
        expect(total(notVoided(open(children(state, t.id, "capture")))) + total(voids)).toBeLessThanOrEqual(t.amount);
      }
    });
  });

  it("no transaction's status changes once approved, declined or failed", () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const { states } = play(scenario);
        states.slice(1).forEach((after, i) => {
          const before = states[i] ?? initialState();
          for (const [id, previous] of before.transactions) {
            const next = after.transactions.get(id);
            if (previous.status === "pending") continue;
            const [was, now] = [flatTransaction(previous), next && flatTransaction(next)];
            expect(now?.status).toBe(was.status);
            expect(now?.declineCode).toBe(was.declineCode);
            expect(now?.failureReason).toBe(was.failureReason);
            expect(now?.processorResponse).toEqual(was.processorResponse);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("replaying the events from scratch gives the state folded along the way", () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const { log, final } = play(scenario);
        expect(fold(paymentDecider, log)).toEqual(final);
      }),
      { numRuns: 300 },
    );
  });

  it("the read model's flat stored form reads back as the state folded, after every event", () => {
    holdsAfterEveryEvent((state) => {
      expect(fromStored(JSON.parse(JSON.stringify(toStored(state))) as StoredPaymentState)).toEqual(state);
    });
  });

  it("the scenarios reach the interesting cases, so the properties above are not vacuous", () => {
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    for (const scenario of fc.sample(scenarioArbitrary, { numRuns: 300, seed: 42 })) {
      const { final } = play(scenario);
      for (const t of flat(final)) {
        if (t.status === "approved") count(`approved ${t.type}`);
        if (t.voided) count(`voided ${t.type}`);
      }
      for (const authorization of ofType(final, "authorization")) {
        if (approved(children(final, authorization.id, "capture")).length > 1) count("several captures");
        if (authorization.capturedAmount === authorization.amount) count("fully captured");
      }
      for (const parent of ofType(final, "sale", "capture")) {
        if (parent.refundedAmount > 0 && parent.refundedAmount === parent.amount) count("fully refunded");
      }
    }
    for (const key of [
      "approved capture",
      "approved refund",
      "approved void",
      "voided authorization",
      "voided sale",
      "voided capture",
      "several captures",
      "fully captured",
      "fully refunded",
    ]) {
      expect(seen.get(key) ?? 0, key).toBeGreaterThan(5);
    }
  });
});
