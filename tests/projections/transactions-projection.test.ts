import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import type { PaymentCommand, PaymentEvent } from "../../src/domain/payments/index.ts";
import { transactionsProjection } from "../../src/projections/transactions/transactions-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, projectionSpec } from "../support/projection-spec.ts";
import { approve, approvedLate, at, authorize, capture, decidedAfter, fail, failed, initiated, sell } from "../domain/payments/fixtures.ts";

// The columns the jobs select on: `resolver_work` (the pending resolver), `awaiting_settlement`
// (settlement's candidates) and `capturable_since` (the authorization expiry), kept by the
// transactions projection as each payment moves on.

const hostConfigurationId = "0190a8e2-0000-7000-8000-0000000000c1";
const root = "0190a8e2-0000-7000-8000-000000000001";
const followUp = "0190a8e2-0000-7000-8000-000000000002";
const voidId = "0190a8e2-0000-7000-8000-000000000003";

type Work = { resolverWork: string | null; awaitingSettlement: boolean; capturableSince: string | null };

/** What the jobs see of each transaction, by id. */
async function jobsView(db: Kysely<Database>): Promise<Record<string, Work>> {
  const rows = await db.selectFrom("transactions").select(["transaction_id", "resolver_work", "awaiting_settlement", "capturable_since"]).execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.transaction_id,
      {
        resolverWork: row.resolver_work,
        awaitingSettlement: row.awaiting_settlement,
        capturableSince: row.capturable_since && new Date(row.capturable_since).toISOString(),
      },
    ]),
  );
}

const work = (resolverWork: string | null, awaitingSettlement: boolean, capturableSince: string | null = null): Work => ({
  resolverWork,
  awaitingSettlement,
  capturableSince,
});

for (const target of testDatabaseTargets()) {
  describe(`the transactions read model's columns for the jobs, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given, reset } = projectionSpec(transactionsProjection, () => database.db);
    // One database for the file, its tables emptied after each test.
    afterEach(reset);

    /** One payment's stream: commands decided on its events so far, or events recorded as they are. */
    function payment() {
      const record = eventLog();
      const history: PaymentEvent[] = [];
      const append = (events: PaymentEvent[]) => {
        history.push(...events);
        return record("payment-0190a8e2-0000-7000-8000-0000000000a1", events);
      };
      return {
        decide: (...commands: PaymentCommand[]) => append(decidedAfter(history, ...commands)),
        record: (...events: PaymentEvent[]) => append(events),
      };
    }

    it("a sale's intent is the resolver's to inquire about", async () => {
      const sale = payment();
      await given([]).when(sale.decide(sell(root, 1000, { hostConfigurationId }))).then(jobsView, { [root]: work("inquire", false) });
    });

    it("an approved sale awaits settlement, and no longer once settled", async () => {
      const sale = payment();
      const approved = sale.decide(sell(root, 1000, { hostConfigurationId }), approve(root));
      await given([]).when(approved).then(jobsView, { [root]: work(null, true) });
      const settled = sale.decide({ type: "SettleTransaction", transactionId: root, settlementId: voidId, now: at(5) });
      await given(approved).when(settled).then(jobsView, { [root]: work(null, false) });
    });

    it("an approved authorization is capturable from its approval, and stays so after a partial capture, which awaits settlement", async () => {
      const authorization = payment();
      const approved = authorization.decide(authorize(root, 1000, { hostConfigurationId }), approve(root, at(1)));
      const captured = authorization.decide(capture(followUp, root, 400), approve(followUp, at(2)));
      await given(approved)
        .when(captured)
        .then(jobsView, { [root]: work(null, false, at(1)), [followUp]: work(null, true) });
    });

    it("an authorization captured in full is capturable no more", async () => {
      const authorization = payment();
      const approved = authorization.decide(authorize(root, 1000, { hostConfigurationId }), approve(root, at(1)));
      const captured = authorization.decide(capture(followUp, root), approve(followUp, at(2)));
      await given(approved)
        .when(captured)
        .then(jobsView, { [root]: work(null, false), [followUp]: work(null, true) });
    });

    it("an expired authorization is capturable no more, and its void is the resolver's until answered", async () => {
      const authorization = payment();
      const approved = authorization.decide(authorize(root, 1000, { hostConfigurationId }), approve(root, at(1)));
      const expired = authorization.decide({ type: "ExpireAuthorization", transactionId: root, voidTransactionId: voidId, hostConfigurationVersion: 1, now: at(9) });
      await given(approved)
        .when(expired)
        .then(jobsView, { [root]: work(null, false), [voidId]: work("inquire", false) });
    });

    it("a sale failed as not found is watched until its failure is confirmed", async () => {
      const sale = payment();
      const notFound = sale.decide(sell(root, 1000, { hostConfigurationId }), fail(root, "not_found"));
      await given([]).when(notFound).then(jobsView, { [root]: work("watch", false) });
      const confirmed = sale.decide({ type: "ConfirmFailure", transactionId: root, now: at(30) });
      await given(notFound).when(confirmed).then(jobsView, { [root]: work(null, false) });
    });

    it("a failed sale approved late is the resolver's to reverse until it is reversed", async () => {
      const sale = payment();
      const late = sale.record(initiated(root, "sale", 1000, null, { hostConfigurationId }), failed(root, "processor_error"), approvedLate(root));
      await given([]).when(late).then(jobsView, { [root]: work("reverse", false) });
      const reversing = sale.decide({ type: "RequestReversal", transactionId: root, reversalId: "rev", now: at(3) });
      await given(late).when(reversing).then(jobsView, { [root]: work("reverse", false) });
      const reversed = sale.decide({
        type: "RecordReversal",
        transactionId: root,
        reversalId: "rev",
        result: { status: "reversed", processorResponse: { code: "00", message: "Approved", authorizationCode: "V1", reference: "void-ref" } },
        now: at(4),
      });
      await given([...late, ...reversing]).when(reversed).then(jobsView, { [root]: work(null, false) });
    });

    it("an event applied again, or an older one, changes nothing: a capture replayed is not counted twice", async () => {
      const authorization = payment();
      const approved = authorization.decide(authorize(root, 1000, { hostConfigurationId }), approve(root, at(1)));
      const captured = authorization.decide(capture(followUp, root, 600), approve(followUp, at(2)));
      const capturedState = { [root]: work(null, false, at(1)), [followUp]: work(null, true) };
      await given([...approved, ...captured]).when(captured).then(jobsView, capturedState);
      await given([...approved, ...captured]).when(approved).then(jobsView, capturedState);
    });
  });
}
