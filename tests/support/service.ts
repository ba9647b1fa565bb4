import { Writable } from "node:stream";
import { type Config, loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { openTestDatabase, type TestDatabase, type TestDatabaseTarget } from "./database.ts";
import { testEnvironment } from "./environment.ts";

export const TEST_ADMIN_KEY = "test-admin-key-0123456789abcdefghijklmnopqrstuvwxyz";

/** Shared by every instance a test starts on one database, so each can read what another wrote. */
export const testSecrets = {
  SECRETS_MASTER_KEYS: "test:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
  CARD_FINGERPRINT_KEY: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
};

/** The service's configuration in a test: a free loopback port, in-memory files, the test keys. */
export function testConfig(databaseUrl: string | undefined, environment: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: "0",
    DATA_DIR: "memory://",
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    DATABASE_URL: databaseUrl,
    // Batches close and authorizations expire on the real clock too: only a test that moves the
    // clock has them looked for more than once, at start, before it made anything.
    LIFECYCLE_CHECK_INTERVAL_MS: "3600000",
    ...testSecrets,
    ...(testEnvironment.journeysEventStoreUrl === undefined ? {} : { EVENTSTORE_URL: testEnvironment.journeysEventStoreUrl }),
    ...environment,
  });
}

/** The environment that sends all four processors' calls to one simulator. */
export function everyProcessorAt(url: string): Record<string, string> {
  return { PROCESSOR_A_URL: url, PROCESSOR_B_URL: url, PROCESSOR_C_URL: url, PROCESSOR_D_URL: url };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read any field of a JSON answer
  text: string;
}

/** A parsed JSON answer or webhook body, whose any field an assertion may read. */
export type Json = ApiResponse["body"];

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestService {
  url: string;
  database: TestDatabase;
  /** Every log line the service wrote. */
  logs: () => string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Creates a client and a key for it. */
  createClient(name?: string): Promise<{ clientId: string; key: string; keyId: string }>;
  /** Stops the service and starts it again on the same database. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A log destination that keeps every line, for tests that read what the service logged. */
export function capturedLogs(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

/** One API call to the service at `baseUrl`, as the admin unless `key` says otherwise; JSON in and out. */
export async function apiRequest(
  baseUrl: string,
  method: string,
  path: string,
  { key = TEST_ADMIN_KEY, body, headers = {} }: RequestOptions = {},
): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the test reads `text`.
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** The configuration of a service a test starts on `databaseUrl` (testConfig), with `environment` over it. */
function instanceConfig(databaseUrl: string | undefined, environment: Record<string, string>): Config {
  // Long enough that a busy machine's slow answer is not taken for a processor that never answers;
  // the timeout cards are held far longer.
  return testConfig(databaseUrl, { PROCESSOR_TIMEOUT_MS: "2000", PENDING_RESOLVER_INTERVAL_MS: "200", ...environment });
}

/** The real service on a fresh database, listening on a free loopback port. */
export async function startTestService(
  target: TestDatabaseTarget,
  environment: Record<string, string> = {},
  /**
   * `now`: the service's clock, for tests that move time (settlement, expiry). `gaugeRefreshMs`:
   * how often the database gauges of /metrics are read; 250 ms here, so a test sees them follow.
   * `projections`: `"elsewhere"` leaves them to a projector the test starts. `openStore`: the
   * event store, opened anew at each start.
   */
  options: Parameters<typeof startService>[3] = {},
): Promise<TestService> {
  const database = await openTestDatabase(target);
  const { lines, sink } = capturedLogs();
  const config = instanceConfig(database.url, environment);
  // The service must not close the database: the test owns it, and may restart the service on it.
  const start = () => startService(config, createLogger("info", sink), { ...database, close: async () => {} }, {
    gaugeRefreshMs: 250,
    ...options,
  });
  let service: Service = await start();
  const api: TestService = {
    get url() {
      return service.url;
    },
    database,
    logs: () => lines.join(""),
    request: (method, path, options) => apiRequest(service.url, method, path, options),
    async createClient(name = "Acme") {
      const client = await api.request("POST", "/v1/clients", { body: { name } });
      if (client.status !== 201) throw new Error(`client creation failed: ${client.text}`);
      const issued = await api.request("POST", `/v1/clients/${client.body.id}/api-keys`, { body: {} });
      if (issued.status !== 201) throw new Error(`key creation failed: ${issued.text}`);
      return { clientId: client.body.id, key: issued.body.key, keyId: issued.body.id };
    },
    async restart() {
      await service.stop();
      service = await start();
    },
    async stop() {
      await service.stop();
      await database.close();
    },
  };
  return api;
}

export interface TwoInstances {
  /** The first instance, on a fresh database; it owns that database. */
  first: TestService;
  /** The second, on the first's database, with its own projection runners and memory of its writes; its log is silent. */
  second: Service;
  /** Stops the second, then the first (and its database). */
  stop(): Promise<void>;
}

/**
 * Two instances of the service on one database, as two processes behind a load balancer, both
 * configured by `environment`. On PostgreSQL the second opens its own pool to the server; on PGlite
 * it shares the first's database in this process, as a second process shares a PostgreSQL server.
 * `secondOptions`: startService's options of the second (its event store, for a test that holds
 * its appends).
 */
export async function startTwoInstances(
  target: TestDatabaseTarget,
  environment: Record<string, string> = {},
  secondOptions: Parameters<typeof startService>[3] = {},
): Promise<TwoInstances> {
  const first = await startTestService(target, environment);
  try {
    const shared = target === "pglite" ? { ...first.database, close: async () => {} } : undefined;
    const second = await startService(instanceConfig(first.database.url, environment), createLogger("silent"), shared, secondOptions);
    return {
      first,
      second,
      async stop() {
        await second.stop();
        await first.stop();
      },
    };
  } catch (error) {
    await first.stop();
    throw error;
  }
}
