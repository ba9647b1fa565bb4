import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createTestCa } from "./support/certificates.ts";
import { everyProcessorAt, testSecrets } from "./support/service.ts";

const adminKey = "admin-key-from-a-file-0123456789abcdef";
/** A production environment that passes: every secret, processors over https, loopback. */
const production = {
  NODE_ENV: "production",
  ...testSecrets,
  ADMIN_API_KEY: adminKey,
  ...everyProcessorAt("https://processor.example"),
};

let dir: string;
let tls: { certFile: string; keyFile: string };
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ledger-config-secrets-"));
  tls = await (await createTestCa()).issue("server");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(path.dirname(tls.certFile), { recursive: true, force: true });
});

async function secretFile(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

describe("<NAME>_FILE", () => {
  it("reads every secret from the file its _FILE names, without the trailing line break", async () => {
    const config = loadConfig({
      ADMIN_API_KEY_FILE: await secretFile("admin", `${adminKey}\n`),
      SECRETS_MASTER_KEYS_FILE: await secretFile("master", `${testSecrets.SECRETS_MASTER_KEYS}\r\n`),
      CARD_FINGERPRINT_KEY_FILE: await secretFile("fingerprint", testSecrets.CARD_FINGERPRINT_KEY),
      METRICS_TOKEN_FILE: await secretFile("metrics", "metrics-token-0123456789\n"),
      DATABASE_URL_FILE: await secretFile("database", "postgres://ledger:s3cret@db.example:5432/ledger?sslmode=verify-full\n"),
      EVENTSTORE_URL_FILE: await secretFile("eventstore", "esdb://es.example:2113?tls=true&tlsCAFile=/run/ca.crt\n"),
    });
    const { adminApiKey, secretsMasterKeys, cardFingerprintKey, metricsToken } = config;
    expect([adminApiKey, secretsMasterKeys, cardFingerprintKey, metricsToken].map((secret) => secret?.expose())).toEqual([
      adminKey,
      testSecrets.SECRETS_MASTER_KEYS,
      testSecrets.CARD_FINGERPRINT_KEY,
      "metrics-token-0123456789",
    ]);
    expect(config).toMatchObject({
      databaseUrl: "postgres://ledger:s3cret@db.example:5432/ledger?sslmode=verify-full",
      eventStoreUrl: "esdb://es.example:2113?tls=true&tlsCAFile=/run/ca.crt",
    });
    // The keys and tokens are secrets from here on: the configuration prints nothing of them.
    const printed = `${JSON.stringify(config)} ${inspect(config, { depth: Infinity })}`;
    for (const secret of [adminKey, testSecrets.SECRETS_MASTER_KEYS, testSecrets.CARD_FINGERPRINT_KEY, "metrics-token-0123456789"]) {
      expect(printed).not.toContain(secret);
    }
  });

  it("refuses a secret given both ways, naming both", async () => {
    const file = await secretFile("admin-both", adminKey);
    expect(() => loadConfig({ ADMIN_API_KEY: adminKey, ADMIN_API_KEY_FILE: file })).toThrow(
      "Invalid configuration: set ADMIN_API_KEY or ADMIN_API_KEY_FILE, not both",
    );
  });

  it("refuses a file that cannot be read or is empty, naming the variable and the file", async () => {
    const missing = path.join(dir, "no-such-file");
    expect(() => loadConfig({ METRICS_TOKEN_FILE: missing })).toThrow(
      `Invalid configuration: METRICS_TOKEN_FILE: ${JSON.stringify(missing)} cannot be read (ENOENT)`,
    );
    const empty = await secretFile("empty", "\n");
    expect(() => loadConfig({ METRICS_TOKEN_FILE: empty })).toThrow(`METRICS_TOKEN_FILE: ${JSON.stringify(empty)} is empty`);
  });

  it("names a bad secret's variable and file but masks its value; a plain variable's value is shown", async () => {
    const file = await secretFile("short-token", "token-too-short\n");
    expect(() => loadConfig({ METRICS_TOKEN_FILE: file })).toThrow(
      `Invalid configuration: METRICS_TOKEN (from METRICS_TOKEN_FILE=${JSON.stringify(file)}: 15 characters, masked) must be at least 16 characters`,
    );
    expect(() => loadConfig({ METRICS_TOKEN_FILE: file })).not.toThrow(/token-too-short/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db" })).toThrow(/DATABASE_URL \(23 characters, masked\) must be a postgres:\/\/ URL$/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://root:hunter2@db" })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ PORT: "abc" })).toThrow(/PORT="abc" must be an integer 0\.\.65535$/);
  });
});

describe("a production start refuses what is unsafe", () => {
  it("starts with every secret given, https processors and a loopback HOST", () => {
    expect(loadConfig(production)).toMatchObject({ production: true, tls: undefined, host: "127.0.0.1" });
  });

  it("refuses each missing secret by name instead of generating it into DATA_DIR", () => {
    for (const name of ["SECRETS_MASTER_KEYS", "CARD_FINGERPRINT_KEY", "ADMIN_API_KEY"]) {
      expect(() => loadConfig({ ...production, [name]: "" })).toThrow(
        `Invalid configuration: with NODE_ENV=production, set ${name} (or ${name}_FILE): secrets are never generated into DATA_DIR in production`,
      );
    }
    expect(() => loadConfig({ NODE_ENV: "production", SIMULATOR: "true" })).toThrow(
      "set SECRETS_MASTER_KEYS, CARD_FINGERPRINT_KEY, ADMIN_API_KEY (or SECRETS_MASTER_KEYS_FILE, CARD_FINGERPRINT_KEY_FILE, ADMIN_API_KEY_FILE)",
    );
  });

  it("lets secrets missing outside production be generated, and lets the CLI run without them", () => {
    expect(loadConfig({})).toMatchObject({ production: false, adminApiKey: undefined, secretsMasterKeys: undefined });
    expect(loadConfig({ NODE_ENV: "production", HOST: "0.0.0.0" }, { callsProcessors: false }).production).toBe(true);
  });

  it("reaches processors over https only in production; http outside it; no other scheme anywhere", () => {
    expect(() => loadConfig({ ...production, PROCESSOR_B_URL: "http://processor.example" })).toThrow(
      'Invalid configuration: with NODE_ENV=production, PROCESSOR_B_URL (given: "http://processor.example") must be an https:// URL',
    );
    expect(loadConfig({ ...everyProcessorAt("http://127.0.0.1:4000") }).processorUrls?.processor_a).toBe("http://127.0.0.1:4000");
    expect(() => loadConfig({ ...everyProcessorAt("https://processor.example"), PROCESSOR_C_URL: "ftp://processor.example" })).toThrow(
      'Invalid configuration: PROCESSOR_C_URL="ftp://processor.example" must be an https:// URL (http:// outside production)',
    );
  });

  it("refuses plain HTTP beyond loopback unless TLS is served or a proxy terminates it", () => {
    expect(() => loadConfig({ ...production, HOST: "0.0.0.0" })).toThrow(
      'Invalid configuration: with NODE_ENV=production, HOST="0.0.0.0" would serve plain HTTP beyond this machine: set TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY=proxy',
    );
    expect(() => loadConfig({ ...production, HOST: "10.0.0.5" })).toThrow(/TLS_CERT_FILE.*TLS_TERMINATED_BY=proxy/);
    expect(loadConfig({ ...production, HOST: "0.0.0.0", TLS_TERMINATED_BY: "proxy" }).tls).toBeUndefined();
    expect(loadConfig({ ...production, HOST: "0.0.0.0", TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile }).tls).toMatchObject(tls);
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) expect(loadConfig({ ...production, HOST: host }).host).toBe(host);
    expect(() => loadConfig({ ...production, TLS_TERMINATED_BY: "nginx" })).toThrow(/TLS_TERMINATED_BY="[^"]*" must be one of "proxy"/);
    // Outside production plain HTTP anywhere is the operator's choice.
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });
});

describe("TLS_CERT_FILE and TLS_KEY_FILE", () => {
  it("needs both, readable, a certificate with its own key", async () => {
    expect(() => loadConfig({ TLS_CERT_FILE: tls.certFile })).toThrow(
      "Invalid configuration: set both TLS_CERT_FILE and TLS_KEY_FILE, or neither (only TLS_CERT_FILE is set)",
    );
    expect(() => loadConfig({ TLS_KEY_FILE: tls.keyFile })).toThrow("(only TLS_KEY_FILE is set)");
    expect(() => loadConfig({ TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: path.join(dir, "absent.key") })).toThrow(
      /^Invalid configuration: TLS_CERT_FILE, TLS_KEY_FILE \(given: .*\) must be readable PEM files of a certificate and its private key \(ENOENT\)$/,
    );
    const notPem = await secretFile("not.pem", "hello\n");
    expect(() => loadConfig({ TLS_CERT_FILE: notPem, TLS_KEY_FILE: tls.keyFile })).toThrow(/must be readable PEM files/);
    expect(loadConfig({ TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile }).tls).toMatchObject(tls);
  });
});
