import { setTimeout as sleep } from "node:timers/promises";
import type { Processor } from "../domain/host-configurations/schemas.ts";
import { paymentDecider, type PaymentEvent, paymentStreamId } from "../domain/payments/index.ts";
import type { RecordedEvent } from "../eventstore/port.ts";
import { settlementDecider, type SettlementState } from "../domain/settlements/decider.ts";
import { type SettlementOpened, settlementStreamId } from "../domain/settlements/events.ts";
import { type SettledItem, totalsOf } from "../domain/settlements/totals.ts";
import { type SettlementView, toSettlementView } from "../domain/settlements/view.ts";
import type { Connectors } from "../processors/port.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Logger } from "../logger.ts";
import type { CommandContext } from "./context.ts";
import { execute, readStream } from "./execute.ts";
import { executeBatched } from "./execute-batched.ts";
import { loadHostConfiguration } from "./payments/host-configuration.ts";

export interface SettlementContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  logger: Pick<Logger, "warn" | "info" | "error">;
}

/** The batch to close: which host configuration, under which id, and up to when. */
export interface BatchToClose {
  settlementId: string;
  hostConfigurationId: string;
  clientId: string;
  processor: Processor;
  /** The scheduled day; null for a manual close. */
  localDate: string | null;
  cutoff: Date;
}

export type SettlementResult =
  | { ok: true; settlement: SettlementView }
  | {
      ok: false;
      /** `already_exists`: another instance (or an earlier pass) opened this batch. `processor_timeout`: no answer yet; the batch stays open and is finished later. */
      error: "nothing_to_settle" | "already_exists" | "processor_error" | "processor_timeout";
      detail: string;
    };

/** Candidates marked settled per round trip. */
const MARKING_CHUNK = 250;
/**
 * The share of its time a close spends marking: after each chunk it waits nearly six times as
 * long as the chunk took. Flat out, a close of 10,000 took 4 s and 63 % of the other sales of
 * those seconds; at this share, 23 s and 10 % (`npm run bench:settlement`).
 */
const MARKING_SHARE = 0.15;

/**
 * Closes a batch: opens it with every approved sale, capture and refund of the host configuration
 * not yet settled and made up to the cutoff (one opener wins the batch's stream), then finishes it.
 */
export async function closeSettlement(context: SettlementContext, batch: BatchToClose): Promise<SettlementResult> {
  const candidates = await context.db
    .selectFrom("transactions")
    .select(["transaction_id as transactionId", "payment_id as paymentId"])
    .where("host_configuration_id", "=", batch.hostConfigurationId)
    .where("awaiting_settlement", "=", true)
    .where("created_at", "<=", batch.cutoff)
    .orderBy("created_at")
    .orderBy("transaction_id")
    .execute();
  if (candidates.length === 0) return { ok: false, error: "nothing_to_settle", detail: "Nothing of this host configuration awaits settlement." };
  const opened = await execute(
    context.store,
    settlementDecider,
    settlementStreamId(batch.settlementId),
    {
      type: "OpenSettlement",
      batch: {
        settlementId: batch.settlementId,
        clientId: batch.clientId,
        processor: batch.processor,
        hostConfigurationId: batch.hostConfigurationId,
        localDate: batch.localDate,
        cutoff: batch.cutoff.toISOString(),
        candidates,
      },
      now: context.now().toISOString(),
    },
    context.metadata,
  );
  if (!opened.ok) return { ok: false, error: "already_exists", detail: opened.detail };
  return finishSettlement(context, batch.settlementId);
}

/**
 * Finishes an open batch: the processor closes it (under the batch's id, so asking again answers
 * the same), then each candidate's payment records it settled, and the batch records both sides'
 * totals. Every step may be repeated after a crash; a candidate voided meanwhile is left out.
 */
export async function finishSettlement(context: SettlementContext, settlementId: string): Promise<SettlementResult> {
  const streamId = settlementStreamId(settlementId);
  const { state } = await readStream(context.store, settlementDecider, streamId, false);
  if (state.status === "closed") return { ok: true, settlement: toSettlementView(state.opened, state.closed) };
  if (state.status !== "open") return { ok: false, error: "already_exists", detail: `The batch is ${state.status}.` };
  const { opened } = state;
  const hostConfiguration = await loadHostConfiguration(context, opened.hostConfigurationId);
  const answer = await context.connectors[opened.processor].closeBatch({
    settlementId,
    hostConfiguration,
    transactionIds: opened.candidates.map((candidate) => candidate.transactionId),
  });
  if (answer.kind === "unknown") return { ok: false, error: "processor_timeout", detail: answer.message };
  if (answer.kind === "refused") {
    await execute(context.store, settlementDecider, streamId, { type: "FailSettlement", message: answer.message, now: context.now().toISOString() }, context.metadata);
    context.logger.error({ settlementId, hostConfigurationId: opened.hostConfigurationId }, "the processor refused to close a settlement batch");
    return { ok: false, error: "processor_error", detail: answer.message };
  }
  const settled = await markSettled(context, opened);
  const closed = await execute(
    context.store,
    settlementDecider,
    streamId,
    {
      type: "CloseSettlement",
      transactionIds: settled.map((item) => item.transactionId),
      totals: totalsOf(settled),
      processorTotals: answer.totals,
      now: context.now().toISOString(),
    },
    context.metadata,
  );
  const final: SettlementState = closed.ok ? closed.state : (await readStream(context.store, settlementDecider, streamId, false)).state;
  if (final.status !== "closed") return { ok: false, error: "already_exists", detail: `The batch is ${final.status}.` };
  const settlement = toSettlementView(final.opened, final.closed);
  if (closed.ok && settlement.status === "mismatched") {
    context.logger.warn(
      { settlementId, hostConfigurationId: settlement.hostConfigurationId, totals: settlement.totals, processorTotals: settlement.processorTotals },
      "settlement batch mismatched: the processor's totals differ from the ledger's",
    );
  }
  return { ok: true, settlement };
}

/**
 * Records each candidate settled in its own payment; those voided meanwhile are left out. A chunk
 * of candidates at a time: their payments read in one query, their appends grouped, so a batch of
 * many thousands costs hundreds of round trips, one chunk in flight beside the payment traffic.
 */
async function markSettled(context: SettlementContext, opened: SettlementOpened["data"]): Promise<SettledTransaction[]> {
  const settled: SettledTransaction[] = [];
  for (let start = 0; start < opened.candidates.length; start += MARKING_CHUNK) {
    const chunkStarted = performance.now();
    const chunk = opened.candidates.slice(start, start + MARKING_CHUNK);
    const streams = await context.store.readStreams(chunk.map((candidate) => paymentStreamId(candidate.paymentId)));
    const marked = await Promise.all(
      chunk.map((candidate) => markOne(context, opened.settlementId, candidate, streams.get(paymentStreamId(candidate.paymentId)) ?? [])),
    );
    for (const transaction of marked) if (transaction) settled.push(transaction);
    // Payments come first: the close takes at most its share of the process and the database.
    await sleep((performance.now() - chunkStarted) * (1 / MARKING_SHARE - 1));
  }
  return settled;
}

/** One candidate marked on the payment's stream as read (read again on a conflict); undefined when left out. */
async function markOne(
  context: SettlementContext,
  settlementId: string,
  { transactionId, paymentId }: { transactionId: string; paymentId: string },
  history: readonly RecordedEvent[],
): Promise<SettledTransaction | undefined> {
  const known = {
    state: history.reduce((state, event) => paymentDecider.evolve(state, event as unknown as PaymentEvent), paymentDecider.initialState()),
    tip: history.at(-1),
  };
  const marked = await executeBatched(
    context.store,
    paymentDecider,
    paymentStreamId(paymentId),
    { type: "SettleTransaction", transactionId, settlementId, now: context.now().toISOString() },
    context.metadata,
    { known },
  );
  const transaction = marked.state.transactions.get(transactionId);
  if (!marked.ok || !transaction || transaction.type === "authorization" || transaction.type === "void") return undefined;
  return { transactionId, type: transaction.type, currency: transaction.currency, amount: transaction.amount };
}

type SettledTransaction = SettledItem & { transactionId: string };

/** The open batches older than `olderThan`: their openers died or never heard the processor. */
export async function openSettlementsBefore(context: CommandContext, olderThan: Date): Promise<string[]> {
  const rows = await context.db
    .selectFrom("settlements")
    .select("settlement_id")
    .where("status", "=", "open")
    .where("opened_at", "<", olderThan)
    .orderBy("opened_at")
    .limit(100)
    .execute();
  return rows.map((row) => row.settlement_id);
}

