import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { ResolverWork, TransactionStateName, TransactionStatus, TransactionType, TransactionView } from "../../domain/payments/index.ts";
import { newestFirst, type TimeKey } from "../newest-first.ts";

/**
 * Every read of the transactions read model outside its projection: the API's, the jobs' and the
 * auditors'. The columns they select on are the projection's (`transactions-projection.ts`), and
 * its given/when/then test (`tests/projections/transactions-projection.test.ts`) pins them.
 */

/** A transaction's row: its API view and the payment stream it lives in. Another client's is none. */
export async function findTransaction(
  db: Kysely<Database>,
  transactionId: string,
  clientId?: string,
): Promise<{ paymentId: string; view: TransactionView } | undefined> {
  const row = await db
    .selectFrom("transactions")
    .select(["view", "payment_id"])
    .where("transaction_id", "=", transactionId)
    .$if(clientId !== undefined, (query) => query.where("client_id", "=", clientId!))
    .executeTakeFirst();
  return row && { paymentId: row.payment_id, view: row.view };
}

/** What a history request filters on; time bounds as instants. */
export interface TransactionFilter {
  clientId?: string | undefined;
  userId?: string | undefined;
  type?: TransactionType | undefined;
  status?: TransactionStatus | undefined;
  state?: TransactionStateName | undefined;
  parentTransactionId?: string | undefined;
  processor?: Processor | undefined;
  currency?: string | undefined;
  reference?: string | undefined;
  paymentMethodId?: string | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  amountMin?: number | undefined;
  amountMax?: number | undefined;
}

/**
 * A page of the transactions a filter selects, newest first on (`created_at`, `transaction_id`),
 * each with its view as the projection's own JSON text.
 */
export function transactionsMatching(db: Kysely<Database>, filter: TransactionFilter, after: TimeKey | undefined, limit: number) {
  const matching = db
    .selectFrom("transactions")
    .select(["transaction_id", "created_at", sql<string>`view::text`.as("view")])
    .$if(filter.clientId !== undefined, (q) => q.where("client_id", "=", filter.clientId!))
    .$if(filter.userId !== undefined, (q) => q.where("user_id", "=", filter.userId!))
    .$if(filter.type !== undefined, (q) => q.where("type", "=", filter.type!))
    .$if(filter.status !== undefined, (q) => q.where("status", "=", filter.status!))
    .$if(filter.state !== undefined, (q) => q.where("state", "=", filter.state!))
    .$if(filter.parentTransactionId !== undefined, (q) => q.where("parent_transaction_id", "=", filter.parentTransactionId!))
    .$if(filter.processor !== undefined, (q) => q.where("processor", "=", filter.processor!))
    .$if(filter.currency !== undefined, (q) => q.where("currency", "=", filter.currency!))
    .$if(filter.reference !== undefined, (q) => q.where("reference", "=", filter.reference!))
    .$if(filter.paymentMethodId !== undefined, (q) => q.where(sql`view->>'paymentMethodId'`, "=", filter.paymentMethodId!))
    .$if(filter.createdFrom !== undefined, (q) => q.where("created_at", ">=", filter.createdFrom!))
    .$if(filter.createdTo !== undefined, (q) => q.where("created_at", "<=", filter.createdTo!))
    .$if(filter.amountMin !== undefined, (q) => q.where("amount", ">=", String(filter.amountMin!)))
    .$if(filter.amountMax !== undefined, (q) => q.where("amount", "<=", String(filter.amountMax!)));
  return newestFirst(matching, ["created_at", "transaction_id"], after, limit).execute();
}

/** The payments a client made with a payment method, oldest first: their intents record its uses. */
export async function paymentsMadeWith(db: Kysely<Database>, clientId: string, paymentMethodId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("transactions")
    .select("payment_id")
    .where("client_id", "=", clientId)
    .where(sql`view->>'paymentMethodId'`, "=", paymentMethodId)
    .orderBy("created_at")
    .orderBy("transaction_id")
    .execute();
  return rows.map((row) => row.payment_id);
}

/** A page of the transactions a settlement batch settled, by id descending, after `after` when given; `limit + 1` rows tell whether more follow. */
export async function settledTransactions(
  db: Kysely<Database>,
  settlementId: string,
  after: string | undefined,
  limit: number,
): Promise<{ transactionId: string; view: TransactionView }[]> {
  const rows = await db
    .selectFrom("settlement_transactions")
    .innerJoin("transactions", "transactions.transaction_id", "settlement_transactions.transaction_id")
    .select(["settlement_transactions.transaction_id", "transactions.view"])
    .where("settlement_transactions.settlement_id", "=", settlementId)
    // The batch's candidates, those settled in it: few are ever left out, so the scan of the
    // primary key stops soon after a page's worth.
    .where(sql<string>`transactions.view->>'settlementId'`, "=", settlementId)
    .$if(after !== undefined, (page) => page.where("settlement_transactions.transaction_id", "<", after!))
    .orderBy("settlement_transactions.transaction_id", "desc")
    .limit(limit + 1)
    .execute();
  return rows.map((row) => ({ transactionId: row.transaction_id, view: row.view }));
}

/** How many transactions the pending resolver has each kind of work for. */
export async function countResolverWork(db: Kysely<Database>): Promise<Record<ResolverWork, number>> {
  const rows = await db
    .selectFrom("transactions")
    .select(["resolver_work", (select) => select.fn.countAll<string>().as("count")])
    .where("resolver_work", "is not", null)
    .groupBy("resolver_work")
    .execute();
  const counts: Record<ResolverWork, number> = { inquire: 0, reverse: 0, watch: 0 };
  for (const row of rows) if (row.resolver_work) counts[row.resolver_work] = Number(row.count);
  return counts;
}

/** Where the pending resolver's scan stands: the last row it took. */
export interface ResolverCursor {
  createdAt: Date;
  transactionId: string;
}

/**
 * The next transactions the pending resolver has work for, made before `youngest`, after the
 * cursor, in (created_at, transaction_id) order.
 */
export function resolverWorkAfter(db: Kysely<Database>, youngest: Date, cursor: ResolverCursor | undefined, limit: number) {
  return db
    .selectFrom("transactions")
    .select(["transaction_id", "payment_id", "created_at"])
    .where("resolver_work", "is not", null)
    .where("created_at", "<", youngest)
    .$if(cursor !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb("created_at", ">", cursor!.createdAt),
          eb.and([eb("created_at", "=", cursor!.createdAt), eb("transaction_id", ">", cursor!.transactionId)]),
        ]),
      ),
    )
    .orderBy("created_at")
    .orderBy("transaction_id")
    .limit(limit)
    .execute();
}

/**
 * Authorizations capturable since `before` or earlier, oldest first: those due to expire. One
 * with a capture (or a capture's void) still unanswered expires once it is answered (the
 * payment's decider refuses it until then): left out here, it never crowds out the others.
 */
export function authorizationsCapturableSince(db: Kysely<Database>, before: Date, limit: number) {
  return db
    .selectFrom("transactions")
    .select(["transaction_id as transactionId", "payment_id as paymentId", "client_id as clientId", "host_configuration_id as hostConfigurationId"])
    .where("capturable_since", "<=", before)
    .where(
      sql<boolean>`not exists (
        select from transactions capture
        where capture.parent_transaction_id = transactions.transaction_id and capture.type = 'capture'
          and (capture.status = 'pending' or exists (
            select from transactions capture_void
            where capture_void.parent_transaction_id = capture.transaction_id and capture_void.status = 'pending'))
      )`,
    )
    .orderBy("capturable_since")
    .limit(limit)
    .execute();
}

/** Of these transactions, those that hold their client's limit: pending, or approved and not voided; with when each was made. */
export function transactionsHoldingLimits(db: Kysely<Database>, transactionIds: string[]) {
  return db
    .selectFrom("transactions")
    .select(["transaction_id", "created_at"])
    .where("transaction_id", "in", transactionIds)
    .where((where) =>
      where.or([where("status", "=", "pending"), where.and([where("status", "=", "approved"), sql<boolean>`view->>'voided' = 'false'`])]),
    )
    .execute();
}
