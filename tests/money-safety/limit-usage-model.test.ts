import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";

const TTL_SECONDS = 60;
/** The day every run falls on: its clock starts at noon and never reaches midnight. */
const NOON = Date.parse("2026-06-10T12:00:00Z");

/** What the processor simulator does with each card: approve, decline, fail, or answer only when asked later (reversed at once). */
const cards = {
  approved: "4242424242424242",
  declined: "4000000000000002",
  failed: "4000000000000119",
  answeredLater: "4000000000000408",
  reversed: "4000000000000424",
} as const;

type Step =
  | { kind: "capture"; share: number; final: boolean }
  | { kind: "voidRoot" }
  | { kind: "voidCapture"; index: number }
  | { kind: "refund"; index: number; share: number };

interface PaymentPlan {
  type: "sale" | "authorization";
  amount: number;
  card: keyof typeof cards;
  steps: Step[];
}

const share = fc.integer({ min: 1, max: 60 });
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("capture" as const), share, final: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "voidRoot" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("voidCapture" as const), index: fc.nat(1) }) },
  // index 0 refunds the sale (or the first capture); 1, the second capture.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("refund" as const), index: fc.nat(1), share }) },
);
const paymentArbitrary: fc.Arbitrary<PaymentPlan> = fc.record({
  type: fc.constantFrom("sale" as const, "authorization" as const),
  amount: fc.integer({ min: 100, max: 5_000 }),
  card: fc.constantFrom<keyof typeof cards>("approved", "approved", "approved", "declined", "failed", "answeredLater", "reversed"),
  steps: fc.array(stepArbitrary, { maxLength: 5 }),
});
const historyArbitrary = fc.record({ payments: fc.array(paymentArbitrary, { minLength: 1, maxLength: 3 }), expire: fc.boolean() });

interface View {
  id: string;
  type: string;
  status: "pending" | "approved" | "declined" | "failed";
  amount: number;
  /** An authorization's approved captures not voided. */
  capturedAmount: number;
  voided: boolean;
  parentTransactionId: string | null;
}

/**
 * The limit usage the API's contract gives for these transactions: each sale or authorization
 * counts, with its amount, while pending or approved; a voided sale counts nothing; an
 * authorization whose rest was released (voided, finally captured or expired) counts only its
 * captures that are approved and not voided, or pending; declined and failed ones count nothing.
 */
function modelUsage(transactions: readonly View[]): { usedAmount: number; usedCount: number } {
  const held = transactions
    .filter((root) => root.parentTransactionId === null)
    .map((root) => {
      if (root.status === "declined" || root.status === "failed") return 0;
      if (root.status === "pending" || !root.voided) return root.amount;
      if (root.type === "sale") return 0;
      return transactions
        .filter((capture) => capture.type === "capture" && capture.parentTransactionId === root.id)
        .filter((capture) => capture.status === "pending" || (capture.status === "approved" && !capture.voided))
        .reduce((total, capture) => total + capture.amount, 0);
    });
  return { usedAmount: held.reduce((total, amount) => total + amount, 0), usedCount: held.filter((amount) => amount > 0).length };
}

for (const target of testDatabaseTargets()) {
  describe(`daily limit usage equals the model's for random histories, on ${target}`, () => {
    let offset = 0;
    const started = Date.now();
    let api: TestService;

    beforeAll(async () => {
      api = await startTestService(
        target,
        {
          LIFECYCLE_CHECK_INTERVAL_MS: "50",
          AUTHORIZATION_TTL_SECONDS: String(TTL_SECONDS),
          PROCESSOR_TIMEOUT_MS: "300",
          PENDING_RESOLVER_INTERVAL_MS: "100",
          // An outcome still unknown is reversed at the resolver's first look (card `reversed`).
          PENDING_REVERSAL_AFTER_SECONDS: "0",
          // The sweeper would mend what a live give-back got wrong: this checks the live ones.
          LIMIT_SWEEP_INTERVAL_MS: "3600000",
        },
        { now: () => new Date(NOON + (Date.now() - started) + offset) },
      );
    });
    afterAll(() => api?.stop());

    async function newClient() {
      const client = await api.createClient();
      const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      expect(created.status).toBe(201);
      const limits = [{ currency: "USD", dailyAmount: 100_000_000, dailyCount: 1_000 }];
      expect((await api.request("PUT", `/v1/clients/${client.clientId}/limits`, { body: { limits } })).status).toBe(200);
      return client;
    }

    async function play(key: string, plan: PaymentPlan) {
      const post = async (path: string, body: object) => {
        const response = await api.request("POST", `/v1/transactions/${path}`, { key, body });
        expect([201, 402, 409, 422, 502, 504], response.text).toContain(response.status);
        return (response.body.transaction ?? response.body) as { id?: string; amount?: number };
      };
      const card = { number: cards[plan.card], expMonth: 12, expYear: 2030, cvc: "123" };
      const root = await post(plan.type, { processor: "processor_a", amount: plan.amount, currency: "USD", userId: "u1", card });
      if (!root.id) return;
      const captures: string[] = [];
      for (const step of plan.steps) {
        const amountOf = (whole: number, part: number) => Math.max(1, Math.floor((whole * part) / 100));
        if (step.kind === "capture") {
          const capture = await post("capture", { transactionId: root.id, amount: amountOf(plan.amount, step.share), final: step.final });
          if (capture.id) captures.push(capture.id);
        } else if (step.kind === "voidRoot") {
          await post("void", { transactionId: root.id });
        } else if (step.kind === "voidCapture") {
          const capture = captures[step.index];
          if (capture) await post("void", { transactionId: capture });
        } else {
          const target = plan.type === "sale" ? root.id : captures[step.index];
          if (target) await post("refund", { transactionId: target, amount: amountOf(plan.amount, step.share) });
        }
      }
    }

    const transactionsOf = async (key: string): Promise<View[]> => (await api.request("GET", "/v1/transactions?limit=100", { key })).body.data;

    it("sales, authorizations, captures partial and final, voids of each kind, refunds, expiry, declines, failures and reversals", async () => {
      await fc.assert(
        fc.asyncProperty(historyArbitrary, async ({ payments, expire }) => {
          const client = await newClient();
          for (const plan of payments) await play(client.key, plan);
          const settled = (open: (t: View) => boolean) =>
            vi.waitFor(async () => expect((await transactionsOf(client.key)).filter(open)).toEqual([]), { timeout: 15_000, interval: 50 });
          // Every outcome known; then, past their time, every authorization with something left to capture voided by its expiry.
          await settled((t) => t.status === "pending");
          if (expire) {
            offset += (TTL_SECONDS + 1) * 1000;
            await settled((t) => t.status === "pending" || (t.type === "authorization" && t.status === "approved" && !t.voided && t.capturedAmount < t.amount));
          }
          const expected = modelUsage(await transactionsOf(client.key));
          await vi.waitFor(
            async () => {
              const { usedAmount, usedCount } = (await api.request("GET", `/v1/clients/${client.clientId}`)).body.limits[0].today;
              expect({ usedAmount, usedCount }).toEqual(expected);
            },
            { timeout: 5_000, interval: 50 },
          );
        }),
        { numRuns: 25 },
      );
    }, 300_000);
  });
}
