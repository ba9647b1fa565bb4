import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import * as eventStore from "./0001-event-store.ts";
import * as clientsAndIdempotency from "./0002-clients-and-idempotency.ts";
import * as hostConfigurations from "./0003-host-configurations.ts";
import * as payments from "./0004-payments.ts";
import * as clientLimits from "./0006-client-limits.ts";
import * as historyIndexes from "./0007-history-indexes.ts";
import * as resolverWork from "./0008-resolver-work.ts";
import * as idempotencyClaims from "./0009-idempotency-claims.ts";
import * as settlementAndExpiry from "./0010-settlement-and-expiry.ts";
import * as webhooks from "./0011-webhooks.ts";
import * as apiKeyPrefixes from "./0012-api-key-prefixes.ts";
import * as failureReasons from "./0013-failure-reasons.ts";
import * as defaultHostConfigurations from "./0014-default-host-configurations.ts";
import * as jsonReadModels from "./0015-json-read-models.ts";
import * as resolverLastPass from "./0016-resolver-last-pass.ts";
import * as webhookOrder from "./0017-webhook-order.ts";
import * as settlementTransactions from "./0018-settlement-transactions.ts";
import * as idempotencyRetention from "./0019-idempotency-retention.ts";
import * as webhookUpkeep from "./0020-webhook-upkeep.ts";
import * as transactionState from "./0021-transaction-state.ts";
import * as paymentMethods from "./0022-payment-methods.ts";
import * as webhookTraceContext from "./0023-webhook-trace-context.ts";
import * as idempotencyResource from "./0024-idempotency-resource.ts";
import * as cardData from "./0025-card-data.ts";
import * as settlementLists from "./0026-settlement-lists.ts";
import * as apiKeyNames from "./0027-api-key-names.ts";
import * as paymentMethodUses from "./0028-payment-method-uses.ts";
import * as journal from "./0029-journal.ts";
import * as dropPaymentMethodUses from "./0030-drop-payment-method-uses.ts";
import * as crossProcessWakes from "./0031-cross-process-wakes.ts";

const migrations: Record<string, Migration> = {
  "0001-event-store": eventStore,
  "0002-clients-and-idempotency": clientsAndIdempotency,
  "0003-host-configurations": hostConfigurations,
  "0004-payments": payments,
  "0006-client-limits": clientLimits,
  "0007-history-indexes": historyIndexes,
  "0008-resolver-work": resolverWork,
  "0009-idempotency-claims": idempotencyClaims,
  "0010-settlement-and-expiry": settlementAndExpiry,
  "0011-webhooks": webhooks,
  "0012-api-key-prefixes": apiKeyPrefixes,
  "0013-failure-reasons": failureReasons,
  "0014-default-host-configurations": defaultHostConfigurations,
  "0015-json-read-models": jsonReadModels,
  "0016-resolver-last-pass": resolverLastPass,
  "0017-webhook-order": webhookOrder,
  "0018-settlement-transactions": settlementTransactions,
  "0019-idempotency-retention": idempotencyRetention,
  "0020-webhook-upkeep": webhookUpkeep,
  "0021-transaction-state": transactionState,
  "0022-payment-methods": paymentMethods,
  "0023-webhook-trace-context": webhookTraceContext,
  "0024-idempotency-resource": idempotencyResource,
  "0025-card-data": cardData,
  "0026-settlement-lists": settlementLists,
  "0027-api-key-names": apiKeyNames,
  "0028-payment-method-uses": paymentMethodUses,
  "0029-journal": journal,
  "0030-drop-payment-method-uses": dropPaymentMethodUses,
  "0031-cross-process-wakes": crossProcessWakes,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** PostgreSQL's undefined_table: a database no migration has run on yet. */
const UNDEFINED_TABLE = "42P01";

/**
 * Whether the applied migrations are exactly these: one read, where the migrator inspects every
 * table of the schema and takes its lock before it finds there is nothing to do (0.1-0.5 s of
 * each start on the embedded database).
 */
async function isUpToDate(db: Kysely<unknown>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === Object.keys(migrations).length && Object.keys(migrations).every((name) => applied.has(name));
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return false;
    throw error;
  }
}

/** Brings the schema up to date; the same migrations serve PostgreSQL and PGlite. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  if (await isUpToDate(db)) return;
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    throw new Error(`Migration ${failed ?? "(unknown)"} failed`, { cause: error });
  }
}
