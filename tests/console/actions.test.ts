import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ensureConsoleBuilt } from "../../console/build.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type Json, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment } from "../support/webhook-receiver.ts";
import { accessibilityViolations, hasChromium, launchChromium, openTab, signIn } from "./browser.ts";

type Client = Awaited<ReturnType<TestService["createClient"]>>;

/** A webhook receiver whose answer the test chooses; it keeps the `webhook-id` of every message it was sent. */
async function startReceiver() {
  const state = { status: 503, received: [] as string[] };
  const server: Server = createServer((request, response) => {
    state.received.push(String(request.headers["webhook-id"]));
    request.resume();
    request.on("end", () => response.writeHead(state.status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { state, url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const DEAD_URL = "http://127.0.0.1:9/dead-shop-hooks";
const DEAD_SALES = 12;

// One database is enough for what the browser shows (the API's own suites run on both): the real
// server when there is one.
const target = testDatabaseTargets().at(-1)!;

describe.skipIf(!hasChromium)(`the console's actions in Chromium, on ${target}`, { timeout: 60_000 }, () => {
  let api: TestService;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let acme: Client;
  let deadShop: Client & { endpointId: string };
  let hooked: Client & { endpointId: string; sale: string };

  async function equip(name: string): Promise<Client> {
    const client = await api.createClient(name);
    const configuration = await api.request("POST", "/v1/host-configurations/processor_a", {
      body: { ...validBodies.processor_a, clientId: client.clientId, name: `${name} store` },
    });
    expect(configuration.status, configuration.text).toBe(201);
    return client;
  }

  async function pay(client: Client, path: "authorization" | "sale", amount: number): Promise<string> {
    const paid = await api.request("POST", `/v1/transactions/${path}`, {
      key: client.key,
      body: { processor: "processor_a", amount, currency: "USD", userId: "user_1", card: approvedCard },
    });
    expect(paid.status, paid.text).toBe(201);
    return paid.body.id;
  }

  async function subscribe(client: Client, url: string): Promise<string> {
    const endpoint = await api.request("POST", "/v1/webhook-endpoints", { key: client.key, body: { url, events: ["transaction.approved"] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    return endpoint.body.id;
  }

  /** Every attempt to the endpoint, newest first, through every page. */
  async function attemptsTo(client: Client, endpointId: string): Promise<Json[]> {
    const attempts: Json[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = await api.request("GET", `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100${query}`, { key: client.key });
      expect(page.status, page.text).toBe(200);
      attempts.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    return attempts;
  }

  /** Waits until every one of `count` messages to the endpoint was given up: no retry of its own will come. */
  async function givenUp(client: Client, endpointId: string, count: number): Promise<string[]> {
    return vi.waitFor(
      async () => {
        const failed = (await attemptsTo(client, endpointId)).filter((attempt) => attempt.status === "failed");
        expect(failed).toHaveLength(count);
        return failed.map((attempt) => attempt.deliveryId as string);
      },
      { timeout: 45_000, interval: 200 },
    );
  }

  const childrenOf = async (client: Client, parentId: string, type: string): Promise<Json[]> => {
    const listed = await api.request("GET", `/v1/transactions?parentTransactionId=${parentId}&type=${type}`, { key: client.key });
    expect(listed.status, listed.text).toBe(200);
    return listed.body.data;
  };
  const transaction = async (client: Client, id: string): Promise<Json> => (await api.request("GET", `/v1/transactions/${id}`, { key: client.key })).body;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    api = await startTestService(target, {
      // Thirteen attempts in a few seconds: a delivery is given up within the test.
      ...loopbackWebhookEnvironment({ retryBaseMs: 1, dispatchIntervalMs: 50 }),
    });
    browser = await launchChromium();
    receiver = await startReceiver();
    acme = await equip("Acme");
    const dead = await equip("Dead shop");
    deadShop = { ...dead, endpointId: await subscribe(dead, DEAD_URL) };
    const hookedClient = await equip("Hooked");
    hooked = { ...hookedClient, endpointId: await subscribe(hookedClient, receiver.url), sale: "" };
    for (let sale = 0; sale < DEAD_SALES; sale++) await pay(deadShop, "sale", 100 + sale);
    hooked.sale = await pay(hooked, "sale", 4200);
    await Promise.all([givenUp(deadShop, deadShop.endpointId, DEAD_SALES), givenUp(hooked, hooked.endpointId, 1)]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await receiver?.close();
  });

  /** A tab for one test; at its end, the page reported no error (no CSP violation, no exception). */
  async function withTab(work: (page: Page, tab: Awaited<ReturnType<typeof openTab>>) => Promise<void>, width = 1280) {
    const tab = await openTab(browser, api.url, width);
    try {
      await work(tab.page, tab).catch(async (error: unknown) => {
        const alerts = await tab.page.getByRole("alert").allTextContents().catch(() => []);
        throw new Error(`${String(error)}\npage alerts: ${JSON.stringify(alerts)}\nAPI answers: ${tab.answers.join(", ")}`, { cause: error });
      });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }

  async function openTimeline(page: Page, id: string) {
    await page.goto(`/console/#/transactions/${id}`);
    await page.getByTestId("summary").waitFor();
  }
  const stateShown = (page: Page) => page.getByTestId("summary").locator(".badge").textContent();
  const outcome = (page: Page) => page.getByTestId("action-outcome").textContent();

  it("captures part of an authorization in major units, once however fast Confirm is clicked twice", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    await withTab(async (page, tab) => {
      await signIn(page, acme.key);
      await openTimeline(page, authorization);
      expect(await stateShown(page)).toBe("authorized");
      await page.getByRole("button", { name: "Capture…" }).click();
      // The amount is offered as the table shows it: all that is still capturable.
      expect(await page.getByLabel("Amount to capture (USD)").inputValue()).toBe("10.00");
      await page.getByLabel("Amount to capture (USD)").fill("4.50");
      await page.getByRole("button", { name: "Review the capture" }).click();
      expect(await page.getByTestId("consequence").textContent()).toBe(
        `Capture 4.50 USD of authorization …${authorization.slice(-12)}: the card is charged 4.50 USD. 5.50 USD stays held for a later capture or a void.`,
      );
      expect(await accessibilityViolations(page)).toEqual([]);
      // Two clicks in one task, before the page can redraw the button disabled: the worst double click.
      await page.evaluate(`(() => {
        const confirm = [...document.querySelectorAll("button")].find((button) => button.textContent === "Capture 4.50 USD");
        confirm.click();
        confirm.click();
      })()`);
      await expect.poll(() => outcome(page)).toContain("Captured 4.50 USD: the capture was approved.");
      // The answer takes the focus the confirmation had, for keyboard and screen reader users.
      expect(await page.evaluate(`document.activeElement?.dataset.testid`)).toBe("action-outcome");
      await expect.poll(() => stateShown(page)).toBe("partially_captured");
      expect(tab.answers.filter((answer) => answer.endsWith("POST /v1/transactions/capture"))).toEqual(["201 POST /v1/transactions/capture"]);
    });
    const captures = await childrenOf(acme, authorization, "capture");
    expect(captures.map((capture) => [capture.amount, capture.status])).toEqual([[450, "approved"]]);
    expect(await transaction(acme, authorization)).toMatchObject({ capturedAmount: 450, state: "partially_captured" });
  });

  it("sends a second intent with a new Idempotency-Key: two captures confirmed one after the other are two captures", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    const keys: string[] = [];
    await withTab(async (page) => {
      page.on("request", (request) => {
        if (request.method() === "POST") keys.push(request.headers()["idempotency-key"] ?? "none");
      });
      await signIn(page, acme.key);
      await openTimeline(page, authorization);
      for (const amount of ["3.00", "2.00"]) {
        await page.getByRole("button", { name: "Capture…" }).click();
        await page.getByLabel("Amount to capture (USD)").fill(amount);
        await page.getByRole("button", { name: "Review the capture" }).click();
        await page.getByRole("button", { name: `Capture ${amount} USD` }).click();
        await expect.poll(() => outcome(page)).toContain(`Captured ${amount} USD`);
      }
    });
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    const captures = await childrenOf(acme, authorization, "capture");
    expect(captures.map((capture) => capture.amount).sort()).toEqual([200, 300]);
  });

  it("refunds part of a sale with a reason, after showing the API's 422 for more than is refundable", async () => {
    const sale = await pay(acme, "sale", 2500);
    await withTab(async (page) => {
      await signIn(page, acme.key);
      await openTimeline(page, sale);
      expect(await stateShown(page)).toBe("succeeded");
      await page.getByRole("button", { name: "Refund…" }).click();
      await page.getByLabel("Amount to refund (USD)").fill("30.00");
      await page.getByRole("button", { name: "Review the refund" }).click();
      await page.getByRole("button", { name: "Refund 30.00 USD" }).click();
      await expect.poll(() => page.getByTestId("action-outcome").getAttribute("role")).toBe("alert");
      expect(await outcome(page)).toContain("The API refused the refund (422 amount_exceeds_refundable)");
      expect(await childrenOf(acme, sale, "refund")).toEqual([]);

      // A typo is caught before anything is sent.
      await page.getByRole("button", { name: "Refund…" }).click();
      await page.getByLabel("Amount to refund (USD)").fill("7.255");
      await page.getByRole("button", { name: "Review the refund" }).click();
      await expect.poll(() => page.getByTestId("action-problem").textContent()).toBe('USD has 2 decimals: "7.255" has 3.');

      await page.getByLabel("Amount to refund (USD)").fill("7.25");
      await page.getByLabel("Reason (optional)").fill("damaged in transit");
      await page.getByRole("button", { name: "Review the refund" }).click();
      expect(await page.getByTestId("consequence").textContent()).toBe(
        `Refund 7.25 USD of sale …${sale.slice(-12)} to the card. 17.75 USD stays refundable.`,
      );
      await page.getByRole("button", { name: "Refund 7.25 USD" }).click();
      await expect.poll(() => outcome(page)).toContain("Refunded 7.25 USD: the refund was approved.");
      await expect.poll(() => stateShown(page)).toBe("partially_refunded");
    });
    const refunds = await childrenOf(acme, sale, "refund");
    expect(refunds.map((refund) => [refund.amount, refund.status])).toEqual([[725, "approved"]]);
    expect(await transaction(acme, sale)).toMatchObject({ refundedAmount: 725, state: "partially_refunded" });
  });

  it("voids an authorization, whose badge then reads voided in the timeline and the list", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    await withTab(async (page) => {
      await signIn(page, acme.key);
      await openTimeline(page, authorization);
      await page.getByRole("button", { name: "Void…" }).click();
      expect(await page.getByTestId("consequence").textContent()).toBe(
        `Void authorization …${authorization.slice(-12)}: release the 10.00 USD still held on the card; nothing more can be captured.`,
      );
      await page.getByRole("button", { name: "Void 10.00 USD" }).click();
      await expect.poll(() => outcome(page)).toContain("Voided 10.00 USD: the void was approved.");
      await expect.poll(() => stateShown(page)).toBe("voided");
      expect(await page.getByRole("button", { name: "Capture…" }).count()).toBe(0);
      expect(await page.getByRole("region", { name: "Transaction" }).textContent()).toContain("StatusapprovedAmount");

      await page.goto("/console/#/transactions");
      await expect.poll(() => page.locator(`tr[data-transaction-id="${authorization}"] .badge`).textContent()).toBe("voided");
    });
    expect(await childrenOf(acme, authorization, "void")).toHaveLength(1);
    expect(await transaction(acme, authorization)).toMatchObject({ voided: true, state: "voided", capturedAmount: 0 });
  });

  it("shows the API's 409 when the authorization was voided elsewhere while the capture waited for its confirmation", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    await withTab(async (page) => {
      await signIn(page, acme.key);
      await openTimeline(page, authorization);
      await page.getByRole("button", { name: "Capture…" }).click();
      await page.getByRole("button", { name: "Review the capture" }).click();
      const voided = await api.request("POST", "/v1/transactions/void", { key: acme.key, body: { transactionId: authorization } });
      expect(voided.status, voided.text).toBe(201);
      await page.getByRole("button", { name: "Capture 10.00 USD" }).click();
      await expect.poll(() => outcome(page)).toContain("The API refused the capture (409 invalid_transaction_state)");
      expect(await page.getByTestId("action-outcome").getAttribute("role")).toBe("alert");
      // The page shows the transaction again as it now stands.
      await expect.poll(() => stateShown(page)).toBe("voided");
    });
    expect(await childrenOf(acme, authorization, "capture")).toEqual([]);
  });

  it("fits the form and the confirmation on a 390 px wide screen, with no accessibility violation", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    await withTab(async (page) => {
      await signIn(page, acme.key);
      await openTimeline(page, authorization);
      const overflow = () => page.evaluate<number>(`document.documentElement.scrollWidth - window.innerWidth`);
      await page.getByRole("button", { name: "Capture…" }).click();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Review the capture" }).click();
      await page.getByTestId("consequence").waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Back" }).click();
      await page.getByRole("button", { name: "Cancel" }).click();
      expect(await page.getByLabel("Amount to capture (USD)").count()).toBe(0);
    }, 390);
    expect(await childrenOf(acme, authorization, "capture")).toEqual([]);
  });

  it("offers an admin key no action: transactions are the client's to make", async () => {
    const authorization = await pay(acme, "authorization", 1000);
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await openTimeline(page, authorization);
      await expect.poll(() => page.getByRole("region", { name: "Actions" }).textContent()).toContain("sign in with its API key");
      expect(await page.getByRole("button", { name: "Capture…" }).count()).toBe(0);
    });
  });

  it("groups a dead endpoint's failing deliveries, five to a page, each message once however often it was retried", async () => {
    const attempts = await attemptsTo(deadShop, deadShop.endpointId);
    const deliveries = [...new Set(attempts.map((attempt) => attempt.deliveryId as string))];
    expect(deliveries).toHaveLength(DEAD_SALES);
    // More attempts than one read of the list: paging reads older ones.
    expect(attempts.length).toBeGreaterThan(100);
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByRole("link", { name: "Operations" }).click();
      // The dead shop's 12 messages, retried 13 times each, and the hooked shop's one: a page of each endpoint.
      const failing = page.getByRole("region", { name: "Failing webhook deliveries" });
      await failing.waitFor();
      await expect.poll(() => failing.locator("tbody tr").count()).toBe(5 + 1);
      const group = page.locator(`section[data-endpoint-id="${deadShop.endpointId}"]`);
      expect(await group.getByRole("heading").textContent()).toContain(DEAD_URL);
      const rows = group.locator("tbody tr");
      const seen: string[] = [];
      for (;;) {
        const shown = await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-delivery-id")!));
        expect(shown.length).toBeGreaterThan(0);
        expect(shown.length).toBeLessThanOrEqual(5);
        seen.push(...shown);
        const older = group.getByRole("button", { name: "Older deliveries" });
        if ((await older.count()) === 0) break;
        await older.click();
        // The next page, or, once the older attempts are read and hold no other failing delivery, no such button.
        const moved = async () => (await rows.first().getAttribute("data-delivery-id")) !== shown[0];
        await expect.poll(async () => (await moved()) || (await older.count()) === 0).toBe(true);
        if (!(await moved())) break;
      }
      expect(seen).toHaveLength(DEAD_SALES);
      expect([...seen].sort()).toEqual([...deliveries].sort());
      expect(await group.getByTestId("group-summary").textContent()).toContain(`${DEAD_SALES} failing deliveries in its latest ${attempts.length} attempts`);
      expect(await rows.first().textContent()).toContain("failed");
      // Back to the newest.
      await group.getByRole("button", { name: "Newer deliveries" }).click();
      await group.getByRole("button", { name: "Newer deliveries" }).click();
      expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-delivery-id")!))).toEqual(seen.slice(0, 5));
    });
  });

  it("redelivers a given-up delivery: the endpoint receives the same message again, once", async () => {
    const [deliveryId] = await givenUp(hooked, hooked.endpointId, 1);
    const attempts = await attemptsTo(hooked, hooked.endpointId);
    const messageId = attempts[0]!.eventId as string;
    expect(receiver.state.received.filter((id) => id === messageId)).toHaveLength(13);
    receiver.state.status = 204;
    await withTab(async (page) => {
      await signIn(page, hooked.key);
      await page.getByRole("link", { name: "Operations" }).click();
      const row = page.locator(`tr[data-delivery-id="${deliveryId}"]`);
      expect(await row.textContent()).toContain("transaction.approved");
      await row.getByRole("button", { name: "Redeliver" }).dblclick();
      await expect.poll(() => row.getByRole("status").textContent()).toBe("Redelivery queued");
    });
    const latest = await vi.waitFor(
      async () => {
        const [newest] = await attemptsTo(hooked, hooked.endpointId);
        expect(newest).toMatchObject({ deliveryId, status: "delivered", attempt: 14 });
        return newest;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(latest!.eventId).toBe(messageId);
    expect(receiver.state.received.filter((id) => id === messageId)).toHaveLength(14);
    expect((await attemptsTo(hooked, hooked.endpointId)).filter((attempt) => attempt.status === "delivered")).toHaveLength(1);
  });
});
