import { randomBytes } from "node:crypto";
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import type { OpenAPIV3_1 } from "openapi-types";
import { createFingerprintKeyring } from "../../crypto/card-fingerprint.ts";
import { createRequestHasher } from "../request-hash.ts";
import { createSecretBox } from "../../crypto/secrets.ts";
import type { Database } from "../../db/schema.ts";
import { PostgresEventStore } from "../../eventstore/postgres/event-store.ts";
import { createLogger } from "../../logger.ts";
import { createConnectors } from "../../processors/connectors.ts";
import { createHttpClient } from "../../processors/http.ts";
import { createServerTiming } from "../server-timing.ts";
import { buildApp } from "../app.ts";
import { createMetrics } from "../metrics.ts";
import { createRegistries } from "../../commands/context.ts";
import { ReadYourWrites } from "../../projections/read-your-writes.ts";

/** What the document's app never calls: it only registers routes. */
const unused = async (): Promise<never> => {
  throw new Error("The app that describes the API serves no request.");
};
const nowhere = "http://127.0.0.1:9";

/**
 * The OpenAPI document, from an app built in-process with inert dependencies: routes are
 * registered but never called, so no database, processor or port is needed.
 */
export async function buildApiDocument(): Promise<OpenAPIV3_1.Document> {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const store = new PostgresEventStore(db);
  const http = createHttpClient({ timeoutMs: 1 });
  const fingerprintKeys = createFingerprintKeyring({ activeKeyId: "document", keys: new Map([["document", randomBytes(32)]]) });
  const app = await buildApp({
    logger: createLogger("silent"),
    metricsToken: undefined,
    metrics: createMetrics({ measureLags: unused, countPending: unused, countMismatchedSettlements: unused, measureWebhookQueue: unused }),
    serverTiming: createServerTiming(),
    db,
    store,
    registries: createRegistries(store),
    readYourWrites: new ReadYourWrites(),
    locateTransaction: unused,
    paymentSettingsOf: unused,
    enabledConfigurationsBefore: unused,
    storedCards: { of: unused, use: unused },
    cardVault: { seal: unused, markDeleting: unused, shred: unused },
    paymentsWithCard: { catchUp: unused, anyPendingBetween: unused },
    settlementCandidates: { catchUp: unused, of: unused },
    now: () => new Date(),
    secrets: createSecretBox({ activeKeyId: "document", keys: { document: randomBytes(32) } }),
    connectors: createConnectors({ baseUrls: { processor_a: nowhere, processor_b: nowhere, processor_c: nowhere, processor_d: nowhere }, http }),
    processorTimeoutMs: 1,
    fingerprint: fingerprintKeys.fingerprint,
    webhookUrlPolicy: { allowHttp: false, allowPrivate: false, resolveHost: unused },
    adminKey: { kind: "configured", hash: "" },
    checkReadiness: unused,
    simulatedProcessors: [],
    rateLimitPerMinute: 1,
    bodyLimitBytes: 1,
    requestHasher: createRequestHasher(fingerprintKeys),
    idempotencyInProgressTimeoutMs: 1,
    idempotencyRetentionMs: 1,
    settlement: { syncWaitMs: 1, resumeAfterMs: 1 },
    closeGraceMs: 1,
    requestTimeoutMs: 1,
    connectionTimeoutMs: 1,
    loadShedding: { maxInFlight: 1, maxEventLoopDelayMs: 0 },
  });
  try {
    await app.ready();
    return app.swagger() as OpenAPIV3_1.Document;
  } finally {
    await app.close();
    await http.close();
  }
}
