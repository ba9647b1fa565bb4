import { z } from "zod";
import { type CheckpointConfig, checkpointConfigOf, checkpointEnvironment } from "./audit/checkpoint-config.ts";
import { isLoopbackHost, readTlsPair, type TlsFiles } from "./api/tls.ts";
import { describeGivenValue, readSecretFiles } from "./config-secrets.ts";
import { MasterKeyError, parseMasterKeys } from "./crypto/secrets.ts";
import type { DatabaseTimeouts } from "./db/connection.ts";
import { Secret } from "./domain/secret.ts";
import { type TelemetryConfig, telemetryConfigOf, telemetryEnvironment } from "./telemetry/config.ts";
import { parseFingerprintKeys } from "./crypto/card-fingerprint.ts";
import type { SimulatorLatency } from "./processors/simulator/latency.ts";

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** An integer from `min` (to `max`): every refusal says so, whatever was given. */
function integer(min: number, max?: number) {
  const error = max === undefined ? `must be an integer of at least ${min}` : `must be an integer ${min}..${max}`;
  const atLeast = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? atLeast : atLeast.max(max, { error });
}

const milliseconds = integer(1);
const port = integer(0, 65535);
const host = z.string().trim().min(1);
/** Card numbers and processor credentials travel in them: http or https, never another scheme. */
const processorUrl = optionalString.pipe(z.url({ protocol: /^https?$/, error: "must be an https:// URL (http:// outside production)" }).optional());
const flag = optionalString.pipe(z.enum(["true", "false"]).optional()).transform((value) => value === "true");
/** A key or token, held as a `Secret` once it is valid. */
const secretOf = (value: string | undefined) => (value === undefined ? undefined : new Secret(value));

const shareError = "must be a number 0..1";
const share = z.coerce.number({ error: shareError }).min(0, { error: shareError }).max(1, { error: shareError });
/** The simulator's latency model: read by the service, which starts the simulator when no processor URL is set, and by `npm run simulator`. */
const simulatorLatencyEnvironment = {
  SIMULATOR_LATENCY_P50_MS: optionalString.pipe(z.coerce.number<string>().positive().optional()),
  SIMULATOR_LATENCY_P99_MS: optionalString.pipe(z.coerce.number<string>().positive().optional()),
  SIMULATOR_TIMEOUT_RATE: share.default(0),
  SIMULATOR_ERROR_RATE: share.default(0),
};

/** Every variable the service reads (docs/configuration.md documents each: tests/docs/configuration.test.ts). */
export const environmentSchema = z.object({
  PORT: port.default(3000),
  HOST: host.default("127.0.0.1"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional()),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  EVENTSTORE_URL: optionalString.pipe(z.string().regex(/^(esdb|kurrentdb)(\+discover)?:\/\//, "must be a kurrentdb:// (or esdb://) connection string").optional()),
  ADMIN_API_KEY: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()).transform(secretOf),
  SECRETS_MASTER_KEYS: optionalString
    .superRefine((spec, context) => {
      if (spec === undefined) return;
      try {
        parseMasterKeys(spec);
      } catch (error) {
        if (!(error instanceof MasterKeyError)) throw error;
        context.addIssue({ code: "custom", message: `must be id:base64key[,id:base64key...] (${error.message})` });
      }
    })
    .transform(secretOf),
  CARD_FINGERPRINT_KEY: optionalString
    .refine(
      (key) => key === undefined || parsesAsFingerprintKeys(key),
      "must be base64 of at least 32 bytes, or id:base64[,id:base64...] with the active key last",
    )
    .transform(secretOf),
  PROCESSOR_A_URL: processorUrl,
  PROCESSOR_B_URL: processorUrl,
  PROCESSOR_C_URL: processorUrl,
  PROCESSOR_D_URL: processorUrl,
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
  /** `proxy`: a TLS-terminating proxy stands in front, so plain HTTP may listen beyond loopback in production. */
  TLS_TERMINATED_BY: optionalString.pipe(z.enum(["proxy"]).optional()),
  /** `true` lets a production start run on the simulator. */
  SIMULATOR: flag,
  ...simulatorLatencyEnvironment,
  NODE_ENV: optionalString,
  PROCESSOR_TIMEOUT_MS: integer(50, 120_000).default(10_000),
  PENDING_RESOLVER_INTERVAL_MS: integer(10).default(5_000),
  PROCESSOR_OWN_TIMEOUT_SECONDS: integer(0, 86_400).default(120),
  PENDING_REVERSAL_AFTER_SECONDS: integer(0).default(3_600),
  RATE_LIMIT_PER_MINUTE: integer(1).default(6000),
  BODY_LIMIT_BYTES: integer(1).default(64 * 1024),
  IDEMPOTENCY_IN_PROGRESS_TIMEOUT_MS: integer(100).default(60_000),
  LIMIT_SWEEP_INTERVAL_MS: integer(10).default(60_000),
  AUTHORIZATION_TTL_SECONDS: integer(1).default(604_800),
  LIFECYCLE_CHECK_INTERVAL_MS: integer(10).default(30_000),
  SETTLEMENT_RESUME_AFTER_MS: integer(0).default(120_000),
  LIMIT_SWEEP_GRACE_MS: integer(0).default(300_000),
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds.default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds.default(15_000),
  DATABASE_LOCK_TIMEOUT_MS: milliseconds.default(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds.default(60_000),
  REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
  CONNECTION_TIMEOUT_MS: milliseconds.default(60_000),
  MAX_IN_FLIGHT_REQUESTS: integer(1).default(512),
  /** 0 turns shedding on event-loop delay off. */
  MAX_EVENT_LOOP_DELAY_MS: integer(0).default(2_000),
  WEBHOOK_RETRY_BASE_MS: integer(1).default(60_000),
  WEBHOOK_TIMEOUT_MS: integer(10, 60_000).default(10_000),
  WEBHOOK_ALLOW_HTTP: flag,
  WEBHOOK_ALLOW_PRIVATE: flag,
  WEBHOOK_DISPATCH_INTERVAL_MS: integer(10).default(250),
  WEBHOOK_DNS_TIMEOUT_MS: integer(10, 60_000).default(2_000),
  WEBHOOK_LOG_RETENTION_DAYS: integer(1).default(30),
  IDEMPOTENCY_RETENTION_HOURS: integer(1).default(24),
  RETENTION_PURGE_INTERVAL_MS: integer(10).default(60_000),
  SETTLEMENT_SYNC_WAIT_MS: integer(0).default(10_000),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()).transform(secretOf),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ...telemetryEnvironment,
  ...checkpointEnvironment,
});

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded PostgreSQL (PGlite) under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Unset: events are stored in PostgreSQL. */
  eventStoreUrl: string | undefined;
  /** Unset: generated on the first start and printed once. */
  adminApiKey: Secret<string> | undefined;
  /** `id:base64key[,id:base64key…]`, the last one active. Unset: generated into `dataDir`. */
  secretsMasterKeys: Secret<string> | undefined;
  /** base64, at least 32 bytes. Unset: generated into `dataDir`. */
  cardFingerprintKey: Secret<string> | undefined;
  /** `NODE_ENV=production`: every secret given, processors over https, no plain HTTP beyond loopback. */
  production: boolean;
  /** Set: the API serves HTTPS with these files, reloaded when they change. Unset: plain HTTP. */
  tls: TlsFiles | undefined;
  /** Where each processor answers; unset: the built-in simulator is started on loopback. */
  processorUrls: Record<"processor_a" | "processor_b" | "processor_c" | "processor_d", string> | undefined;
  /** The built-in simulator's latency and faults; unset: it answers at once. */
  simulatorLatency: SimulatorLatency | undefined;
  processorTimeoutMs: number;
  pendingResolverIntervalMs: number;
  /**
   * How long a processor may still act on a request it received: a "not found" inquiry answer
   * proves nothing until this has passed since our call could last have reached it.
   */
  processorOwnTimeoutMs: number;
  /** A transaction still pending this long after its intent is reversed (voided) at the processor. */
  pendingReversalAfterMs: number;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  /** How long an Idempotency-Key whose request never answered (its instance died) answers 409. */
  idempotencyInProgressTimeoutMs: number;
  /** How often limit reservations that nothing will give back are looked for. */
  limitSweepIntervalMs: number;
  /** How long an approved authorization can be captured before what is left of it is voided. */
  authorizationTtlMs: number;
  /** How often due batch closes and expiries are looked for. */
  lifecycleCheckIntervalMs: number;
  /** How long a batch may stay open before any instance finishes it: its opener normally does, at once. */
  settlementResumeAfterMs: number;
  /** How long a reservation, and its payment's last event, stand before the sweeper judges them. */
  limitSweepGraceMs: number;
  databaseTimeouts: DatabaseTimeouts;
  /** Longest wait for a request's headers and body (slow clients). */
  requestTimeoutMs: number;
  /** Longest silence on a connection, a running request's included: it exceeds any payment's wait. */
  connectionTimeoutMs: number;
  /** Requests under way at once beyond which new ones are refused with 503. */
  maxInFlightRequests: number;
  /** Mean event-loop delay beyond which new requests are refused with 503; 0: never. */
  maxEventLoopDelayMs: number;
  webhooks: {
    /** Retry n waits about `retryBaseMs * 2^(n-1)`. */
    retryBaseMs: number;
    /** An attempt not answered 2xx within it failed. */
    timeoutMs: number;
    allowHttp: boolean;
    /** Private, loopback and link-local addresses (tests, local receivers). */
    allowPrivate: boolean;
    dispatchIntervalMs: number;
    /** Longest wait for the DNS answer of an endpoint's host name. */
    dnsTimeoutMs: number;
    /** How long delivery records and attempts are kept. */
    logRetentionMs: number;
  };
  /** How long an Idempotency-Key is remembered after its first use. */
  idempotencyRetentionMs: number;
  /** How often expired idempotency records and webhook logs are purged. */
  retentionPurgeIntervalMs: number;
  /** How long a manual settlement close waits for its batch before answering 202. */
  settlementSyncWaitMs: number;
  /** When set, `GET /metrics` requires `Authorization: Bearer <token>`. */
  metricsToken: Secret<string> | undefined;
  logLevel: z.infer<typeof environmentSchema>["LOG_LEVEL"];
  /** Tracing: off unless an OTLP endpoint is set. */
  telemetry: TelemetryConfig;
  /** Anchoring the chain heads: off unless CHECKPOINT_INTERVAL_SECONDS is set. */
  checkpoints: CheckpointConfig;
}

/** What a payment may wait for besides its processor call: its database writes and the read model. */
const CONNECTION_TIMEOUT_MARGIN_MS = 30_000;

type Environment = Record<string, string | undefined>;

function parseEnvironment<Schema extends z.ZodType>(
  schema: Schema,
  environment: Environment,
  secretFiles: ReadonlyMap<string, string> = new Map(),
): z.output<Schema> {
  const parsed = schema.safeParse(environment, { error: whatItMustBe });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join(".");
      return `${name}${describeGivenValue(name, environment[name], secretFiles)} ${issue.message}`;
    });
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/** What a variable must be, in the words of the schema's checks, for those that name no message of their own. */
function whatItMustBe(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_type":
      return issue.expected === "int" ? "must be an integer" : `must be a ${issue.expected}`;
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      return `must be ${issue.inclusive === false ? "more than" : "at least"} ${issue.minimum}`;
    case "too_big":
      return issue.origin === "string" ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    case "invalid_format":
      return issue.format === "url" ? "must be an http:// or https:// URL" : `must match ${issue.format}`;
    default:
      return undefined;
  }
}

/**
 * Reads and validates the environment once; everything else receives the result.
 * `callsProcessors: false` (the ledger CLI) skips the rule that keeps a production start off the simulator.
 */
export function loadConfig(environment: Environment, { callsProcessors = true }: { callsProcessors?: boolean } = {}): Config {
  const secrets = readSecretFiles(environment);
  const env = parseEnvironment(environmentSchema, secrets.environment, secrets.files);
  const production = env.NODE_ENV === "production";
  const [a, b, c, d] = [env.PROCESSOR_A_URL, env.PROCESSOR_B_URL, env.PROCESSOR_C_URL, env.PROCESSOR_D_URL];
  const processorUrls = a && b && c && d ? { processor_a: a, processor_b: b, processor_c: c, processor_d: d } : undefined;
  // A production start that fell back to the simulator would approve test cards and charge no one.
  if (callsProcessors && env.NODE_ENV === "production" && !env.SIMULATOR && !processorUrls) {
    const unset = Object.entries({ PROCESSOR_A_URL: a, PROCESSOR_B_URL: b, PROCESSOR_C_URL: c, PROCESSOR_D_URL: d })
      .filter(([, url]) => !url)
      .map(([name]) => name);
    throw new Error(
      `Invalid configuration: with NODE_ENV=production, set ${unset.join(", ")} (or SIMULATOR=true to run on the processor simulator)`,
    );
  }
  if (!processorUrls && (a || b || c || d)) {
    throw new Error("Invalid configuration: set all of PROCESSOR_A_URL..PROCESSOR_D_URL, or none (simulator)");
  }
  if (callsProcessors && production) refuseUnsafeProduction(env);
  const tls = tlsFilesOf(env);
  // A payment waits for its processor call and then for its writes; a connection timeout that
  // cut it off would leave the client without the outcome.
  if (env.CONNECTION_TIMEOUT_MS < env.PROCESSOR_TIMEOUT_MS + CONNECTION_TIMEOUT_MARGIN_MS) {
    throw new Error(
      `Invalid configuration: CONNECTION_TIMEOUT_MS must be at least PROCESSOR_TIMEOUT_MS + ${CONNECTION_TIMEOUT_MARGIN_MS}`,
    );
  }
  return {
    production,
    tls,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    eventStoreUrl: env.EVENTSTORE_URL,
    adminApiKey: env.ADMIN_API_KEY,
    secretsMasterKeys: env.SECRETS_MASTER_KEYS,
    cardFingerprintKey: env.CARD_FINGERPRINT_KEY,
    processorUrls,
    simulatorLatency: simulatorLatencyOf(env),
    processorTimeoutMs: env.PROCESSOR_TIMEOUT_MS,
    pendingResolverIntervalMs: env.PENDING_RESOLVER_INTERVAL_MS,
    processorOwnTimeoutMs: env.PROCESSOR_OWN_TIMEOUT_SECONDS * 1000,
    pendingReversalAfterMs: env.PENDING_REVERSAL_AFTER_SECONDS * 1000,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    idempotencyInProgressTimeoutMs: env.IDEMPOTENCY_IN_PROGRESS_TIMEOUT_MS,
    limitSweepIntervalMs: env.LIMIT_SWEEP_INTERVAL_MS,
    authorizationTtlMs: env.AUTHORIZATION_TTL_SECONDS * 1000,
    lifecycleCheckIntervalMs: env.LIFECYCLE_CHECK_INTERVAL_MS,
    settlementResumeAfterMs: env.SETTLEMENT_RESUME_AFTER_MS,
    limitSweepGraceMs: env.LIMIT_SWEEP_GRACE_MS,
    databaseTimeouts: {
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      lockMs: env.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: env.CONNECTION_TIMEOUT_MS,
    maxInFlightRequests: env.MAX_IN_FLIGHT_REQUESTS,
    maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS,
    webhooks: {
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      allowHttp: env.WEBHOOK_ALLOW_HTTP,
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
      dispatchIntervalMs: env.WEBHOOK_DISPATCH_INTERVAL_MS,
      dnsTimeoutMs: env.WEBHOOK_DNS_TIMEOUT_MS,
      logRetentionMs: env.WEBHOOK_LOG_RETENTION_DAYS * 86_400_000,
    },
    idempotencyRetentionMs: env.IDEMPOTENCY_RETENTION_HOURS * 3_600_000,
    retentionPurgeIntervalMs: env.RETENTION_PURGE_INTERVAL_MS,
    settlementSyncWaitMs: env.SETTLEMENT_SYNC_WAIT_MS,
    metricsToken: env.METRICS_TOKEN,
    logLevel: env.LOG_LEVEL,
    telemetry: telemetryConfigOf(env),
    checkpoints: checkpointConfigOf(env),
  };
}

type ParsedEnvironment = z.output<typeof environmentSchema>;

/**
 * A production start (not the CLI, which neither listens nor calls processors) refuses what would
 * be unsafe: secrets it would have to generate into DATA_DIR, beside the data; processors reached
 * in cleartext; plain HTTP on an address beyond this machine with no TLS-terminating proxy.
 */
function refuseUnsafeProduction(env: ParsedEnvironment): void {
  const missing = (["SECRETS_MASTER_KEYS", "CARD_FINGERPRINT_KEY", "ADMIN_API_KEY"] as const).filter((name) => env[name] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `Invalid configuration: with NODE_ENV=production, set ${missing.join(", ")} (or ${missing.map((name) => `${name}_FILE`).join(", ")}): ` +
        "secrets are never generated into DATA_DIR in production",
    );
  }
  const cleartext = (["PROCESSOR_A_URL", "PROCESSOR_B_URL", "PROCESSOR_C_URL", "PROCESSOR_D_URL"] as const).filter(
    (name) => env[name] !== undefined && new URL(env[name]).protocol !== "https:",
  );
  if (cleartext.length > 0) {
    throw new Error(
      `Invalid configuration: with NODE_ENV=production, ${cleartext.map((name) => `${name} (given: ${JSON.stringify(env[name])})`).join(", ")} must be ${cleartext.length === 1 ? "an https:// URL" : "https:// URLs"}: ` +
        "card numbers and processor credentials travel in them",
    );
  }
  if (env.TLS_CERT_FILE === undefined && env.TLS_TERMINATED_BY === undefined && !isLoopbackHost(env.HOST)) {
    throw new Error(
      `Invalid configuration: with NODE_ENV=production, HOST=${JSON.stringify(env.HOST)} would serve plain HTTP beyond this machine: ` +
        "set TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY=proxy when a TLS-terminating proxy stands in front (or listen on a loopback HOST)",
    );
  }
}

/** How often the certificate files are looked at for a renewal. */
const TLS_RELOAD_CHECK_MS = 1_000;

/** Both files or neither; both readable, and a certificate with its own key. */
function tlsFilesOf(env: ParsedEnvironment): TlsFiles | undefined {
  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } = env;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new Error(`Invalid configuration: set both TLS_CERT_FILE and TLS_KEY_FILE, or neither (only ${certFile === undefined ? "TLS_KEY_FILE" : "TLS_CERT_FILE"} is set)`);
  }
  try {
    readTlsPair({ certFile, keyFile });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new Error(
      `Invalid configuration: TLS_CERT_FILE, TLS_KEY_FILE (given: ${JSON.stringify(certFile)}, ${JSON.stringify(keyFile)}) ` +
        `must be readable PEM files of a certificate and its private key (${reason})`,
      { cause: error },
    );
  }
  return { certFile, keyFile, reloadCheckMs: TLS_RELOAD_CHECK_MS };
}

/** The variables of `npm run simulator`, the simulator as a process of its own. */
export const simulatorEnvironmentSchema = z.object({
  SIMULATOR_HOST: host.default("127.0.0.1"),
  /** 0 picks a free port. */
  SIMULATOR_PORT: port.default(0),
  SIMULATOR_DATA_DIR: optionalString,
  ...simulatorLatencyEnvironment,
});

/** Where the processor simulator listens, and keeps what it answered, when it runs as a process of its own. */
export interface SimulatorConfig {
  host: string;
  port: number;
  /** Unset or `memory://`: it remembers only while it runs. */
  dataDir: string | undefined;
  /** Unset: it answers at once. */
  latency: SimulatorLatency | undefined;
}

export function loadSimulatorConfig(environment: Environment): SimulatorConfig {
  const env = parseEnvironment(simulatorEnvironmentSchema, environment);
  return { host: env.SIMULATOR_HOST, port: env.SIMULATOR_PORT, dataDir: env.SIMULATOR_DATA_DIR, latency: simulatorLatencyOf(env) };
}

/** Off (undefined) unless a latency or a rate is set; the two percentiles go together. */
function simulatorLatencyOf(env: z.output<z.ZodObject<typeof simulatorLatencyEnvironment>>): SimulatorLatency | undefined {
  const { SIMULATOR_LATENCY_P50_MS: p50Ms, SIMULATOR_LATENCY_P99_MS: p99Ms, SIMULATOR_TIMEOUT_RATE: timeoutRate, SIMULATOR_ERROR_RATE: errorRate } = env;
  if ((p50Ms === undefined) !== (p99Ms === undefined)) {
    throw new Error("Invalid configuration: set both SIMULATOR_LATENCY_P50_MS and SIMULATOR_LATENCY_P99_MS, or neither");
  }
  if (p50Ms !== undefined && p99Ms !== undefined && p99Ms < p50Ms) {
    throw new Error(`Invalid configuration: SIMULATOR_LATENCY_P99_MS (given: ${p99Ms}) must be at least SIMULATOR_LATENCY_P50_MS (given: ${p50Ms})`);
  }
  if (timeoutRate + errorRate > 1) throw new Error("Invalid configuration: SIMULATOR_TIMEOUT_RATE + SIMULATOR_ERROR_RATE must be at most 1");
  if (p50Ms === undefined && timeoutRate === 0 && errorRate === 0) return undefined;
  return { p50Ms: p50Ms ?? 0, p99Ms: p99Ms ?? 0, timeoutRate, errorRate };
}

function parsesAsFingerprintKeys(spec: string): boolean {
  try {
    parseFingerprintKeys(spec);
    return true;
  } catch {
    return false;
  }
}
