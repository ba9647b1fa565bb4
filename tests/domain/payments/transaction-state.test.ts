import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import {
  evolve,
  flatTransaction,
  initialState,
  paymentDecider,
  type PaymentEvent,
  type PaymentState,
  stateOf,
  type TransactionStateName,
  type TransactionType,
  toTransactionView,
} from "../../../src/domain/payments/index.ts";
import { paymentMessages } from "../../../src/domain/webhooks/messages.ts";
import { approved, at, declined, failed, initiated } from "./fixtures.ts";

/**
 * Payments built event by event straight into the fold (not through `decide`), so every shape the
 * log can hold is reached, the release of an authorization's rest among them: a void of an
 * authorization with captures, approved. Each step picks its target by index among the payment's
 * transactions.
 */
type Step =
  | { kind: "capture" | "refund" | "void"; pick: number; amount: number }
  | { kind: "outcome"; pick: number; outcome: "approved" | "declined" | "failed" }
  | { kind: "expire" | "settle"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constantFrom("capture" as const, "refund" as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 600 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("void" as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 600 }) }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("outcome" as const), pick: fc.nat(), outcome: fc.constantFrom("approved" as const, "approved" as const, "approved" as const, "declined" as const, "failed" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("expire" as const, "settle" as const), pick: fc.nat() }) },
);

const scenario = fc.record({
  root: fc.constantFrom("authorization" as const, "sale" as const),
  rootAmount: fc.integer({ min: 1, max: 1000 }),
  steps: fc.array(step, { minLength: 5, maxLength: 50 }),
});

/** Which parents each follow-up may target. */
const targets: Record<"capture" | "refund" | "void", readonly TransactionType[]> = {
  capture: ["authorization"],
  refund: ["sale", "capture"],
  void: ["authorization", "sale", "capture"],
};

/** The step's events for the payment as it stands (none when nothing fits it). */
function eventsOf(s: Step, state: PaymentState, index: number): PaymentEvent[] {
  const all = [...state.transactions.values()];
  const pickOf = <T>(candidates: T[]) => candidates[s.pick % candidates.length];
  const id = `t${index}`;
  switch (s.kind) {
    case "capture":
    case "refund":
    case "void": {
      const types = targets[s.kind];
      // A parent takes follow-ups once approved, and one void at most (as `decide` keeps it).
      const parent = pickOf(all.filter((t) => t.status === "approved" && types.includes(t.type) && !hasOpenVoid(state, t.id)));
      return parent ? [initiated(id, s.kind, s.amount, parent.id, { occurredAt: at(index) })] : [];
    }
    case "outcome": {
      const pending = pickOf(all.filter((t) => t.status === "pending"));
      if (!pending) return [];
      if (s.outcome === "approved") return [approved(pending.id, at(index))];
      return [s.outcome === "declined" ? declined(pending.id, "card_declined", at(index)) : failed(pending.id, "processor_error", at(index))];
    }
    case "expire": {
      const authorization = pickOf(
        all.filter((t) => t.type === "authorization" && t.status === "approved" && t.expiredAt === null && !hasOpenVoid(state, t.id)),
      );
      if (authorization?.status !== "approved") return [];
      const rest = Math.max(1, authorization.amount - authorization.capturedAmount);
      return [
        { type: "AuthorizationExpired.v1", data: { transactionId: authorization.id, voidTransactionId: id, occurredAt: at(index) } },
        initiated(id, "void", rest, authorization.id, { occurredAt: at(index) }),
      ];
    }
    case "settle": {
      const settleable = pickOf(all.filter((t) => t.type !== "authorization" && t.type !== "void" && t.status === "approved" && t.settledAt === null));
      return settleable ? [{ type: "TransactionSettled.v1", data: { transactionId: settleable.id, settlementId: "batch-1", occurredAt: at(index) } }] : [];
    }
  }
}

const hasOpenVoid = (state: PaymentState, id: string) =>
  [...state.transactions.values()].some((t) => t.type === "void" && t.parentTransactionId === id && t.status !== "declined" && t.status !== "failed");

/**
 * The state a transaction should have, from the log alone (not the fold's amounts): what its
 * approved captures not voided, approved refunds, approved voids and expiry add up to.
 */
function expectedState(events: readonly PaymentEvent[], id: string): TransactionStateName | undefined {
  const initiatedOf = new Map<string, { type: TransactionType; amount: number; parent: string | null }>();
  const outcome = new Map<string, "approved" | "declined" | "failed">();
  let expired = false;
  for (const event of events) {
    if (event.type === "TransactionInitiated.v1") {
      const { transactionId, type, amount, parentTransactionId } = event.data;
      initiatedOf.set(transactionId, { type, amount, parent: parentTransactionId });
    }
    const first = !outcome.has(event.data.transactionId);
    if (event.type === "TransactionApproved.v1" && first) outcome.set(event.data.transactionId, "approved");
    if (event.type === "TransactionDeclined.v1" && first) outcome.set(event.data.transactionId, "declined");
    if (event.type === "TransactionFailed.v1" && first) outcome.set(event.data.transactionId, "failed");
    if (event.type === "AuthorizationExpired.v1" && event.data.transactionId === id) expired = true;
  }
  const transaction = initiatedOf.get(id);
  if (!transaction) return undefined;
  const status = outcome.get(id) ?? "pending";
  if (status !== "approved") return status;
  const approvedChildren = (parent: string, type: TransactionType) =>
    [...initiatedOf].filter(([child, t]) => t.parent === parent && t.type === type && outcome.get(child) === "approved");
  const voided = (target: string) => approvedChildren(target, "void").length > 0;
  const sum = (children: ReturnType<typeof approvedChildren>) => children.reduce((total, [, t]) => total + t.amount, 0);
  switch (transaction.type) {
    case "authorization": {
      const captured = sum(approvedChildren(id, "capture").filter(([capture]) => !voided(capture)));
      const released = voided(id) || expired;
      if (captured === 0) return expired ? "expired" : voided(id) ? "voided" : "authorized";
      return captured >= transaction.amount || released ? "captured" : "partially_captured";
    }
    case "sale":
    case "capture": {
      if (voided(id)) return "voided";
      const refunded = sum(approvedChildren(id, "refund"));
      return refunded >= transaction.amount ? "refunded" : refunded > 0 ? "partially_refunded" : "succeeded";
    }
    case "refund":
    case "void":
      return "succeeded";
  }
}

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function play({ root, rootAmount, steps }: Scenario) {
  const events: PaymentEvent[] = [initiated("root", root, rootAmount)];
  let state = evolve(initialState(), events[0]!);
  const folds: Array<{ before: PaymentState; after: PaymentState }> = [];
  steps.forEach((s, index) => {
    for (const event of eventsOf(s, state, index + 1)) {
      events.push(event);
      const before = state;
      state = evolve(state, event);
      folds.push({ before, after: state });
    }
  });
  return { events, state, folds };
}

describe("a transaction's state", () => {
  it("agrees with what the log's approved captures, refunds, voids and expiry add up to, for every transaction of any payment", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { events, state } = play(s);
        for (const id of state.transactions.keys()) {
          const view = toTransactionView(state, id)!;
          expect(view.state, `${view.type} ${id}`).toBe(expectedState(events, id));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("changing, or a settlement, is `transaction.updated` for the transaction that changed, carrying its new state", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        for (const { before, after } of play(s).folds) {
          const updated = paymentMessages(before, after).filter((message) => message.type === "transaction.updated");
          const expected = [...after.transactions.values()].filter((t) => {
            const previous = before.transactions.get(t.id);
            return previous?.status === t.status && (stateOf(previous) !== stateOf(t) || flatTransaction(previous).settledAt !== flatTransaction(t).settledAt);
          });
          expect(updated.map((message) => message.subjectId)).toEqual(expected.map((t) => t.id));
          for (const message of updated) {
            expect("transaction" in message.data && message.data.transaction.state).toBe(stateOf(after.transactions.get(message.subjectId)!));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  const authorization = [initiated("auth", "authorization", 1000), approved("auth")];
  const capturedPart = [...authorization, initiated("cap", "capture", 600, "auth"), approved("cap", at(2))];

  it.each<[string, PaymentEvent[], TransactionStateName]>([
    ["approved", authorization, "authorized"],
    ["partly captured", capturedPart, "partially_captured"],
    ["captured whole", [...authorization, initiated("cap", "capture", 1000, "auth"), approved("cap", at(2))], "captured"],
    // The release (a void of the rest, or a final capture's release): the captures stay, nothing is held.
    ["released after a capture", [...capturedPart, initiated("rel", "void", 400, "auth"), approved("rel", at(3))], "captured"],
    ["with its release still pending", [...capturedPart, initiated("rel", "void", 400, "auth")], "partially_captured"],
    ["voided", [...authorization, initiated("v", "void", 1000, "auth"), approved("v", at(3))], "voided"],
    [
      "expired, its rest voided",
      [
        ...authorization,
        { type: "AuthorizationExpired.v1", data: { transactionId: "auth", voidTransactionId: "v", occurredAt: at(5) } },
        initiated("v", "void", 1000, "auth"),
        approved("v", at(6)),
      ],
      "expired",
    ],
    ["its only capture voided", [...capturedPart, initiated("v", "void", 600, "cap"), approved("v", at(3))], "authorized"],
  ])("an authorization %s is %s", (_, events, expected) => {
    const view = toTransactionView(fold(paymentDecider, events), "auth")!;
    expect(view.state).toBe(expected);
  });

  it("a release keeps the authorization's captured amount and marks it voided, and reads captured", () => {
    const view = toTransactionView(fold(paymentDecider, [...capturedPart, initiated("rel", "void", 400, "auth"), approved("rel", at(3))]), "auth")!;
    expect(view).toMatchObject({ status: "approved", capturedAmount: 600, voided: true, state: "captured" });
  });
});
