import { setTimeout as sleep } from "node:timers/promises";
import { type PaymentState, settleable, type TransactionState } from "../../domain/payments/index.ts";
import type { BatchIdentity, SettlementCandidate } from "../../domain/settlements/events.ts";
import type { SettledItem } from "../../domain/settlements/totals.ts";
import type { KnownStream } from "../execute.ts";
import type { PaymentWritten } from "../payments/run-transaction.ts";
import { payments } from "../streams.ts";
import type { SettlementContext } from "./batch.ts";

/** Candidates marked settled per round trip. */
const MARKING_CHUNK = 250;
/**
 * The share of its time a close spends marking: after each chunk it waits nearly six times as
 * long as the chunk took. Flat out, a close of 10,000 took 4 s and 63 % of the other sales of
 * those seconds; at this share, 23 s and 10 % (`npm run bench:settlement`).
 */
const MARKING_SHARE = 0.15;

/**
 * Records settled in its own payment each candidate the processor says it settled: the
 * processor's word decides, so a void racing the close is never counted on one side only (one the
 * processor approved first leaves the transaction out of its list; one it got after is refused
 * there). A candidate the processor left out that the ledger still holds approved, not voided
 * nor being voided, is disputed: it stays unsettled, and counts in the ledger's totals so that
 * the batch shows the difference. A chunk of candidates at a time: their payments read in one
 * query, their appends grouped, so a batch of many thousands costs hundreds of round trips.
 */
export async function markSettled(
  context: SettlementContext,
  batch: BatchIdentity,
  candidates: readonly SettlementCandidate[],
  settledByProcessor: ReadonlySet<string>,
  /** Called after each chunk: a close of many thousands takes minutes. */
  keepClaim: () => Promise<void>,
): Promise<{ settled: SettledTransaction[]; disputed: SettledTransaction[]; paymentsWritten: PaymentWritten[] }> {
  const settled: SettledTransaction[] = [];
  const disputed: SettledTransaction[] = [];
  const paymentsWritten: PaymentWritten[] = [];
  for (let start = 0; start < candidates.length; start += MARKING_CHUNK) {
    const chunkStarted = performance.now();
    const chunk = candidates.slice(start, start + MARKING_CHUNK);
    const streams = await context.store.readStreams(chunk.map((candidate) => payments.streamId(candidate.paymentId)));
    const judged = await Promise.all(
      chunk.map(async (candidate): Promise<Judged> => {
        const payment = payments.fold(candidate.paymentId, streams.get(payments.streamId(candidate.paymentId)) ?? []);
        if (settledByProcessor.has(candidate.transactionId)) return markOne(context, batch, candidate, payment);
        return { disputed: settledItemOf(candidate.transactionId, payment.state, settleable) };
      }),
    );
    for (const outcome of judged) {
      if (outcome.settled) settled.push(outcome.settled);
      if (outcome.disputed) disputed.push(outcome.disputed);
      if (outcome.written) paymentsWritten.push(outcome.written);
    }
    // Payments come first: the close takes at most its share of the process and the database.
    await sleep((performance.now() - chunkStarted) * (1 / MARKING_SHARE - 1));
    await keepClaim();
  }
  return { settled, disputed, paymentsWritten };
}

/** The transaction as a batch counts it, if `counts` says it does. */
function settledItemOf(
  transactionId: string,
  state: PaymentState,
  counts: (state: PaymentState, transaction: TransactionState) => boolean,
): SettledTransaction | undefined {
  const transaction = state.transactions.get(transactionId);
  if (!transaction || transaction.type === "authorization" || transaction.type === "void" || !counts(state, transaction)) return undefined;
  return { transactionId, type: transaction.type, currency: transaction.currency, amount: transaction.amount };
}

/**
 * One candidate marked on the payment's stream as read (read again on a conflict), and where that
 * stream stood: the client's reads, and this instance's next close of the configuration, wait
 * until the read model no longer counts it as awaiting. Nothing when the ledger refuses it.
 */
async function markOne(
  context: SettlementContext,
  { settlementId, clientId }: Pick<BatchIdentity, "settlementId" | "clientId">,
  { transactionId, paymentId }: SettlementCandidate,
  payment: KnownStream<PaymentState>,
): Promise<Judged> {
  const marked = await payments.handle(
    context,
    paymentId,
    { type: "SettleTransaction", transactionId, settlementId, now: context.now().toISOString() },
    { known: payment },
  );
  if (!marked.ok) return {};
  const settled = settledItemOf(transactionId, marked.state, () => true);
  return marked.tip ? { settled, written: { clientId, paymentId, revision: marked.tip.revision } } : { settled };
}

export type SettledTransaction = SettledItem & { transactionId: string };

/** A candidate as the processor's answer leaves it: settled (with where its payment's stream stood after), disputed, or neither. */
type Judged = { settled?: SettledTransaction | undefined; disputed?: SettledTransaction | undefined; written?: PaymentWritten };
