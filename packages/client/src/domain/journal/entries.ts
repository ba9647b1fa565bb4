// Copied from the service's src/domain/journal/entries.ts by `npm run client:generate`: do not edit.

import type { Processor } from "../processors.js";
import { v5 } from "uuid";
import { type JournalAccount, type JournalLine, lineOf } from "./accounts.js";

/** What made an entry: the movement of money its event records. */
export const entryKinds = [
  "authorization_approved",
  "sale_approved",
  "capture_approved",
  "refund_approved",
  "authorization_voided",
  "authorization_released",
  "authorization_expired",
  "sale_voided",
  "capture_voided",
  "late_approval",
  "reversal",
  "transaction_settled",
  "settlement_difference",
] as const;
export type EntryKind = (typeof entryKinds)[number];

/** The event an entry names: the one that caused it. */
export interface EventRef {
  id: string;
  type: string;
  position: bigint;
}

/** A balanced journal entry: every line in the entry's currency, debits equal to credits. */
export interface JournalEntry {
  id: string;
  kind: EntryKind;
  clientId: string;
  processor: Processor;
  currency: string;
  /** The payment (its root transaction's id) whose event posted it; null for a settlement's own entry. */
  paymentId: string | null;
  transactionId: string | null;
  /** The batch: for a transaction it settled, and for the batch's difference. */
  settlementId: string | null;
  occurredAt: string;
  eventId: string;
  eventType: string;
  eventPosition: bigint;
  lines: JournalLine[];
}

const ENTRY_NAMESPACE = "5b0e3f8a-2d61-4c7e-9f1a-7c2b8e4d6a10";

/** The same entry id for the same event however often it is posted (an event posts at most one entry per currency). */
export const entryIdOf = (eventId: string, index: number) => (index === 0 ? eventId : v5(`${eventId}/${index}`, ENTRY_NAMESPACE));

/** The lines for these changes of balance (each told on its account's normal side), zero changes left out. */
export function linesOf(processor: Processor, currency: string, changes: readonly [JournalAccount, number][]): JournalLine[] {
  return changes.map(([account, amount]) => lineOf(account, processor, currency, amount)).filter((line) => line !== undefined);
}

export const debitsOf = (lines: readonly JournalLine[]) => lines.reduce((total, line) => total + line.debit, 0);
export const creditsOf = (lines: readonly JournalLine[]) => lines.reduce((total, line) => total + line.credit, 0);
