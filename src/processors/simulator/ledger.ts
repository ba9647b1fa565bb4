import { z } from "zod";
import { type Processor, processors } from "../../domain/host-configurations/schemas.ts";
import { type SettledItem, type SettlementTotals, totalsOf } from "../../domain/settlements/totals.ts";
import { type Operation, operations } from "../port.ts";
import { APPROVED } from "../response-codes.ts";
import { cardBehaviour } from "./cards.ts";
import { openJournal } from "./journal.ts";
import { newAuthorizationCode, newReference } from "./references.ts";

/**
 * The simulated processors' memory: every transaction they answered, by processor and our
 * transaction id, and the batches they closed, kept in a journal so that it outlives a restart.
 * It holds what a processor answered and what a batch close totals (merchant, terminal, currency,
 * amount, voided, settled), never a card number or a CVC.
 */

export interface SimulatedRequest {
  processor: Processor;
  operation: Operation;
  transactionId: string;
  /** Follow-ups: ids the parent may be known by, ours or the processor's reference. */
  parentIds?: readonly string[];
  amount: number;
  currency: string;
  /** The merchant and terminal the message came from, as the processor's host configuration names them. */
  merchantId: string;
  terminalId: string;
  /** Decides an authorization or a sale; never kept. */
  cardNumber?: string;
}

const recordSchema = z.object({
  processor: z.enum(processors),
  transactionId: z.string(),
  operation: z.enum(operations),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  merchantId: z.string(),
  terminalId: z.string(),
  /** Our id of the transaction a follow-up applies to; `null` when it found none. */
  parentTransactionId: z.string().nullable(),
  code: z.string(),
  message: z.string(),
  authorizationCode: z.string().nullable(),
  reference: z.string(),
  /** Inquiries to answer "not found" before the truth (card 4000000000000424). */
  notFoundInquiries: z.number().int().nonnegative(),
  recordedAt: z.iso.datetime(),
});
type Recorded = z.output<typeof recordSchema>;

const totalsSchema = z.object({
  currency: z.string(),
  salesCount: z.number().int().nonnegative(),
  salesAmount: z.number().int().nonnegative(),
  refundsCount: z.number().int().nonnegative(),
  refundsAmount: z.number().int().nonnegative(),
  netAmount: z.number().int(),
}) satisfies z.ZodType<SettlementTotals>;

const batchSchema = z.object({
  processor: z.enum(processors),
  /** Our settlement id: closing it again answers these totals. */
  batchId: z.string(),
  merchantId: z.string(),
  terminalId: z.string(),
  /** The listed transactions it counted, settled in this batch from then on. */
  settledTransactionIds: z.array(z.string()),
  totals: z.array(totalsSchema),
  closedAt: z.iso.datetime(),
});
type ClosedBatch = z.output<typeof batchSchema>;

/** What a batch close answers: the totals, and which of the listed transactions it settled. */
export type BatchSettled = Pick<ClosedBatch, "totals" | "settledTransactionIds">;
const settledOf = ({ totals, settledTransactionIds }: ClosedBatch): BatchSettled => ({ totals, settledTransactionIds });

/** One journal line; lines written before batch closes were journaled have no `kind` and are transactions. */
const lineSchema = z.discriminatedUnion("kind", [
  recordSchema.extend({ kind: z.literal("transaction").default("transaction") }),
  batchSchema.extend({ kind: z.literal("batch_close") }),
]);

export type SimulatedAnswer = Pick<Recorded, "code" | "message" | "authorizationCode" | "reference">;

/**
 * A transaction as the processor answered it, whether a later void cancelled it, the batch that
 * settled it, and what an authorization still holds of the card (0 for every other operation).
 */
export type SimulatedTransaction = Omit<Recorded, "notFoundInquiries"> & { voided: boolean; settlementId: string | null; heldAmount: number };

export interface SimulatedBatchClose {
  processor: Processor;
  /** Our settlement id. */
  batchId: string;
  /** The merchant and terminal the message came from, as the processor's host configuration names them. */
  merchantId: string;
  terminalId: string;
  /** Our ids of the transactions to settle; only those the processor can settle are counted. */
  transactionIds: readonly string[];
}

export interface TransactionFilter {
  /** `true`: only those answered `00`; `false`: only the others. */
  approved?: boolean;
}

interface Entry {
  record: Recorded;
  /** A void cancelled it; an authorization is cancelled once voids have released all it held. */
  voided: boolean;
  /**
   * An approved authorization: what it still holds, its amount less its approved captures (not
   * voided) and what voids released. A void may release part of it (a partial reversal).
   */
  held: number;
  /** The batch that settled it. */
  settlementId: string | null;
  /** Settles once the record is on disk; nothing is answered from it before. */
  durable: Promise<void>;
  inquiries: number;
}

interface BatchEntry {
  batch: ClosedBatch;
  /** Settles once the batch is on disk; its totals are not answered before. */
  durable: Promise<void>;
}

const messages: Record<string, string> = {
  "00": "Approved",
  "05": "Do not honor",
  "12": "Invalid transaction",
  "13": "Invalid amount",
  "14": "Invalid card number",
  "25": "Unable to locate original transaction",
  "51": "Insufficient funds",
  "54": "Expired card",
  N7: "CVV2 mismatch",
  "96": "System malfunction",
};

const allowedParents: Record<Operation, readonly Operation[]> = {
  authorization: [],
  sale: [],
  capture: ["authorization"],
  refund: ["sale", "capture"],
  void: ["authorization", "sale", "capture"],
};

const settledOperations: readonly Operation[] = ["sale", "capture", "refund"];
const isSettledType = (operation: Operation): operation is SettledItem["type"] => settledOperations.includes(operation);

/** Whether a follow-up may apply to its parent; a settled sale or capture can still be refunded, not voided. */
function appliesTo(operation: Operation, parent: Entry): boolean {
  return (
    allowedParents[operation].includes(parent.record.operation) &&
    parent.record.code === APPROVED &&
    !parent.voided &&
    !(operation === "void" && parent.settlementId !== null)
  );
}

/** A capture or a void of an authorization takes from what it holds: never more. */
const takesFromHold = (request: SimulatedRequest, parent: Entry): boolean =>
  parent.record.operation === "authorization" && (request.operation === "capture" || request.operation === "void");

type SettleableEntry = Entry & { record: Recorded & { operation: SettledItem["type"] } };

/** Whether a batch of `merchantId` settles this transaction: an approved sale, capture or refund of its own, still open. */
function settles(merchantId: string, entry: Entry | undefined): entry is SettleableEntry {
  return (
    entry !== undefined &&
    entry.record.code === APPROVED &&
    isSettledType(entry.record.operation) &&
    entry.record.merchantId === merchantId &&
    !entry.voided &&
    entry.settlementId === null
  );
}

function readLine(line: string, index: number): z.output<typeof lineSchema> {
  try {
    return lineSchema.parse(JSON.parse(line));
  } catch {
    throw new Error(`The simulator's journal has an unreadable line ${index + 1}; it cannot start on it.`);
  }
}

export type Ledger = Awaited<ReturnType<typeof openLedger>>;

/** The ledger kept in `dataDir` (made if missing), or in memory for `memory://` or none. */
export async function openLedger(dataDir: string | undefined) {
  const journal = await openJournal(dataDir);
  const byTransactionId = new Map<string, Entry>();
  const byReference = new Map<string, Entry>();
  const batches = new Map<string, BatchEntry>();
  const key = (processor: Processor, id: string) => `${processor}:${id}`;

  /** Takes a record into memory: the one place both a new answer and a replayed one go through. */
  function remember(record: Recorded, durable: Promise<void>): Entry {
    const approved = record.code === APPROVED;
    const held = approved && record.operation === "authorization" ? record.amount : 0;
    const entry: Entry = { record, voided: false, held, settlementId: null, durable, inquiries: 0 };
    byTransactionId.set(key(record.processor, record.transactionId), entry);
    byReference.set(key(record.processor, record.reference), entry);
    const parent = record.parentTransactionId === null ? undefined : byTransactionId.get(key(record.processor, record.parentTransactionId));
    if (approved && parent) applyToParent(record, parent);
    return entry;
  }

  /** What an approved follow-up does to what its parent holds. */
  function applyToParent(record: Recorded, parent: Entry): void {
    if (parent.record.operation === "authorization") {
      parent.held = Math.max(0, parent.held - record.amount);
      // A void ends the authorization once nothing is left held; a partial one leaves the rest capturable.
      if (record.operation === "void") parent.voided = parent.held === 0;
      return;
    }
    if (record.operation !== "void") return;
    parent.voided = true;
    // A voided capture holds its amount on its authorization again, unless that was let go meanwhile.
    const authorization = parent.record.parentTransactionId === null ? undefined : byTransactionId.get(key(parent.record.processor, parent.record.parentTransactionId));
    if (parent.record.operation === "capture" && authorization && !authorization.voided) authorization.held += parent.record.amount;
  }

  /** Takes a closed batch into memory and settles what it counted, for a new close and a replayed one alike. */
  function rememberBatch(batch: ClosedBatch, durable: Promise<void>): void {
    batches.set(key(batch.processor, batch.batchId), { batch, durable });
    for (const transactionId of batch.settledTransactionIds) {
      const entry = byTransactionId.get(key(batch.processor, transactionId));
      if (entry) entry.settlementId = batch.batchId;
    }
  }

  journal.lines.forEach((text, index) => {
    const line = readLine(text, index);
    if (line.kind === "transaction") {
      const { kind: _transaction, ...record } = line;
      // A processor back from a restart answers inquiries from its records: the lag of its
      // inquiries behind its approvals (card 4000000000000424) is spent, not counted again, so a
      // restart never makes a watched failure read "not found" twice more after its approval.
      remember(record, Promise.resolve()).inquiries = record.notFoundInquiries;
    } else {
      const { kind: _batchClose, ...batch } = line;
      rememberBatch(batch, Promise.resolve());
    }
  });

  function findParent(processor: Processor, ids: readonly string[]): Entry | undefined {
    for (const id of ids) {
      const found = byReference.get(key(processor, id)) ?? byTransactionId.get(key(processor, id));
      if (found) return found;
    }
    return undefined;
  }

  function decide(request: SimulatedRequest): { code: string; hold: boolean; notFoundInquiries: number; parent?: Entry } {
    if (request.operation === "authorization" || request.operation === "sale") {
      return cardBehaviour(request.cardNumber ?? "");
    }
    const parent = findParent(request.processor, request.parentIds ?? []);
    if (!parent) return { code: "25", hold: false, notFoundInquiries: 0 };
    if (!appliesTo(request.operation, parent)) return { code: "12", hold: false, notFoundInquiries: 0, parent };
    const withinHold = !takesFromHold(request, parent) || request.amount <= parent.held;
    return { code: withinHold ? APPROVED : "13", hold: false, notFoundInquiries: 0, parent };
  }

  return {
    /**
     * The answer to an operation, once it is on disk, and whether to hold it back. A repeated
     * transaction id gets its first answer.
     */
    async process(request: SimulatedRequest): Promise<{ answer: SimulatedAnswer; hold: boolean }> {
      const seen = byTransactionId.get(key(request.processor, request.transactionId));
      if (seen) {
        await seen.durable;
        return { answer: seen.record, hold: false };
      }
      // Decided and taken into memory at once, so racing follow-ups see each other.
      const { code, hold, notFoundInquiries, parent } = decide(request);
      const record: Recorded = {
        processor: request.processor,
        transactionId: request.transactionId,
        operation: request.operation,
        amount: request.amount,
        currency: request.currency,
        merchantId: request.merchantId,
        terminalId: request.terminalId,
        parentTransactionId: parent?.record.transactionId ?? null,
        code,
        message: messages[code] ?? "Error",
        authorizationCode: code === APPROVED ? newAuthorizationCode() : null,
        reference: newReference(request.processor),
        notFoundInquiries,
        recordedAt: new Date().toISOString(),
      };
      const entry = remember(record, journal.append(JSON.stringify({ kind: "transaction", ...record })));
      await entry.durable;
      return { answer: record, hold };
    },

    /** What an inquiry about our transaction id answers; `undefined`: not found. */
    async inquire(processor: Processor, transactionId: string): Promise<SimulatedAnswer | undefined> {
      const entry = byTransactionId.get(key(processor, transactionId));
      if (!entry) return undefined;
      await entry.durable;
      if (entry.inquiries < entry.record.notFoundInquiries) {
        entry.inquiries++;
        return undefined;
      }
      return entry.record;
    },

    /**
     * Closes a batch once it is on disk and answers its totals, counted from the processor's own
     * records. Closing the same batch id again answers the totals of the first close.
     */
    async closeBatch(request: SimulatedBatchClose): Promise<BatchSettled> {
      const closed = batches.get(key(request.processor, request.batchId));
      if (closed) {
        await closed.durable;
        return settledOf(closed.batch);
      }
      // Counted and settled in memory at once, so a racing void or batch sees them settled.
      const counted = [...new Set(request.transactionIds)]
        .map((transactionId) => byTransactionId.get(key(request.processor, transactionId)))
        .filter((entry) => settles(request.merchantId, entry))
        .map((entry) => entry.record);
      const batch: ClosedBatch = {
        processor: request.processor,
        batchId: request.batchId,
        merchantId: request.merchantId,
        terminalId: request.terminalId,
        settledTransactionIds: counted.map((record) => record.transactionId),
        totals: totalsOf(counted.map(({ operation, currency, amount }) => ({ type: operation, currency, amount }))),
        closedAt: new Date().toISOString(),
      };
      const durable = journal.append(JSON.stringify({ kind: "batch_close", ...batch }));
      rememberBatch(batch, durable);
      await durable;
      return settledOf(batch);
    },

    /** Everything answered, oldest first: the processor's own record, for reconciliation. */
    transactions(filter: TransactionFilter = {}): SimulatedTransaction[] {
      return [...byTransactionId.values()]
        .filter(({ record }) => filter.approved === undefined || (record.code === APPROVED) === filter.approved)
        .map(({ record: { notFoundInquiries: _internal, ...record }, voided, settlementId, held }) => ({
          ...record,
          voided,
          settlementId,
          heldAmount: held,
        }));
    },

    close: () => journal.close(),
  };
}
