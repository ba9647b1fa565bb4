import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConsoleBuilt, distDir } from "../../console/build.ts";
import { registerConsole } from "../../src/api/console.ts";
import { registerProblemHandling } from "../../src/api/problems.ts";
import { apiRequest, startTestService, type TestService } from "../support/service.ts";
import { hasChromium, launchChromium, openTab } from "./browser.ts";

const strictPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
];

/** The headers of /console and /docs and their files (security-headers.ts). */
function expectPageHeaders(headers: Headers) {
  const policy = headers.get("content-security-policy") ?? "";
  for (const directive of strictPolicy) expect(policy).toContain(directive);
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
  expect(headers.get("cache-control")).toBe("no-store");
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
    expectPageHeaders(page.headers);
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
      expectPageHeaders(file.headers);
      expect(file.text).toBe(readFileSync(join(distDir, asset.slice("/console/".length)), "utf8"));
    }
  });

  it("sends /console to /console/, and answers an unknown file with 404", async () => {
    const bare = await fetch(`${api.url}/console`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/console/");
    expectPageHeaders(bare.headers);
    const missing = await apiRequest(api.url, "GET", "/console/assets/nothing.js", { key: null });
    expect(missing.status).toBe(404);
    expectPageHeaders(missing.headers);
  });

  it("answers /docs (swagger-ui) and each file it names under the same policy", async () => {
    const page = await apiRequest(api.url, "GET", "/docs/", { key: null });
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    // swagger-ui's page names its scripts and styles as files: nothing inline for the policy to refuse.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style|\sstyle=/);
    const files = [...page.text.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => `/docs/${match[1]!}`);
    expect(files).toContain("/docs/static/swagger-initializer.js");
    for (const file of [...files, "/docs/json"]) {
      const answer = await apiRequest(api.url, "GET", file, { key: null });
      expect(answer.status, file).toBe(200);
      expectPageHeaders(answer.headers);
    }
  });

  describe.skipIf(!hasChromium)("in Chromium", () => {
    it("shows the console's sign-in and the API reference with no Content-Security-Policy violation, which it would report", async () => {
      const browser = await launchChromium();
      try {
        const tab = await openTab(browser, api.url);
        await tab.page.goto("/console/");
        await tab.page.getByRole("button", { name: "Sign in" }).waitFor();
        expect(tab.violations).toEqual([]);
        expect(tab.errors).toEqual([]);

        await tab.page.goto("/docs/");
        // swagger-ui rendered the document: its title and an operation of it.
        await tab.page.locator(".swagger-ui .info .title").waitFor();
        await tab.page.locator(".opblock").first().waitFor();
        await tab.page.locator(".opblock-summary").first().click();
        await tab.page.locator(".opblock-body").first().waitFor();
        expect(tab.violations).toEqual([]);
        expect(tab.errors).toEqual([]);
        expect(tab.requests.every((url) => url.startsWith(api.url))).toBe(true);

        // The check sees a violation when there is one: an inline script the policy refuses.
        await tab.page.evaluate(`document.body.append(Object.assign(document.createElement("script"), { textContent: "window.ran = true" }))`);
        await expect.poll(() => tab.violations.some((line) => line.startsWith("CSP violation: script-src-elem refused inline"))).toBe(true);
        expect(await tab.page.evaluate("window.ran")).toBeUndefined();
        await tab.close();
      } finally {
        await browser.close();
      }
    });
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
