import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApiDocument } from "../../src/api/openapi/document.ts";
import { startTestService, type TestService } from "../support/service.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

const methods = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

/** Every operation of the document, keyed `GET /v1/me`, with its operationId. */
function operationIds(document: OpenAPIV3_1.Document): { key: string; operationId: string | undefined }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item?.[method];
      return operation ? [{ key: `${method.toUpperCase()} ${path}`, operationId: operation.operationId }] : [];
    }),
  );
}

describe("operationIds", () => {
  it("name every operation, in camelCase, each once: SDK generators make their method names of them", async () => {
    const operations = operationIds(await buildApiDocument());
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.filter(({ operationId }) => !/^[a-z][a-zA-Z0-9]*$/.test(operationId ?? "")), "without a camelCase operationId").toEqual([]);
    const shared = operations.filter(({ key, operationId }) => operations.some((other) => other.operationId === operationId && other.key !== key));
    expect(shared, "operationIds given to more than one operation").toEqual([]);
  });

  it("are the stable names the typed client and its users know", async () => {
    const byKey = Object.fromEntries(operationIds(await buildApiDocument()).map(({ key, operationId }) => [key, operationId]));
    expect(byKey).toMatchObject({
      "POST /v1/transactions/sale": "createSale",
      "POST /v1/transactions/capture": "createCapture",
      "GET /v1/transactions/{id}": "getTransaction",
      "GET /v1/transactions": "listTransactions",
      "POST /v1/host-configurations/processor_a": "createProcessorAHostConfiguration",
      "POST /v1/host-configurations/processor_d/{id}/settle": "closeProcessorDSettlementBatch",
      "GET /health/ready": "getReadiness",
      "GET /metrics": "getMetrics",
    });
  });
});

/**
 * The document as generators and linters read it: GET /openapi.json of a running service, linted by
 * Redocly CLI with the recommended rules and the exceptions redocly.yaml justifies, one by one.
 * One service, on PGlite: the document does not depend on the database (openapi-examples.test.ts
 * holds the served document equal to the one built in-process, on every database).
 */
describe("redocly lint of GET /openapi.json", () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService("pglite");
  });
  afterAll(() => api?.stop());

  it("finds no error and no warning", async () => {
    const served = await fetch(`${api.url}/openapi.json`);
    expect(served.status).toBe(200);
    const { stdout } = await run(
      "npx",
      ["--no", "redocly", "lint", `${api.url}/openapi.json`, "--config", "redocly.yaml", "--format", "json", "--max-problems", "1000"],
      // No usage reports and no update check: the run must not depend on the network.
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      // Exit code 1 on errors: the report on stdout says which.
      if (!error.stdout) throw new Error(`redocly lint did not run: ${error.stderr}`);
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(({ ruleId, severity, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer}: ${message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
