import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type ConsoleMessage, type Page } from "playwright-core";
import { z } from "zod";

/** Debian's Chromium, installed by scripts/ensure-chromium.sh (CI runs it before the tests). */
export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`The console's browser tests skip: no browser at ${CHROMIUM} (run scripts/ensure-chromium.sh as root).`);

export const ARTIFACTS = "test-artifacts/console";

export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

const CSP_VIOLATION = "CSP violation:";
const CSP_VIOLATION_REPORTER = `document.addEventListener("securitypolicyviolation", (event) => {
  console.error(${JSON.stringify(CSP_VIOLATION)} + " " + event.effectiveDirective + " refused " + (event.blockedURI || "inline") + " at " + event.sourceFile + ":" + event.lineNumber);
});`;

/**
 * A fresh tab (its own session storage) that records what the page reports: console errors
 * (a Content-Security-Policy violation is one, and is also kept in `violations`), uncaught
 * exceptions, and every URL it asked for.
 * The API's expected refusals (403 for a client key's role check, 404 for what a key may not see,
 * 409 and 422 for an action the tests make it refuse) show up as "Failed to load resource" errors
 * and are counted apart.
 */
export async function openTab(browser: Browser, baseUrl: string, width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: baseUrl });
  // Every Content-Security-Policy violation the page meets, reported as a console error of its own
  // (an init script runs outside the page's policy).
  await context.addInitScript(CSP_VIOLATION_REPORTER);
  const page = await context.newPage();
  const errors: string[] = [];
  const refusals: string[] = [];
  const requests: string[] = [];
  /** The page's CSP violations: Chromium's own "Refused to …" lines and the reporter's. Also in `errors`. */
  const violations: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() !== "error") return;
    const refused = /^Failed to load resource: the server responded with a status of (403|404|409|422)\b/.test(message.text());
    (refused ? refusals : errors).push(message.text());
    if (message.text().startsWith(CSP_VIOLATION) || /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  page.on("request", (request) => requests.push(request.url()));
  /** The API's answers to this tab, for the message of a failing test. */
  const answers: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/v1/")) answers.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return { page, errors, refusals, requests, violations, answers, close: () => context.close() };
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto("/console/");
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });

const axeFile = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/**
 * Where the page loads axe-core from: answered by the test from the package's file, so that it
 * is a same-origin script the console's Content-Security-Policy allows. `addScriptTag({ path })`
 * would inline it, which that policy (no 'unsafe-inline') rightly refuses.
 */
const AXE_PATH = "/test-only/axe.min.js";

const axeResults = z.object({
  violations: z.array(
    z.object({
      id: z.string(),
      impact: z.string().nullable().optional(),
      nodes: z.array(z.object({ target: z.array(z.unknown()) })),
    }),
  ),
});

/**
 * What axe-core finds wrong with the page as it is: every colour contrast failure and every other
 * serious or critical violation, each with the elements it concerns.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate(`typeof axe`)) === "undefined") {
    const url = new URL(AXE_PATH, page.url()).href;
    await page.route(url, (route) => route.fulfill({ path: axeFile, contentType: "text/javascript" }));
    await page.addScriptTag({ url });
  }
  const results = axeResults.parse(await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`));
  return results.violations
    .filter((violation) => violation.id === "color-contrast" || violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
