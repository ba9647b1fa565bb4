import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConsoleBuilt, distDir } from "../../console/build.ts";
import { registerConsole } from "../../src/api/console.ts";
import { registerProblemHandling } from "../../src/api/problems.ts";
import { apiRequest, startTestService, type TestService } from "../support/service.ts";

const strictPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
];

function expectConsoleHeaders(headers: Headers) {
  const policy = headers.get("content-security-policy") ?? "";
  for (const directive of strictPolicy) expect(policy).toContain(directive);
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
}

describe("the console's files, served at /console", () => {
  let api: TestService;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    api = await startTestService("pglite");
  }, 120_000);
  afterAll(() => api?.stop());

  it("answers the page with a strict Content-Security-Policy, and names no script or style it does not serve", async () => {
    const page = await apiRequest(api.url, "GET", "/console/", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expectConsoleHeaders(page.headers);
    // No inline script or style: every <script> names a file, there is no <style> and no style="".
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style|\sstyle=/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true);
    expect(assets.some((asset) => asset.endsWith(".css"))).toBe(true);
    for (const asset of assets) {
      const file = await apiRequest(api.url, "GET", asset, { key: null });
      expect(file.status).toBe(200);
      expectConsoleHeaders(file.headers);
      expect(file.headers.get("cache-control")).toContain("immutable");
      expect(file.text).toBe(readFileSync(join(distDir, asset.slice("/console/".length)), "utf8"));
    }
  });

  it("sends /console to /console/, and answers an unknown file with 404", async () => {
    const bare = await fetch(`${api.url}/console`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/console/");
    const missing = await apiRequest(api.url, "GET", "/console/assets/nothing.js", { key: null });
    expect(missing.status).toBe(404);
  });
});

describe("the console before it is built", () => {
  const empty = mkdtempSync(join(tmpdir(), "console-unbuilt-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it("answers 503 with a problem that says to run npm run build", async () => {
    const app = Fastify();
    registerProblemHandling(app);
    await registerConsole(app, empty);
    for (const url of ["/console", "/console/", "/console/assets/index.js"]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(503);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 503, code: "service_unavailable" });
      expect(response.json().detail).toContain("npm run build");
    }
    await app.close();
  });
});
