import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/db/schema.ts";
import { type LimitUsageEvent, limitUsageStreamId, type OpenReservation, openReservations } from "../../src/domain/limits/usage.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { type FlatTransaction, flatTransaction, fromStored, type StoredPaymentState } from "../../src/domain/payments/stored-state.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import { APPROVED } from "../../src/processors/response-codes.ts";
import { checkJournal, type JournalEvidence, journalInvariantNames } from "./journal-checks.ts";
import type { ReceivedWebhook } from "./webhook-receiver.ts";
import type { Answer, StoredPaymentMethod } from "./workload.ts";

/** One payment as the read model folded it (`payments.state`), each transaction with every status's fields. */
export interface LedgerPayment {
  rootTransactionId: string | null;
  transactions: FlatTransaction[];
}

/** Everything the invariants judge, gathered once the load has stopped and the resolvers settled. */
export interface Evidence {
  payments: LedgerPayment[];
  /** What the processor answered: the independent record. */
  processorTransactions: SimulatedTransaction[];
  answers: Answer[];
  /** The cards the workload stored, with when their deletion was answered. */
  paymentMethods: StoredPaymentMethod[];
  /** Idempotency records whose request never recorded its answer. */
  incompleteIdempotencyRecords: { scope: string; key: string; transactionId: string | null }[];
  /** Today's usage of each client's USD limit, as the API reports it. */
  limitUsage: Map<string, { usedAmount: number; usedCount: number }>;
  /** The reservations each client's USD usage stream of today leaves open. */
  openReservations: Map<string, OpenReservation[]>;
  /** The UTC day `limitUsage` is of. */
  today: string;
  /** Every settlement batch, as the read model has it. */
  settlements: LedgerBatch[];
  /** When each host configuration's batch was to close on schedule during the run (those that had one). */
  scheduledCloses: { hostConfigurationId: string; at: Date }[];
  /** The service's AUTHORIZATION_TTL_SECONDS, in milliseconds. */
  authorizationTtlMs: number;
  /** When the evidence was read: what was due by then must have happened. */
  judgedAt: Date;
  /** What the merchants' receiver got; every client subscribed to every event before the load. */
  webhooks: ReceivedWebhook[];
  /** Outbox rows not delivered once the queue drained (or the wait for it ended). */
  undeliveredWebhooks: { deliveryId: string; eventType: string; subjectId: string; status: string }[];
  /** The journal's entries (journal-checks.ts). */
  journal: JournalEvidence;
}

/** A settlement batch as the read model has it. */
export interface LedgerBatch {
  settlementId: string;
  status: string;
  hostConfigurationId: string;
  /** The scheduled day; null for a batch closed by hand. */
  localDate: string | null;
  /** What it settled, once closed. */
  transactionIds: string[] | null;
}

export interface Violation {
  invariant: string;
  /** The transaction whose timeline explains it, when there is one. */
  transactionId?: string;
  /** The batch whose timeline explains it, when there is one. */
  settlementId?: string;
  detail: string;
}

export const invariantNames = [
  "processor approvals are in the ledger",
  "ledger approvals are approved at the processor",
  "voids agree with the processor",
  "one processor charge per Idempotency-Key",
  "acknowledged answers are in the ledger",
  "captured <= authorized, refunded <= captured",
  "nothing follows a void",
  "nothing left pending",
  "limit usage equals what counts",
  "idempotency records complete",
  "settlements agree with the processor",
  "each settled transaction in one batch, each batch once at the processor",
  "batches closed on schedule",
  "authorizations past their time expired",
  "expired authorizations released at the processor and in the ledger",
  "reversals reached the processor",
  "held amounts agree with the processor",
  "webhooks delivered, signed, in order",
  "nothing approved with a deleted payment method",
  "stored-card payments carry their payment method",
  ...journalInvariantNames,
] as const;
export type InvariantName = (typeof invariantNames)[number];

const processorKey = (processor: string, transactionId: string) => `${processor}:${transactionId}`;

/** Reads what the invariants need from the ledger's database. */
/** The reservations each client's USD usage stream of `today` leaves open. */
export async function readOpenReservations(
  store: EventStore,
  clientIds: readonly string[],
  today: string,
): Promise<Map<string, OpenReservation[]>> {
  const open = new Map<string, OpenReservation[]>();
  for (const clientId of clientIds) {
    const events = await store.readStream(limitUsageStreamId(clientId, "USD", today));
    open.set(clientId, [...openReservations(events as unknown as LimitUsageEvent[]).values()]);
  }
  return open;
}

export async function readLedger(
  db: Kysely<Database>,
): Promise<Pick<Evidence, "payments" | "incompleteIdempotencyRecords" | "settlements" | "undeliveredWebhooks">> {
  const rows = await db.selectFrom("payments").select("state").execute();
  const batches = await db
    .selectFrom("settlements")
    .select(["settlement_id as settlementId", "status", "host_configuration_id as hostConfigurationId", "local_date as localDate"])
    .execute();
  // What `GET /v1/settlements/{id}/transactions` pages: the batch's candidates settled in it.
  const listed = await db
    .selectFrom("settlement_transactions")
    .innerJoin("transactions", "transactions.transaction_id", "settlement_transactions.transaction_id")
    .select(["settlement_transactions.settlement_id as settlementId", "settlement_transactions.transaction_id as transactionId"])
    .where(sql<boolean>`transactions.view->>'settlementId' = settlement_transactions.settlement_id::text`)
    .execute();
  const listsOf = new Map<string, string[]>();
  for (const { settlementId, transactionId } of listed) listsOf.set(settlementId, [...(listsOf.get(settlementId) ?? []), transactionId]);
  const closed = (status: string) => status === "matched" || status === "mismatched";
  const settlements = batches.map((batch) => ({ ...batch, transactionIds: closed(batch.status) ? (listsOf.get(batch.settlementId) ?? []) : null }));
  const incomplete = await db
    .selectFrom("idempotency_records")
    .select(["scope", "idempotency_key as key", "transaction_id as transactionId"])
    .where("status_code", "is", null)
    .execute();
  const undeliveredWebhooks = await db
    .selectFrom("webhook_deliveries")
    .select(["delivery_id as deliveryId", "event_type as eventType", "subject_id as subjectId", "status"])
    .where("status", "<>", "delivered")
    .execute();
  return {
    payments: rows.map((row) => {
      const state = fromStored(row.state as StoredPaymentState);
      return { rootTransactionId: state.rootTransactionId, transactions: [...state.transactions.values()].map(flatTransaction) };
    }),
    incompleteIdempotencyRecords: incomplete,
    settlements,
    undeliveredWebhooks,
  };
}

export function checkInvariants(evidence: Evidence): Violation[] {
  const transactions = evidence.payments.flatMap((payment) => payment.transactions);
  const byId = new Map(transactions.map((transaction) => [transaction.id, transaction]));
  const atProcessor = new Map(
    evidence.processorTransactions.map((record) => [processorKey(record.processor, record.transactionId), record]),
  );
  return [
    ...processorApprovalsAreInTheLedger(evidence.processorTransactions, byId),
    ...ledgerApprovalsAreApprovedAtTheProcessor(transactions, atProcessor),
    ...voidsAgree(transactions, atProcessor),
    ...settlementsAgree(evidence, transactions, byId, atProcessor),
    ...oneBatchEach(evidence, transactions),
    ...batchesClosedOnSchedule(evidence),
    ...authorizationsExpired(evidence),
    ...expiriesReleased(evidence, atProcessor),
    ...reversalsReachedTheProcessor(transactions, atProcessor),
    ...heldAmountsAgree(evidence.payments, atProcessor),
    ...oneChargePerIdempotencyKey(evidence, byId),
    ...answersAreInTheLedger(evidence.answers, byId),
    ...amountsHold(evidence.payments),
    ...nothingFollowsAVoid(evidence.payments),
    ...nothingPending(transactions),
    ...limitUsageMatches(evidence),
    ...idempotencyRecordsComplete(evidence, byId),
    ...webhooksDelivered(evidence, transactions),
    ...nothingApprovedWithADeletedPaymentMethod(evidence, byId),
    ...storedCardPaymentsCarryTheirPaymentMethod(evidence, byId),
    ...checkJournal(evidence.journal, evidence.processorTransactions, byId),
  ];
}

/** The answers of sales and authorizations, one per transaction. */
function rootPaymentAnswers(answers: Answer[]): Answer[] {
  const byTransaction = new Map<string, Answer>();
  for (const answer of answers) {
    if (answer.operation === "sale" || answer.operation === "authorization") byTransaction.set(answer.transactionId, answer);
  }
  return [...byTransaction.values()];
}

/**
 * A payment sent naming a payment method after its DELETE was answered 204 is approved neither
 * in the ledger nor at the processor: the card number is beyond anyone's reach by then.
 */
function nothingApprovedWithADeletedPaymentMethod(evidence: Evidence, byId: Map<string, FlatTransaction>): Violation[] {
  const approvedAtProcessor = new Map(
    evidence.processorTransactions.filter((record) => record.code === APPROVED).map((record) => [record.transactionId, record.processor]),
  );
  const deletedAt = new Map(evidence.paymentMethods.flatMap(({ id, deletedAt }) => (deletedAt === null ? [] : [[id, deletedAt] as const])));
  const violations: Violation[] = [];
  for (const answer of rootPaymentAnswers(evidence.answers)) {
    const deleted = answer.paymentMethodId === null ? undefined : deletedAt.get(answer.paymentMethodId);
    if (deleted === undefined || answer.sentAt <= deleted) continue;
    const transaction = byId.get(answer.transactionId);
    const approvedBy = [transaction?.status === "approved" && "the ledger", approvedAtProcessor.get(answer.transactionId)]
      .filter((by): by is string => typeof by === "string");
    if (approvedBy.length === 0) continue;
    violations.push({
      invariant: "nothing approved with a deleted payment method",
      transactionId: answer.transactionId,
      detail: `${answer.operation} ${answer.transactionId}, sent at ${answer.sentAt} with payment method ${answer.paymentMethodId} deleted at ${deleted}, is approved by ${approvedBy.join(" and ")}`,
    });
  }
  return violations;
}

/** Each sale and authorization has the `paymentMethodId` it was sent with (none for a card inline) and the stored card's last four digits. */
function storedCardPaymentsCarryTheirPaymentMethod(evidence: Evidence, byId: Map<string, FlatTransaction>): Violation[] {
  const last4Of = new Map(evidence.paymentMethods.map(({ id, last4 }) => [id, last4]));
  const violations: Violation[] = [];
  for (const answer of rootPaymentAnswers(evidence.answers)) {
    const transaction = byId.get(answer.transactionId);
    if (!transaction) continue; // "acknowledged answers are in the ledger"
    const carried = transaction.paymentMethodId ?? null;
    const last4 = answer.paymentMethodId === null ? undefined : last4Of.get(answer.paymentMethodId);
    const problems = [
      carried !== answer.paymentMethodId && `was sent with ${answer.paymentMethodId ?? "its card inline"}; the ledger has paymentMethodId ${carried}`,
      last4 !== undefined && transaction.card?.last4 !== last4 && `its card ends in ${transaction.card?.last4 ?? "nothing"}; the stored card in ${last4}`,
    ].filter((problem): problem is string => typeof problem === "string");
    for (const problem of problems) {
      violations.push({
        invariant: "stored-card payments carry their payment method",
        transactionId: answer.transactionId,
        detail: `${answer.operation} ${answer.transactionId} ${problem}`,
      });
    }
  }
  return violations;
}

/**
 * Every transaction's outcome and every closed batch reached the merchant, signed; the final
 * outcome of a transaction never arrived before its `transaction.pending` was accepted; the
 * outbox holds nothing undelivered.
 */
function webhooksDelivered(evidence: Evidence, transactions: FlatTransaction[]): Violation[] {
  const invariant = "webhooks delivered, signed, in order";
  const violations: Violation[] = [];
  const firstArrival = new Map<string, ReceivedWebhook>();
  const firstAccepted = new Map<string, ReceivedWebhook>();
  for (const message of evidence.webhooks) {
    const key = `${message.type} ${message.subjectId}`;
    if (!firstArrival.has(key)) firstArrival.set(key, message);
    if (message.answered < 300 && !firstAccepted.has(key)) firstAccepted.set(key, message);
    if (!message.signed) violations.push({ invariant, detail: `${key} (webhook-id ${message.webhookId}) arrived with a signature that does not verify` });
  }
  for (const transaction of transactions) {
    const final = firstArrival.get(`transaction.${transaction.status} ${transaction.id}`);
    if (!firstAccepted.has(`transaction.${transaction.status} ${transaction.id}`)) {
      violations.push({ invariant, transactionId: transaction.id, detail: `transaction.${transaction.status} of ${transaction.id} never reached the merchant` });
    }
    const pending = firstAccepted.get(`transaction.pending ${transaction.id}`);
    if (transaction.status !== "pending" && final && (!pending || final.at < pending.at)) {
      violations.push({ invariant, transactionId: transaction.id, detail: `transaction.${transaction.status} of ${transaction.id} arrived before its transaction.pending was accepted` });
    }
  }
  for (const { settlementId, status } of evidence.settlements) {
    if ((status === "matched" || status === "mismatched") && !firstAccepted.has(`settlement.closed ${settlementId}`)) {
      violations.push({ invariant, detail: `settlement.closed of batch ${settlementId} never reached the merchant` });
    }
  }
  for (const row of evidence.undeliveredWebhooks) {
    violations.push({ invariant, transactionId: row.subjectId, detail: `the outbox still holds ${row.eventType} of ${row.subjectId}, ${row.status}` });
  }
  return violations;
}

function processorApprovalsAreInTheLedger(records: SimulatedTransaction[], byId: Map<string, FlatTransaction>): Violation[] {
  const reversals = new Map<string, FlatTransaction>();
  for (const transaction of byId.values()) if (transaction.reversalId) reversals.set(transaction.reversalId, transaction);
  const violations: Violation[] = [];
  for (const record of records) {
    if (record.code !== APPROVED) continue;
    const transaction = byId.get(record.transactionId);
    if (transaction?.status === "approved") continue;
    if (transaction && transaction.approvedLate !== null && transaction.reversed) continue;
    // Reversed while its outcome was unknown (API.md: failed, reason reversed): the processor's
    // approval stands voided, so it holds none of the money the ledger does not count.
    if (transaction?.reversed && record.voided) continue;
    // The processor-side void of a reversal: the ledger knows it by the reversed transaction.
    const reversed = record.parentTransactionId === null ? undefined : byId.get(record.parentTransactionId);
    if (record.operation === "void" && reversed?.reversed) continue;
    violations.push({
      invariant: "processor approvals are in the ledger",
      transactionId: record.parentTransactionId && !transaction ? record.parentTransactionId : record.transactionId,
      detail: `${record.processor} approved ${record.operation} ${record.transactionId}; the ledger has it ${transaction ? `${transaction.status}${transaction.reversed ? ", reversed" : ""}` : "nowhere"}`,
    });
  }
  return violations;
}

function ledgerApprovalsAreApprovedAtTheProcessor(
  transactions: FlatTransaction[],
  atProcessor: Map<string, SimulatedTransaction>,
): Violation[] {
  return transactions
    .filter((transaction) => transaction.status === "approved")
    .filter((transaction) => atProcessor.get(processorKey(transaction.processor, transaction.id))?.code !== APPROVED)
    .map((transaction) => ({
      invariant: "ledger approvals are approved at the processor",
      transactionId: transaction.id,
      detail: `the ledger approved ${transaction.type} ${transaction.id}; ${transaction.processor} answered ${atProcessor.get(processorKey(transaction.processor, transaction.id))?.code ?? "nothing"}`,
    }));
}

function voidsAgree(transactions: FlatTransaction[], atProcessor: Map<string, SimulatedTransaction>): Violation[] {
  const violations: Violation[] = [];
  for (const transaction of transactions) {
    if (transaction.status !== "approved" || transaction.type === "void" || transaction.type === "refund") continue;
    const record = atProcessor.get(processorKey(transaction.processor, transaction.id));
    if (!record || record.voided === transaction.voided) continue;
    violations.push({
      invariant: "voids agree with the processor",
      transactionId: transaction.id,
      detail: `${transaction.type} ${transaction.id}: the ledger says voided=${transaction.voided}, ${transaction.processor} says voided=${record.voided}`,
    });
  }
  return violations;
}

/**
 * Each transaction settled in the ledger is settled at the processor in the same batch and the
 * other way round; every batch is closed, and its totals are the processor's.
 */
function settlementsAgree(
  evidence: Evidence,
  transactions: FlatTransaction[],
  byId: Map<string, FlatTransaction>,
  atProcessor: Map<string, SimulatedTransaction>,
): Violation[] {
  const violations: Violation[] = [];
  const disagree = (transactionId: string, ledger: string | null | undefined, processor: string | null | undefined) =>
    violations.push({
      invariant: "settlements agree with the processor",
      transactionId,
      detail: `${transactionId}: settled in ${ledger ?? "no batch"} in the ledger, in ${processor ?? "no batch"} at the processor`,
    });
  for (const transaction of transactions) {
    if (transaction.settlementId === null) continue;
    const record = atProcessor.get(processorKey(transaction.processor, transaction.id));
    if (record?.settlementId !== transaction.settlementId) disagree(transaction.id, transaction.settlementId, record?.settlementId);
  }
  for (const record of evidence.processorTransactions) {
    if (record.settlementId === null) continue;
    const transaction = byId.get(record.transactionId);
    if (transaction?.settlementId !== record.settlementId) disagree(record.transactionId, transaction?.settlementId, record.settlementId);
  }
  for (const { settlementId, status } of evidence.settlements) {
    if (status === "matched" || status === "failed") continue;
    violations.push({
      invariant: status === "open" ? "nothing left pending" : "settlements agree with the processor",
      settlementId,
      detail: `settlement batch ${settlementId} is ${status}`,
    });
  }
  return violations;
}

/**
 * Each transaction is listed by one closed batch at most, the one its payment names; the
 * processor settled exactly what the ledger's batch of the same id lists (a batch sent again
 * under its id is answered with its first close; its transactions under another id would show
 * here); one scheduled batch per host configuration and day.
 */
function oneBatchEach(evidence: Evidence, transactions: FlatTransaction[]): Violation[] {
  const invariant = "each settled transaction in one batch, each batch once at the processor";
  const violations: Violation[] = [];
  const listedBy = new Map<string, string[]>();
  for (const batch of evidence.settlements) {
    for (const transactionId of batch.transactionIds ?? []) listedBy.set(transactionId, [...(listedBy.get(transactionId) ?? []), batch.settlementId]);
  }
  for (const [transactionId, batches] of listedBy) {
    if (batches.length > 1) violations.push({ invariant, transactionId, settlementId: batches[1], detail: `${transactionId} is listed by ${batches.length} batches: ${batches.join(", ")}` });
  }
  for (const transaction of transactions) {
    if (transaction.settlementId === null || listedBy.get(transaction.id)?.includes(transaction.settlementId)) continue;
    violations.push({
      invariant,
      transactionId: transaction.id,
      settlementId: transaction.settlementId,
      detail: `${transaction.type} ${transaction.id} is settled in ${transaction.settlementId}, which does not list it (listed by ${listedBy.get(transaction.id)?.join(", ") ?? "none"})`,
    });
  }
  const atProcessor = new Map<string, Set<string>>();
  for (const record of evidence.processorTransactions) {
    if (record.settlementId !== null) atProcessor.set(record.settlementId, (atProcessor.get(record.settlementId) ?? new Set()).add(record.transactionId));
  }
  const ledgerBatches = new Map(evidence.settlements.map((batch) => [batch.settlementId, batch]));
  for (const [settlementId, settled] of atProcessor) {
    const batch = ledgerBatches.get(settlementId);
    const listed = new Set(batch?.transactionIds ?? []);
    const onlyThere = [...settled].filter((id) => !listed.has(id));
    const onlyHere = [...listed].filter((id) => !settled.has(id));
    if (batch?.transactionIds && onlyThere.length === 0 && onlyHere.length === 0) continue;
    violations.push({
      invariant,
      settlementId,
      detail: `the processor settled ${settled.size} transaction(s) in batch ${settlementId}; the ledger has it ${batch ? `${batch.status}, listing ${listed.size}` : "nowhere"} (only at the processor: ${onlyThere.join(", ") || "none"}; only in the ledger: ${onlyHere.join(", ") || "none"})`,
    });
  }
  for (const batch of evidence.settlements) {
    if (batch.transactionIds && batch.transactionIds.length > 0 && !atProcessor.has(batch.settlementId)) {
      violations.push({ invariant, settlementId: batch.settlementId, detail: `batch ${batch.settlementId} lists ${batch.transactionIds.length} transaction(s) the processor settled in no batch of that id` });
    }
  }
  const scheduled = new Map<string, string[]>();
  for (const batch of evidence.settlements) {
    if (batch.localDate === null) continue;
    const day = `${batch.hostConfigurationId} ${batch.localDate}`;
    scheduled.set(day, [...(scheduled.get(day) ?? []), batch.settlementId]);
  }
  for (const [day, batches] of scheduled) {
    if (batches.length > 1) violations.push({ invariant, settlementId: batches[1], detail: `host configuration and day ${day} have ${batches.length} scheduled batches: ${batches.join(", ")}` });
  }
  return violations;
}

/** The projection may lag the approval a little; a batch opened within this of its cutoff may miss it. */
const SCHEDULE_MARGIN_MS = 10_000;
/** How long after its time a scheduled batch may take to close, faults over. */
const SCHEDULE_GRACE_MS = 20_000;

/**
 * Once a host configuration's settlement time came round, what it had approved well before then
 * (not voided, nor being voided) is settled: the scheduled batch took it, or one closed by hand.
 */
function batchesClosedOnSchedule(evidence: Evidence): Violation[] {
  const closes = new Map(
    evidence.scheduledCloses
      .filter(({ at }) => at.getTime() <= evidence.judgedAt.getTime() - SCHEDULE_GRACE_MS)
      .map(({ hostConfigurationId, at }) => [hostConfigurationId, at]),
  );
  const failedDays = new Set(evidence.settlements.filter((batch) => batch.status === "failed" && batch.localDate !== null).map((batch) => batch.hostConfigurationId));
  const violations: Violation[] = [];
  for (const payment of evidence.payments) {
    const voidTargets = new Set(payment.transactions.filter((transaction) => transaction.type === "void").map((transaction) => transaction.parentTransactionId));
    for (const transaction of payment.transactions) {
      const at = closes.get(transaction.hostConfigurationId);
      if (!at || failedDays.has(transaction.hostConfigurationId)) continue;
      if (!["sale", "capture", "refund"].includes(transaction.type) || transaction.status !== "approved" || transaction.settlementId !== null) continue;
      if (transaction.voided || voidTargets.has(transaction.id)) continue;
      const approvedAt = Date.parse(transaction.approvedAt ?? transaction.updatedAt);
      if (approvedAt > at.getTime() - SCHEDULE_MARGIN_MS || Date.parse(transaction.createdAt) > at.getTime()) continue;
      violations.push({
        invariant: "batches closed on schedule",
        transactionId: transaction.id,
        detail: `${transaction.type} ${transaction.id}, approved at ${new Date(approvedAt).toISOString()}, is in no batch; its host configuration ${transaction.hostConfigurationId} closed on schedule at ${at.toISOString()}`,
      });
    }
  }
  return violations;
}

/** An expiry pass every LIFECYCLE_CHECK_INTERVAL_MS, the read model's lag, the void's round trip. */
const EXPIRY_GRACE_MS = 15_000;

/** An approved authorization with something left to capture, approved longer ago than the TTL, has expired. */
function authorizationsExpired(evidence: Evidence): Violation[] {
  const dueBefore = evidence.judgedAt.getTime() - evidence.authorizationTtlMs - EXPIRY_GRACE_MS;
  return evidence.payments.flatMap((payment) =>
    payment.transactions
      .filter((transaction) => transaction.type === "authorization" && transaction.status === "approved" && transaction.expiredAt === null)
      .filter((authorization) => !authorization.voided && authorization.capturedAmount < authorization.amount)
      .filter((authorization) => Date.parse(authorization.approvedAt ?? authorization.updatedAt) <= dueBefore)
      .map((authorization) => ({
        invariant: "authorizations past their time expired",
        transactionId: authorization.id,
        detail: `authorization ${authorization.id}, approved at ${authorization.approvedAt}, captured ${authorization.capturedAmount} of ${authorization.amount}, has not expired ${evidence.authorizationTtlMs / 1000} s on`,
      })),
  );
}

/** An expired authorization is voided in the ledger (its expiry's void approved) and at the processor. */
function expiriesReleased(evidence: Evidence, atProcessor: Map<string, SimulatedTransaction>): Violation[] {
  const violations: Violation[] = [];
  for (const payment of evidence.payments) {
    for (const authorization of payment.transactions) {
      if (authorization.expiredAt === null) continue;
      const record = atProcessor.get(processorKey(authorization.processor, authorization.id));
      const heldAtProcessor = record?.code === APPROVED && !record.voided;
      if (authorization.voided && !heldAtProcessor) continue;
      const voids = payment.transactions
        .filter((transaction) => transaction.type === "void" && transaction.parentTransactionId === authorization.id)
        .map((transaction) => `${transaction.id} ${transaction.status}${transaction.failureReason ? ` (${transaction.failureReason})` : ""}`);
      violations.push({
        invariant: "expired authorizations released at the processor and in the ledger",
        transactionId: authorization.id,
        detail: `authorization ${authorization.id} expired at ${authorization.expiredAt}: the ledger has it voided=${authorization.voided} (voids: ${voids.join(", ") || "none"}); ${authorization.processor} ${record ? `has it code ${record.code}, voided=${record.voided}` : "has no record of it"}`,
      });
    }
  }
  return violations;
}

/** A reversed transaction holds nothing at the processor: its void got there, or the processor never approved it. */
function reversalsReachedTheProcessor(transactions: FlatTransaction[], atProcessor: Map<string, SimulatedTransaction>): Violation[] {
  return transactions
    .filter((transaction) => transaction.reversed)
    .filter((transaction) => {
      const record = atProcessor.get(processorKey(transaction.processor, transaction.id));
      return record?.code === APPROVED && !record.voided;
    })
    .map((transaction) => ({
      invariant: "reversals reached the processor",
      transactionId: transaction.id,
      detail: `${transaction.type} ${transaction.id} is reversed in the ledger; ${transaction.processor} holds it approved, not voided`,
    }));
}

function oneChargePerIdempotencyKey(evidence: Evidence, byId: Map<string, FlatTransaction>): Violation[] {
  const violations: Violation[] = [];
  // Each logical authorization or sale carries its own reference: two processor approvals of one
  // reference are one request charged twice.
  const chargesByReference = new Map<string, string[]>();
  for (const record of evidence.processorTransactions) {
    if (record.code !== APPROVED || (record.operation !== "sale" && record.operation !== "authorization")) continue;
    const reference = byId.get(record.transactionId)?.reference;
    if (!reference) continue;
    chargesByReference.set(reference, [...(chargesByReference.get(reference) ?? []), record.transactionId]);
  }
  for (const [reference, charged] of chargesByReference) {
    if (charged.length > 1) {
      violations.push({
        invariant: "one processor charge per Idempotency-Key",
        transactionId: charged[0],
        detail: `reference ${reference} was charged ${charged.length} times: ${charged.join(", ")}`,
      });
    }
  }
  const transactionsByKey = new Map<string, Set<string>>();
  for (const answer of evidence.answers) {
    const key = `${answer.clientId}:${answer.idempotencyKey}`;
    transactionsByKey.set(key, (transactionsByKey.get(key) ?? new Set()).add(answer.transactionId));
  }
  for (const [key, ids] of transactionsByKey) {
    if (ids.size > 1) {
      violations.push({
        invariant: "one processor charge per Idempotency-Key",
        transactionId: [...ids][0],
        detail: `Idempotency-Key ${key} answered ${ids.size} different transactions: ${[...ids].join(", ")}`,
      });
    }
  }
  return violations;
}

/** A final answer (anything but pending) must be the ledger's outcome; a 2xx must be there at all. */
function answersAreInTheLedger(answers: Answer[], byId: Map<string, FlatTransaction>): Violation[] {
  const violations: Violation[] = [];
  for (const answer of answers) {
    const transaction = byId.get(answer.transactionId);
    const settled = answer.status !== "pending";
    if (transaction && (!settled || transaction.status === answer.status)) continue;
    violations.push({
      invariant: "acknowledged answers are in the ledger",
      transactionId: answer.transactionId,
      detail: `${answer.operation} answered ${answer.httpStatus} ${answer.status} at ${answer.at}; the ledger has it ${transaction?.status ?? "nowhere"}`,
    });
  }
  return violations;
}

function amountsHold(payments: LedgerPayment[]): Violation[] {
  const violations: Violation[] = [];
  for (const payment of payments) {
    for (const parent of payment.transactions) {
      const children = (type: FlatTransaction["type"]) =>
        payment.transactions.filter(
          (child) => child.parentTransactionId === parent.id && child.type === type && child.status === "approved",
        );
      const captured = children("capture").filter((capture) => !capture.voided).reduce((sum, capture) => sum + capture.amount, 0);
      const refunded = children("refund").reduce((sum, refund) => sum + refund.amount, 0);
      const problems = [
        parent.type === "authorization" && captured > parent.amount && `captured ${captured} of ${parent.amount} authorized`,
        parent.type === "authorization" && captured !== parent.capturedAmount && `captures sum to ${captured}, capturedAmount says ${parent.capturedAmount}`,
        (parent.type === "sale" || parent.type === "capture") && refunded > parent.amount && `refunded ${refunded} of ${parent.amount}`,
        (parent.type === "sale" || parent.type === "capture") && refunded !== parent.refundedAmount && `refunds sum to ${refunded}, refundedAmount says ${parent.refundedAmount}`,
      ].filter((problem): problem is string => typeof problem === "string");
      for (const problem of problems) {
        violations.push({ invariant: "captured <= authorized, refunded <= captured", transactionId: parent.id, detail: `${parent.type} ${parent.id}: ${problem}` });
      }
    }
  }
  return violations;
}

function nothingFollowsAVoid(payments: LedgerPayment[]): Violation[] {
  const violations: Violation[] = [];
  for (const payment of payments) {
    // Transactions are kept in the order they were initiated.
    const voidedAt = new Map<string, number>();
    payment.transactions.forEach((transaction, index) => {
      if (transaction.type === "void" && transaction.status === "approved" && transaction.parentTransactionId) {
        voidedAt.set(transaction.parentTransactionId, index);
      }
    });
    payment.transactions.forEach((transaction, index) => {
      const parent = transaction.parentTransactionId;
      if (parent === null || transaction.type === "void" || transaction.status !== "approved") return;
      const voidIndex = voidedAt.get(parent);
      if (voidIndex !== undefined && voidIndex < index) {
        violations.push({ invariant: "nothing follows a void", transactionId: transaction.id, detail: `${transaction.type} ${transaction.id} approved after ${parent} was voided` });
      }
    });
  }
  return violations;
}

/**
 * What each approved authorization still holds of the card, authorized less captured less
 * released (nothing once a void of it is approved), is what the processor holds, and never
 * negative; judged once nothing in its payment is pending (a pending one is "nothing left pending").
 */
function heldAmountsAgree(payments: LedgerPayment[], atProcessor: Map<string, SimulatedTransaction>): Violation[] {
  const violations: Violation[] = [];
  for (const payment of payments) {
    if (payment.transactions.some((transaction) => transaction.status === "pending" || transaction.reversalId !== null)) continue;
    for (const authorization of payment.transactions) {
      if (authorization.type !== "authorization" || authorization.status !== "approved") continue;
      const held = authorization.voided ? 0 : authorization.amount - authorization.capturedAmount;
      const record = atProcessor.get(processorKey(authorization.processor, authorization.id));
      if (held >= 0 && record?.heldAmount === held) continue;
      violations.push({
        invariant: "held amounts agree with the processor",
        transactionId: authorization.id,
        detail: `authorization ${authorization.id}: the ledger holds ${held}, ${authorization.processor} holds ${record?.heldAmount ?? "nothing (no record)"}`,
      });
    }
  }
  return violations;
}

function nothingPending(transactions: FlatTransaction[]): Violation[] {
  return transactions
    .filter((transaction) => transaction.status === "pending" || transaction.reversalId !== null)
    .map((transaction) => ({
      invariant: "nothing left pending",
      transactionId: transaction.id,
      detail: `${transaction.type} ${transaction.id} is ${transaction.status}${transaction.reversalId ? " with its reversal still open" : ""}`,
    }));
}

/**
 * What a payment holds of its client's limit, as docs/api.md (Clients, keys and limits) says: a
 * pending or approved root's amount until an authorization's rest is released; then its captures
 * approved and not voided, or pending; nothing once the root is declined, failed or voided.
 */
function heldOfLimit(payment: LedgerPayment, root: FlatTransaction): number {
  if (root.status === "declined" || root.status === "failed") return 0;
  if (root.status === "pending" || !root.voided) return root.amount;
  if (root.type === "sale") return 0;
  return payment.transactions
    .filter((capture) => capture.type === "capture" && capture.parentTransactionId === root.id)
    .filter((capture) => capture.status === "pending" || (capture.status === "approved" && !capture.voided))
    .reduce((total, capture) => total + capture.amount, 0);
}

/**
 * Every Idempotency-Key has its answer: in its record, or in the log for a key bound to a
 * transaction with its outcome (a retry answers that transaction) or to a settlement batch. Each one without is named with
 * what its client got.
 */
function idempotencyRecordsComplete(evidence: Evidence, byId: ReadonlyMap<string, FlatTransaction>): Violation[] {
  // A manual close's key belongs to its batch: a retry answers the batch as it stands, whatever it is.
  const batches = new Set(evidence.settlements.map((batch) => batch.settlementId));
  const answeredByLog = (transactionId: string | null) =>
    transactionId !== null && (batches.has(transactionId) || (byId.get(transactionId)?.status ?? "pending") !== "pending");
  const unanswered = evidence.incompleteIdempotencyRecords.filter(({ transactionId }) => !answeredByLog(transactionId));
  return unanswered.map(({ scope, key, transactionId }) => {
    const got = evidence.answers.filter((answer) => answer.idempotencyKey === key).map((answer) => `${answer.httpStatus} ${answer.status} at ${answer.at}`);
    return {
      invariant: "idempotency records complete",
      ...(transactionId ? { transactionId } : {}),
      detail: `${scope} key ${key} never recorded an answer; bound to ${transactionId ?? "no transaction"}; its client got ${got.join(", ") || "no answer with a transaction"}`,
    };
  });
}

/**
 * Each payment whose root holds part of its limit holds exactly one open reservation, of that
 * amount, and one that holds none holds no reservation; the usage the API reports is the sum of
 * the open reservations.
 */
function limitUsageMatches(evidence: Evidence): Violation[] {
  const holding = new Map<string, number>();
  for (const payment of evidence.payments) {
    const root = payment.transactions.find((transaction) => transaction.id === payment.rootTransactionId);
    if (!root || root.currency !== "USD" || !root.createdAt.startsWith(evidence.today)) continue;
    const held = heldOfLimit(payment, root);
    if (held > 0) holding.set(root.id, held);
  }
  const violations: Violation[] = [];
  for (const [clientId, usage] of evidence.limitUsage) {
    const open = evidence.openReservations.get(clientId) ?? [];
    const reserved = new Map<string, OpenReservation[]>();
    for (const reservation of open) reserved.set(reservation.transactionId, [...(reserved.get(reservation.transactionId) ?? []), reservation]);
    const roots = evidence.payments.filter((payment) => payment.transactions[0]?.clientId === clientId).map((payment) => payment.rootTransactionId);
    for (const transactionId of new Set([...reserved.keys(), ...roots.filter((id): id is string => id !== null && holding.has(id))])) {
      const reservations = reserved.get(transactionId) ?? [];
      const held = holding.get(transactionId) ?? 0;
      if (held === 0 ? reservations.length === 0 : reservations.length === 1 && reservations[0]!.amount === held) continue;
      violations.push({
        invariant: "limit usage equals what counts",
        transactionId,
        detail: `client ${clientId}: ${transactionId} holds ${held} of the limit and ${reservations.length} open reservation(s) (${reservations.map((reservation) => reservation.amount).join(", ")})`,
      });
    }
    const openAmount = open.reduce((sum, reservation) => sum + reservation.amount, 0);
    if (usage.usedAmount !== openAmount || usage.usedCount !== open.length) {
      violations.push({
        invariant: "limit usage equals what counts",
        detail: `client ${clientId}: usage ${usage.usedAmount} in ${usage.usedCount}, open reservations ${openAmount} in ${open.length}`,
      });
    }
  }
  return violations;
}
