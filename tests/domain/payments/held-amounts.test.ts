import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { heldAmount } from "../../../src/domain/payments/amounts.ts";
import {
  decide,
  evolve,
  initialState,
  type Outcome,
  type PaymentCommand,
  type PaymentState,
} from "../../../src/domain/payments/index.ts";
import { openLedger } from "../../../src/processors/simulator/ledger.ts";
import type { Ledger, SimulatedAnswer } from "../../../src/processors/simulator/ledger.ts";
import { at, authorize, capture, voidOf } from "./fixtures.ts";

/**
 * The ledger and the processor agree on what an authorization still holds, over any sequence of
 * captures, final captures, voids of the rest and of captures, with answers lost and learned later
 * by inquiry: the ledger's held amount (authorized − captured − released) equals the simulator's,
 * and neither is ever negative.
 */

const steps = (drops: boolean) =>
  fc.oneof(
    fc.record({
      kind: fc.constant("capture" as const),
      amount: fc.option(fc.integer({ min: 1, max: 1200 }), { nil: undefined }),
      final: fc.boolean(),
      lose: fc.boolean(),
      // The request never reaches the processor: the resolver hears "not found" and records it failed.
      drop: drops ? fc.boolean() : fc.constant(false),
    }),
    fc.record({ kind: fc.constant("void" as const), lose: fc.boolean() }),
    fc.record({ kind: fc.constant("voidCapture" as const), pick: fc.nat(), lose: fc.boolean() }),
    // The service's own release of the rest once the authorization's time is up.
    fc.record({ kind: fc.constant("expire" as const), lose: fc.boolean() }),
    fc.record({ kind: fc.constant("resolve" as const) }),
  );
const step = steps(false);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** One payment driven as the service drives it: intent, processor call, outcome (unless the answer is lost). */
class Payment {
  state: PaymentState = initialState();
  #ids = 0;

  constructor(private readonly simulator: Ledger) {}

  run(command: PaymentCommand): boolean {
    const decision = decide(command, this.state);
    if (!decision.ok) return false;
    this.state = decision.events.reduce(evolve, this.state);
    return true;
  }

  async send(transactionId: string, lose: boolean): Promise<void> {
    const transaction = this.state.transactions.get(transactionId);
    if (!transaction) throw new Error(`no ${transactionId}`);
    const { answer } = await this.simulator.process({
      processor: "processor_a",
      operation: transaction.type,
      transactionId,
      ...(transaction.parentTransactionId === null ? { cardNumber: "4242424242424242" } : { parentIds: [transaction.parentTransactionId] }),
      amount: transaction.amount,
      currency: "USD",
      merchantId: "m",
      terminalId: "t",
    });
    if (!lose) await this.record(transactionId, answer);
  }

  /** Records the answer; a final capture's release is then sent, as the service does. */
  async record(transactionId: string, answer: SimulatedAnswer): Promise<void> {
    const outcome: Outcome =
      answer.code === "00"
        ? { status: "approved", processorResponse: answer }
        : { status: "failed", reason: "processor_error", processorResponse: { ...answer, authorizationCode: null } };
    const releaseTransactionId = this.newId("release");
    this.run({ type: "RecordOutcome", transactionId, outcome, releaseTransactionId, now: at(1) });
    if (this.state.transactions.get(releaseTransactionId)?.status === "pending") await this.send(releaseTransactionId, false);
  }

  /** The resolver: asks the processor about every pending transaction and records its answer ("not found": failed). */
  async resolve(): Promise<void> {
    for (const transaction of [...this.state.transactions.values()].filter((t) => t.status === "pending")) {
      const answer = await this.simulator.inquire("processor_a", transaction.id);
      if (answer) await this.record(transaction.id, answer);
      else this.run({ type: "RecordOutcome", transactionId: transaction.id, outcome: { status: "failed", reason: "not_found", processorResponse: null }, now: at(1) });
    }
  }

  newId(kind: string): string {
    return `${kind}-${++this.#ids}`;
  }

  get settled(): boolean {
    return [...this.state.transactions.values()].every((t) => t.status !== "pending");
  }
}

async function play(authorized: number, played: Step[], check: (payment: Payment, simulator: Ledger) => void) {
  const simulator = await openLedger(undefined);
  const payment = new Payment(simulator);
  payment.run(authorize("auth", authorized));
  await payment.send("auth", false);
  for (const s of played) {
    if (s.kind === "resolve") {
      await payment.resolve();
    } else if (s.kind === "capture") {
      const id = payment.newId("capture");
      if (payment.run(capture(id, "auth", s.amount, { final: s.final })) && !s.drop) await payment.send(id, s.lose);
    } else if (s.kind === "expire") {
      const id = payment.newId("void");
      const expiry = { type: "ExpireAuthorization", transactionId: "auth", voidTransactionId: id, hostConfigurationVersion: 1, now: at(2) } as const;
      if (payment.run(expiry)) await payment.send(id, s.lose);
    } else if (s.kind === "void") {
      const id = payment.newId("void");
      if (payment.run(voidOf(id, "auth"))) await payment.send(id, s.lose);
    } else {
      const captures = [...payment.state.transactions.values()].filter((t) => t.type === "capture");
      const target = captures[s.pick % Math.max(1, captures.length)];
      const id = payment.newId("void");
      if (target && payment.run(voidOf(id, target.id))) await payment.send(id, s.lose);
    }
    check(payment, simulator);
  }
  await payment.resolve();
  expect(payment.settled).toBe(true);
  check(payment, simulator);
  await simulator.close();
}

const heldAtProcessor = (simulator: Ledger) => simulator.transactions().find((t) => t.transactionId === "auth")?.heldAmount;

describe("what an authorization holds, for any sequence of captures, final captures and voids", () => {
  it("is the same in the ledger and at the processor once every answer is known, and never negative", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.array(steps(true), { maxLength: 14 }), async (authorized, played) => {
        await play(authorized, played, (payment, simulator) => {
          const ledgerHeld = heldAmount(payment.state, "auth");
          const processorHeld = heldAtProcessor(simulator) ?? -1;
          expect(ledgerHeld).toBeGreaterThanOrEqual(0);
          expect(processorHeld).toBeGreaterThanOrEqual(0);
          if (payment.settled) expect(ledgerHeld).toBe(processorHeld);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("approves every capture and release the ledger sends: the ledger never asks for more than is held", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.array(step, { maxLength: 14 }), async (authorized, played) => {
        await play(authorized, played, (payment) => {
          for (const t of payment.state.transactions.values()) expect(t.status).not.toBe("failed");
        });
      }),
      { numRuns: 200 },
    );
  });

  it("a final capture ends the authorization: the release initiated with its approval lets go of the rest", async () => {
    await play(1000, [{ kind: "capture", amount: 300, final: true, lose: true, drop: false }, { kind: "resolve" }], (payment, simulator) => {
      if (!payment.settled) return;
      expect(payment.state.transactions.get("auth")).toMatchObject({ voided: true, capturedAmount: 300 });
      expect(heldAtProcessor(simulator)).toBe(0);
    });
  });
});
