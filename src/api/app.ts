import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AdminKey } from "../auth/admin-key.ts";
import { createBrokenLinkAlarm } from "../audit/broken-link-alarm.ts";
import type { Logger } from "../logger.ts";
import { registerAuthentication } from "./auth.ts";
import { keyUseRecorder } from "../auth/last-use.ts";
import { gracefulCloseOptions, registerGracefulClose } from "./graceful-close.ts";
import { registerIdempotency } from "./idempotency.ts";
import { type LoadSheddingOptions, registerLoadShedding } from "./load-shedding.ts";
import { type Metrics, registerMetrics, registerMetricsRoute } from "./metrics.ts";
import { registerApiReference } from "./openapi/reference.ts";
import { answerFrameworkError, ApiProblem, registerProblemHandling } from "./problems.ts";
import { requestIdOf } from "./request-id.ts";
import { registerRequestLog } from "./request-log.ts";
import { registerSecurityHeaders } from "./security-headers.ts";
import type { ServerTiming } from "./server-timing.ts";
import { registerStorableText } from "./storable-text.ts";
import { registerBodyParsing } from "./body-parsing.ts";
import { registerConsole } from "./console.ts";
import { auditRoutes } from "./routes/audit.ts";
import { clientRoutes } from "./routes/clients.ts";
import { type HealthDependencies, registerHealth } from "./routes/health.ts";
import { historyRoutes } from "./routes/history.ts";
import { journalRoutes } from "./routes/journal.ts";
import { operationsRoutes } from "./routes/operations.ts";
import { paymentMethodRoutes } from "./routes/payment-methods.ts";
import { hostConfigurationRoutes } from "./routes/host-configurations.ts";
import type { EnabledConfigurationsBefore } from "../commands/host-configurations.ts";
import type { CardVault } from "../commands/payment-methods/card-vault.ts";
import type { PaymentsWithCard } from "../commands/payment-methods/payment-methods.ts";
import { registerPublishedCheckpointKeys } from "./routes/published-checkpoint-keys.ts";
import { registerServiceIndex } from "./routes/service-index.ts";
import { type SettlementRouteDependencies, settlementRoutes } from "./routes/settlements.ts";
import { transactionRoutes } from "./routes/transactions.ts";
import type { TransactionRouteDependencies } from "./routes/dependencies.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import type { ServerOptions as HttpsServerOptions } from "node:https";
import type { UrlPolicy } from "../webhooks/destination.ts";
import { registerRequestTracing } from "../telemetry/requests.ts";
import { type Tracing, tracingOff } from "../telemetry/tracing.ts";
import type { RequestHasher } from "./request-hash.ts";
import type { Secret } from "../domain/secret.ts";

export interface AppDependencies extends TransactionRouteDependencies, SettlementRouteDependencies, HealthDependencies {
  logger: Logger;
  /** When on, each request is a trace (or a span of its caller's). */
  tracing?: Tracing;
  metrics: Metrics;
  serverTiming: ServerTiming;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: Secret<string> | undefined;
  adminKey: AdminKey;
  /** Requests per minute per API key. */
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  /** Keys the hash of an idempotent request, so a stored hash reveals nothing of its body. */
  requestHasher: RequestHasher;
  /** How long an Idempotency-Key whose request never answered stays in progress. */
  idempotencyInProgressTimeoutMs: number;
  /** How long an Idempotency-Key is remembered after its first use. */
  idempotencyRetentionMs: number;
  /** How long close() lets the requests it finds running finish before it cuts them off. */
  closeGraceMs: number;
  /** Longest wait for a request's headers and body. */
  requestTimeoutMs: number;
  /** Longest silence on a connection, a running request's included. */
  connectionTimeoutMs: number;
  loadShedding: LoadSheddingOptions;
  /** Which webhook URLs endpoints may name. */
  webhookUrlPolicy: UrlPolicy;
  enabledConfigurationsBefore: EnabledConfigurationsBefore;
  cardVault: CardVault;
  paymentsWithCard: PaymentsWithCard;
  /** Set: the server speaks HTTPS with these options (`./tls.ts`); unset: plain HTTP. */
  https?: HttpsServerOptions;
}

/** The HTTP application, built without listening so tests can drive it in-process. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    // Fastify's own request lines are off: `registerRequestLog` writes one a request.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    bodyLimit: deps.bodyLimitBytes,
    frameworkErrors: answerFrameworkError,
    requestTimeout: deps.requestTimeoutMs,
    connectionTimeout: deps.connectionTimeoutMs,
    ...gracefulCloseOptions,
    ...(deps.https && { https: deps.https }),
  }).withTypeProvider<ZodTypeProvider>();
  if (deps.tracing?.enabled) registerRequestTracing(app, deps.tracing.tracer);
  // First, so that its preHandler runs before any other (the idempotency claim writes).
  registerGracefulClose(app, deps.closeGraceMs);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  registerSecurityHeaders(app);
  registerRequestLog(app);
  registerProblemHandling(app);
  registerBodyParsing(app);
  registerStorableText(app);
  registerMetrics(app, deps.metrics);
  const brokenLinks = createBrokenLinkAlarm({ logger: deps.logger, count: deps.metrics.countBrokenLink });

  await registerApiReference(app);

  registerServiceIndex(app);
  registerHealth(app, deps);
  registerPublishedCheckpointKeys(app, deps.store);
  registerMetricsRoute(app, deps.metrics, deps.metricsToken);

  await registerConsole(app);

  await app.register(
    async (v1) => {
      deps.serverTiming.register(v1);
      await registerLoadShedding(v1, deps.loadShedding);
      await v1.register(rateLimit, {
        max: deps.rateLimitPerMinute,
        timeWindow: 60_000,
        // Per API key (its hash, never the key), falling back to the address for unauthenticated calls.
        keyGenerator: (request) => {
          const authorization = request.headers.authorization;
          return authorization ? createHash("sha256").update(authorization).digest("hex") : request.ip;
        },
        errorResponseBuilder: (_request, context) =>
          new ApiProblem("rate_limited", `Too many requests; retry in ${context.after}.`),
      });
      registerAuthentication(v1, deps.db, deps.adminKey, keyUseRecorder(deps));
      registerIdempotency(v1, {
        db: deps.db,
        requestHasher: deps.requestHasher,
        inProgressTimeoutMs: deps.idempotencyInProgressTimeoutMs,
        retentionMs: deps.idempotencyRetentionMs,
        tracer: (deps.tracing ?? tracingOff).tracer,
      });
      await v1.register(clientRoutes, deps);
      await v1.register(hostConfigurationRoutes, deps);
      await v1.register(transactionRoutes, { ...deps, brokenLinks });
      await v1.register(paymentMethodRoutes, { ...deps, brokenLinks });
      await v1.register(historyRoutes, deps);
      await v1.register(auditRoutes, { ...deps, brokenLinks });
      await v1.register(settlementRoutes, deps);
      await v1.register(journalRoutes, deps);
      await v1.register(webhookRoutes, deps);
      await v1.register(operationsRoutes, deps);
    },
    { prefix: "/v1" },
  );

  return app;
}
