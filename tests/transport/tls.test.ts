import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, readFile, rename, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import path from "node:path";
import { connect, type ConnectionOptions, type PeerCertificate } from "node:tls";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { createTestCa, type TestCa } from "../support/certificates.ts";
import { openTestDatabase, type TestDatabase } from "../support/database.ts";
import { capturedLogs, TEST_ADMIN_KEY, testConfig } from "../support/service.ts";

let ca: TestCa;
let database: TestDatabase;
let service: Service;
let port: number;
const { lines, sink } = capturedLogs();
const served = { certFile: "", keyFile: "" };

beforeAll(async () => {
  ca = await createTestCa();
  const first = await ca.issue("first");
  served.certFile = path.join(ca.dir, "served.crt");
  served.keyFile = path.join(ca.dir, "served.key");
  await copyFile(first.certFile, served.certFile);
  await copyFile(first.keyFile, served.keyFile);
  database = await openTestDatabase("pglite");
  const config = testConfig(undefined, { TLS_CERT_FILE: served.certFile, TLS_KEY_FILE: served.keyFile });
  // The files are looked at every 100 ms here (every second by default), so a renewal shows at once.
  service = await startService({ ...config, tls: { ...config.tls!, reloadCheckMs: 100 } }, createLogger("info", sink), {
    ...database,
    close: async () => {},
  });
  port = Number(new URL(service.url).port);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await database?.close();
  if (ca) await rm(ca.dir, { recursive: true, force: true });
});

/** One TLS handshake with `options`: the certificate and protocol it was answered with, or the refusal. */
async function handshake(options: ConnectionOptions): Promise<{ certificate: PeerCertificate; protocol: string | null; cipher: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ca: readFileSync(ca.caFile), ...options }, () => {
      const answer = { certificate: socket.getPeerCertificate(), protocol: socket.getProtocol(), cipher: socket.getCipher().name };
      socket.end();
      resolve(answer);
    });
    socket.once("error", reject);
  });
}

describe("the API over TLS", () => {
  it("answers HTTPS with strict-transport-security, over TLS 1.3 by default", async () => {
    expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const call = request(
        `${service.url}/v1/clients`,
        { method: "POST", ca: readFileSync(ca.caFile), headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" } },
        (response) => {
          let body = "";
          response.on("data", (chunk) => (body += String(chunk)));
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
        },
      );
      call.on("error", reject);
      call.end(JSON.stringify({ name: "Acme" }));
    });
    expect(answer.status, answer.body).toBe(201);
    expect(answer.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    // Every answer, those no route gives included.
    const notFound = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request(`${service.url}/no-such-path`, { ca: readFileSync(ca.caFile) }, (response) => {
        response.resume();
        resolve({ status: response.statusCode, hsts: response.headers["strict-transport-security"] });
      })
        .on("error", reject)
        .end();
    });
    expect(notFound).toEqual({ status: 404, hsts: "max-age=31536000; includeSubDomains" });
    expect((await handshake({})).protocol).toBe("TLSv1.3");
  });

  it("serves TLS 1.2 with an AEAD suite", async () => {
    const answered = await handshake({ maxVersion: "TLSv1.2" });
    expect(answered).toMatchObject({ protocol: "TLSv1.2", cipher: expect.stringMatching(/GCM|CHACHA20/) });
  });

  it("refuses a client that speaks TLS 1.1 at most", async () => {
    // The client is let to offer TLS 1.0 and 1.1 (OpenSSL 3 would not otherwise): the server's alert refuses it.
    const refusal = handshake({ minVersion: "TLSv1", maxVersion: "TLSv1.1", ciphers: "DEFAULT@SECLEVEL=0" });
    await expect(refusal).rejects.toMatchObject({ code: "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION" });
  });

  it("refuses a TLS 1.2 client that offers only CBC suites", async () => {
    const refusal = handshake({ maxVersion: "TLSv1.2", ciphers: "ECDHE-RSA-AES128-SHA256:AES128-SHA" });
    await expect(refusal).rejects.toMatchObject({ code: "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE" });
  });

  it("uses a renewed certificate from the next handshake on, without a restart; a broken renewal keeps the old one", async () => {
    const fingerprintOf = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;
    const before = (await handshake({})).certificate.fingerprint256;
    expect(before).toBe(fingerprintOf(served.certFile));

    // Half a renewal: a new certificate whose key is not there yet. It is logged and the old pair stays.
    const second = await ca.issue("second");
    await writeFile(`${served.certFile}.new`, await readFile(second.certFile));
    await rename(`${served.certFile}.new`, served.certFile);
    await vi.waitFor(() => expect(lines.join("")).toContain("TLS certificate files changed but do not load"), { timeout: 5_000, interval: 50 });
    expect((await handshake({})).certificate.fingerprint256).toBe(before);

    // The key arrives: the next handshake gets the new certificate.
    await writeFile(`${served.keyFile}.new`, await readFile(second.keyFile));
    await rename(`${served.keyFile}.new`, served.keyFile);
    await vi.waitFor(async () => expect((await handshake({})).certificate.fingerprint256).toBe(fingerprintOf(second.certFile)), {
      timeout: 5_000,
      interval: 50,
    });
    expect(lines.join("")).toContain('"msg":"TLS certificate reloaded"');
  });
});
