import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConsoleBuilt } from "../../console/build.ts";
import { minorUnitExponent } from "../../src/domain/money.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { PENDING_RESOLVER_LEASE, type PassSummary } from "../../src/jobs/pending-resolver.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type Json, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment } from "../support/webhook-receiver.ts";
import { accessibilityViolations, hasChromium, launchChromium, openTab, screenshot, signIn } from "./browser.ts";

/** A client of the fixture and what only it owns, for the tests of what a client key may see. */
interface FixtureClient {
  clientId: string;
  key: string;
  configurationName: string;
  endpointUrl: string;
  settlementId: string;
}

/** What the browser flows look at, made through the API. */
interface Fixture {
  acme: FixtureClient;
  globex: FixtureClient;
  authorization: string;
  capture: string;
  jpySale: string;
  kwdSale: string;
  orderSales: string[];
  /** Acme's one sale on processor_b, through its configuration there, by its second user. */
  processorBSale: string;
  globexSales: string[];
  /** A sale whose stored approval event the test alters with SQL afterwards. */
  tamperedSale: string;
  /** A sale whose last stored event loses its chain link and is altered, with SQL afterwards. */
  unlinkedSale: string;
  /** A sale whose approval the test dates, with SQL afterwards, in the millisecond of its initiation. */
  sameMomentSale: string;
  /** Every transaction of Globex. */
  globexAll: string[];
  cConfigurationId: string;
  all: string[];
}

async function recordFixture(api: TestService): Promise<Fixture> {
  const acme = await api.createClient("Acme");
  const globex = await api.createClient("Globex");
  const limits = await api.request("PUT", `/v1/clients/${acme.clientId}/limits`, {
    body: { limits: [{ currency: "USD", dailyAmount: 1_000_000, dailyCount: 100 }] },
  });
  expect(limits.status, limits.text).toBe(200);
  const configure = async (processor: "processor_a" | "processor_b" | "processor_c", body: Record<string, unknown>): Promise<string> => {
    const created = await api.request("POST", `/v1/host-configurations/${processor}`, { body: { ...validBodies[processor], ...body } });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  };
  /** A processor_a configuration and a webhook endpoint nobody listens at, both named after the client. */
  const equip = async (client: { clientId: string; key: string }, name: string) => {
    const configurationName = `${name} store`;
    const configurationId = await configure("processor_a", { clientId: client.clientId, name: configurationName });
    const endpointUrl = `http://127.0.0.1:9/${name.toLowerCase()}-hooks`;
    const endpoint = await api.request("POST", "/v1/webhook-endpoints", {
      key: client.key,
      body: { url: endpointUrl, events: ["*"], description: "nobody listens" },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    return { ...client, configurationId, configurationName, endpointId: endpoint.body.id as string, endpointUrl };
  };
  const acmeEquipped = await equip(acme, "Acme");
  const globexEquipped = await equip(globex, "Globex");
  const acmeTerminals = await configure("processor_b", { clientId: acme.clientId, name: "Acme terminals" });
  const backOffice = { clientId: acme.clientId, enabled: false };
  const cConfigurationId = await configure("processor_c", { ...backOffice, name: "Back office" });
  // Its second version, for the side-by-side view.
  const replaced = await api.request("PUT", `/v1/host-configurations/processor_c/${cConfigurationId}`, {
    body: { ...validBodies.processor_c, ...backOffice, name: "Back office (north)" },
  });
  expect(replaced.status, replaced.text).toBe(200);

  const pay = async (key: string, path: string, body: Record<string, unknown>, status = 201): Promise<string> => {
    const response = await api.request("POST", `/v1/transactions/${path}`, { key, body });
    expect(response.status, response.text).toBe(status);
    return status === 201 ? response.body.id : response.body.transaction.id;
  };
  const payment = { processor: "processor_a", userId: "user_1", card: approvedCard };
  const authorization = await pay(acme.key, "authorization", { ...payment, amount: 1000, currency: "USD", reference: "order-1000" });
  const capture = await pay(acme.key, "capture", { transactionId: authorization, amount: 600 });
  const refund = await pay(acme.key, "refund", { transactionId: capture, amount: 200 });
  const jpySale = await pay(acme.key, "sale", { ...payment, amount: 500, currency: "JPY" });
  const kwdSale = await pay(acme.key, "sale", { ...payment, amount: 1234, currency: "KWD" });
  const orderSales = [];
  for (const order of [1, 2, 3, 4]) {
    orderSales.push(await pay(acme.key, "sale", { ...payment, amount: 1990 + order * 100, currency: "USD", reference: `order-${order}` }));
  }
  const globexPayment = { ...payment, userId: "user_9", currency: "USD" };
  const globexSales = [
    await pay(globex.key, "sale", { ...globexPayment, amount: 500 }),
    await pay(globex.key, "sale", { ...globexPayment, amount: 300, card: { ...approvedCard, number: "4000000000000002" } }, 402),
  ];
  const tamperedSale = await pay(globex.key, "sale", { ...globexPayment, amount: 700, reference: "tamper-me" });
  const unlinkedSale = await pay(globex.key, "sale", { ...globexPayment, amount: 800, reference: "unlink-me" });
  const sameMomentSale = await pay(globex.key, "sale", { ...globexPayment, amount: 900, reference: "same-moment" });
  const processorBSale = await pay(acme.key, "sale", {
    ...payment,
    processor: "processor_b",
    hostConfigurationId: acmeTerminals,
    userId: "user_2",
    amount: 4200,
    currency: "EUR",
  });

  /** Closes the client's processor_a batch and waits until its endpoint's first attempt has failed. */
  const closeDay = async ({ configurationId, endpointId, ...client }: Awaited<ReturnType<typeof equip>>): Promise<FixtureClient> => {
    const settled = await api.request("POST", `/v1/host-configurations/processor_a/${configurationId}/settle`);
    expect(settled.status, settled.text).toBe(201);
    const attempted = async () =>
      (await api.request("GET", `/v1/webhook-endpoints/${endpointId}/deliveries`, { key: client.key })).body.data.length > 0;
    for (const giveUpAt = Date.now() + 15_000; !(await attempted()); await sleep(100)) {
      if (Date.now() > giveUpAt) throw new Error(`no delivery attempt to ${client.endpointUrl} within 15 s`);
    }
    return { ...client, settlementId: settled.body.id };
  };
  return {
    acme: await closeDay(acmeEquipped),
    globex: await closeDay(globexEquipped),
    authorization,
    capture,
    jpySale,
    kwdSale,
    orderSales,
    processorBSale,
    globexSales,
    tamperedSale,
    unlinkedSale,
    sameMomentSale,
    globexAll: [...globexSales, tamperedSale, unlinkedSale, sameMomentSale],
    cConfigurationId,
    all: [authorization, capture, refund, jpySale, kwdSale, ...orderSales, ...globexSales, tamperedSale, unlinkedSale, sameMomentSale, processorBSale],
  };
}

/** The simulator's card that gets no answer in time: the sale stays pending (see API.md's test cards). */
const timeoutCard = "4000000000000408";

const rowIds = (page: Page) =>
  page.locator("tbody tr[data-transaction-id]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-transaction-id")!));

const settlementIds = (page: Page) =>
  page.locator("tbody tr[data-settlement-id]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-settlement-id")!));

/** Each view of the console, at an address that shows all of it, and what shows it has loaded. */
interface View {
  name: string;
  address: string;
  loaded: (page: Page) => Promise<void>;
}
const viewsOf = (fixture: Fixture): View[] => [
  { name: "transactions", address: "#/transactions", loaded: (page) => page.locator("tbody tr").first().waitFor() },
  { name: "timeline", address: `#/transactions/${fixture.authorization}`, loaded: (page) => page.getByTestId("as-of-state").waitFor() },
  // The altered sale's: verified links and a broken one.
  {
    name: "timeline-broken-chain",
    address: `#/transactions/${fixture.tamperedSale}`,
    loaded: (page) => page.getByTestId("as-of-state").waitFor(),
  },
  { name: "journal", address: "#/journal", loaded: (page) => page.getByRole("region", { name: "Balances in USD per processor" }).waitFor() },
  {
    name: "operations",
    address: "#/operations",
    loaded: (page) => page.getByRole("region", { name: "Failing webhook deliveries" }).waitFor(),
  },
  {
    name: "host-configuration-diff",
    address: `#/host-configurations/${fixture.cConfigurationId}`,
    loaded: (page) => page.getByRole("region", { name: "Version 1 and version 2 side by side" }).waitFor(),
  },
];

/** Opens the view and waits until it and everything on it has loaded. */
async function openView(page: Page, view: View): Promise<void> {
  await page.goto(`/console/${view.address}`);
  await view.loaded(page);
  await expect.poll(() => page.getByText("Loading…").count()).toBe(0);
}

interface Focused {
  text: string;
  id: string;
  type: string | null;
}
// Page-side expressions are strings: the tests' TypeScript knows Node's globals, not the DOM's.
const focused = (page: Page) =>
  page.evaluate<Focused>(`({
    text: document.activeElement?.textContent?.trim() ?? "",
    id: document.activeElement?.id ?? "",
    type: document.activeElement?.getAttribute("type") ?? null,
  })`);
const focusedHeading = (page: Page) =>
  page.evaluate<string | null>(`document.activeElement?.tagName === "H1" ? document.activeElement.textContent : null`);

/** Presses Tab until the focused element is the one wanted (a keyboard user's way there), at most 80 times. */
async function tabTo(page: Page, wanted: (element: Focused) => boolean, what: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press("Tab");
    if (wanted(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${what}`);
}
const withText = (text: string) => (element: Focused) => element.text === text;

// One database is enough for what the browser shows (the API's own suites run on both): the real
// server when there is one.
const target = testDatabaseTargets().at(-1)!;

describe.skipIf(!hasChromium)(`the console in Chromium, on ${target}`, { timeout: 60_000 }, () => {
  let api: TestService;
  let browser: Browser;
  let fixture: Fixture;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    api = await startTestService(target, {
      ...loopbackWebhookEnvironment({ retryBaseMs: 20, dispatchIntervalMs: 50 }),
      // The resolver makes its one pass as the service starts, so what is pending stays so.
      PENDING_RESOLVER_INTERVAL_MS: "3600000",
    });
    browser = await launchChromium();
    fixture = await recordFixture(api);
    // The stored approval of one sale is altered behind the ledger's back.
    const altered = await sql`
      update events set data = data || '{"amount": 7}'::jsonb
      where stream_id = ${paymentStreamId(fixture.tamperedSale)} and revision = 1
    `.execute(api.database.db);
    expect(altered.numAffectedRows).toBe(1n);
    // Another's last event loses its chain link, which would hide that its data was altered.
    const unlinked = await sql`
      update events set data = data || '{"amount": 8}'::jsonb, metadata = metadata - 'chain'
      where stream_id = ${paymentStreamId(fixture.unlinkedSale)}
        and revision = (select max(revision) from events where stream_id = ${paymentStreamId(fixture.unlinkedSale)})
    `.execute(api.database.db);
    expect(unlinked.numAffectedRows).toBe(1n);
    // A third's approval is dated in the millisecond of its initiation (which breaks its chain too).
    const sameMoment = paymentStreamId(fixture.sameMomentSale);
    const redated = await sql`
      update events set data = jsonb_set(data, '{occurredAt}', (select data->'occurredAt' from events where stream_id = ${sameMoment} and revision = 0))
      where stream_id = ${sameMoment} and revision = 1
    `.execute(api.database.db);
    expect(redated.numAffectedRows).toBe(1n);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  /** Each fixture transaction's createdAt, as the API gives it. */
  async function creationTimes(): Promise<Map<string, string>> {
    const listed = await api.request("GET", "/v1/transactions?limit=100");
    expect(listed.body.nextCursor).toBeNull();
    return new Map(listed.body.data.map((transaction: Json) => [transaction.id, transaction.createdAt]));
  }

  /** A tab for one test; at its end, the page reported no error (no CSP violation, no exception). */
  async function withTab(work: (page: Page, tab: Awaited<ReturnType<typeof openTab>>) => Promise<void>, width = 1280) {
    const tab = await openTab(browser, api.url, width);
    try {
      await work(tab.page, tab).catch(async (error: unknown) => {
        // What the page said and what the API answered it, so that a failure explains itself.
        const alerts = await tab.page.getByRole("alert").allTextContents().catch(() => []);
        throw new Error(`${String(error)}\npage alerts: ${JSON.stringify(alerts)}\nAPI answers: ${tab.answers.join(", ")}`, { cause: error });
      });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }

  it("signs an admin in with the key kept in session storage only, and lists every client's transactions by currency exponent", async () => {
    await withTab(async (page, tab) => {
      await signIn(page, TEST_ADMIN_KEY);
      await expect.poll(() => page.getByTestId("role").textContent()).toBe("Admin key: every client");
      await page.locator("tbody tr").first().waitFor();
      expect((await rowIds(page)).sort()).toEqual([...fixture.all].sort());
      const amountOf = (id: string) => page.locator(`tr[data-transaction-id="${id}"] .amount`).textContent();
      expect(await amountOf(fixture.jpySale)).toBe("500 JPY");
      expect(await amountOf(fixture.kwdSale)).toBe("1.234 KWD");
      expect(await amountOf(fixture.authorization)).toBe("10.00 USD");
      expect(await page.locator(`tr[data-transaction-id="${fixture.globexSales[1]}"] .badge`).textContent()).toBe("declined");
      // The badge is where the transaction stands now: the authorization captured in part.
      expect(await page.locator(`tr[data-transaction-id="${fixture.authorization}"] .badge`).textContent()).toBe("partially_captured");

      const storage = await page.evaluate(`({
        session: Object.values(sessionStorage),
        local: localStorage.length,
        cookies: document.cookie,
      })`);
      expect(storage).toEqual({ session: [TEST_ADMIN_KEY], local: 0, cookies: "" });
      // Nothing from outside the service, and never the key in an address or a log line.
      expect(tab.requests.every((url) => url.startsWith(api.url))).toBe(true);
      expect(tab.requests.some((url) => url.includes(TEST_ADMIN_KEY))).toBe(false);
      expect(page.url()).not.toContain(TEST_ADMIN_KEY);
      expect(api.logs()).not.toContain(TEST_ADMIN_KEY);
      await screenshot(page, "transactions");
    });
  });

  it("filters the history with the API's filters and finds a transaction by reference or id", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      const apply = async (fill: () => Promise<unknown>) => {
        await page.getByRole("link", { name: "Clear" }).click();
        // The cleared form replaces the filtered one once the page has followed the link: a choice
        // made in the old one before then would be lost with it.
        await expect
          .poll(() =>
            page
              .locator("form.filters")
              .locator("input, select")
              .evaluateAll((fields) => fields.every((field) => (field as unknown as { value: string }).value === "")),
          )
          .toBe(true);
        await fill();
        await page.getByRole("button", { name: "Apply filters" }).click();
        await page.getByText(/^Page 1:/).waitFor();
      };
      await apply(() => page.getByLabel("Status").selectOption("declined"));
      await expect.poll(() => rowIds(page)).toEqual([fixture.globexSales[1]]);
      expect(page.url()).toContain("status=declined");
      // The form that follows shows the filter it applied, a choice as well as typed text.
      expect(await page.getByLabel("Status").inputValue()).toBe("declined");

      await apply(() => page.getByLabel("Currency").fill("JPY"));
      await expect.poll(() => rowIds(page)).toEqual([fixture.jpySale]);

      await apply(() => page.getByLabel("Client").selectOption({ label: "Globex" }));
      await expect.poll(async () => (await rowIds(page)).sort()).toEqual([...fixture.globexAll].sort());
      expect(await page.getByLabel("Client").inputValue()).toBe(fixture.globex.clientId);
      // Reloaded, the page lists the clients after it shows the form: the choice appears with them.
      await page.reload();
      await expect.poll(() => page.getByLabel("Client").inputValue()).toBe(fixture.globex.clientId);

      // Amounts are typed as the table shows them, in the chosen currency's major unit: 1.234 KWD is 1234 fils.
      await apply(async () => {
        await page.getByLabel("Currency").fill("KWD");
        await page.getByLabel("Amount at least").fill("1");
        await page.getByLabel("Amount at most").fill("1.234");
        await page.getByLabel("Type").selectOption("sale");
      });
      await expect.poll(() => rowIds(page)).toEqual([fixture.kwdSale]);
      // Both bounds inclusive: the order sales of 21.90 and 22.90 USD, not those of 20.90 and 23.90.
      await apply(async () => {
        await page.getByLabel("Currency").fill("usd");
        await page.getByLabel("Amount at least").fill("21.90");
        await page.getByLabel("Amount at most").fill("22.9");
      });
      await expect.poll(() => rowIds(page)).toEqual([fixture.orderSales[2], fixture.orderSales[1]]);
      expect(await page.locator(`tr[data-transaction-id="${fixture.orderSales[1]}"] .amount`).textContent()).toBe("21.90 USD");
      // An amount without a currency, or with more decimals than it has, is explained; the API is not asked.
      const refused = async (fill: () => Promise<unknown>, explanation: string) => {
        await page.getByRole("link", { name: "Clear" }).click();
        await expect.poll(() => page.getByLabel("Amount at least").inputValue()).toBe("");
        await fill();
        await page.getByRole("button", { name: "Apply filters" }).click();
        await expect.poll(() => page.getByRole("alert").textContent()).toContain(explanation);
        expect(await rowIds(page)).toEqual([]);
      };
      await refused(() => page.getByLabel("Amount at least").fill("10"), "Choose a currency to filter by amount");
      await refused(async () => {
        await page.getByLabel("Currency").fill("USD");
        await page.getByLabel("Amount at most").fill("10.001");
      }, 'USD has 2 decimals: "10.001" has 3.');

      await apply(() => page.getByLabel("User").fill("user_2"));
      await expect.poll(() => rowIds(page)).toEqual([fixture.processorBSale]);
      expect(page.url()).toContain("userId=user_2");

      await apply(() => page.getByLabel("Processor").selectOption("processor_b"));
      await expect.poll(() => rowIds(page)).toEqual([fixture.processorBSale]);

      // A window from the first order sale to the last leaves out what came before and after it.
      const createdAt = await creationTimes();
      const [firstOrder, lastOrder] = [createdAt.get(fixture.orderSales[0]!)!, createdAt.get(fixture.orderSales.at(-1)!)!];
      const createdWithin = (from: string, to: string) =>
        fixture.all.filter((id) => createdAt.get(id)! >= from && createdAt.get(id)! <= to).sort();
      await apply(async () => {
        await page.getByLabel("Created from").fill(firstOrder);
        await page.getByLabel("Created to").fill(lastOrder);
      });
      await expect.poll(async () => (await rowIds(page)).sort()).toEqual(createdWithin(firstOrder, lastOrder));
      expect(createdWithin(firstOrder, lastOrder)).toEqual(expect.arrayContaining(fixture.orderSales));
      expect(createdWithin(firstOrder, lastOrder)).not.toContain(fixture.kwdSale);
      expect(createdWithin(firstOrder, lastOrder)).not.toContain(fixture.processorBSale);

      // A date alone as the upper bound covers its whole (UTC) day.
      const day = firstOrder.slice(0, 10);
      await apply(async () => {
        await page.getByLabel("Created from").fill(firstOrder);
        await page.getByLabel("Created to").fill(day);
      });
      await expect.poll(async () => (await rowIds(page)).sort()).toEqual(createdWithin(firstOrder, `${day}T23:59:59.999Z`));
      expect(createdWithin(firstOrder, `${day}T23:59:59.999Z`)).toEqual(expect.arrayContaining([...fixture.orderSales, fixture.processorBSale]));
      expect(page.url()).toContain(`createdTo=${day}`);

      await page.getByLabel("Find a transaction by id or reference").fill("order-2");
      await page.getByRole("button", { name: "Find" }).click();
      await expect.poll(() => rowIds(page)).toEqual([fixture.orderSales[1]]);

      await page.getByLabel("Find a transaction by id or reference").fill(fixture.capture.toUpperCase());
      await page.getByRole("button", { name: "Find" }).click();
      await page.getByRole("heading", { name: "Payment timeline" }).waitFor();
      await expect.poll(() => page.getByTestId("summary").textContent()).toContain(fixture.capture);
    });
  });

  it("pages through the history with the cursor, never repeating or skipping a transaction", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByLabel("Per page").selectOption("10");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect.poll(async () => (await rowIds(page)).length).toBe(10);
      const first = await rowIds(page);
      await page.getByRole("link", { name: "Next page" }).click();
      await page.getByText(/^Page 2:/).waitFor();
      const second = await rowIds(page);
      expect(second).toHaveLength(fixture.all.length - 10);
      expect([...first, ...second].sort()).toEqual([...fixture.all].sort());
      await expect(page.getByRole("link", { name: "Next page" }).count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Previous page" }).click();
      await page.getByText(/^Page 1:/).waitFor();
      await expect.poll(() => rowIds(page)).toEqual(first);
    });
  });

  it("keeps the filters chosen while the client list is still loading", async () => {
    await withTab(async (page) => {
      let listClients!: () => void;
      const clientsMayLoad = new Promise<void>((resolve) => (listClients = resolve));
      await page.route(
        (url) => url.pathname === "/v1/clients",
        async (route) => {
          await clientsMayLoad;
          await route.continue();
        },
      );
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByLabel("Per page").selectOption("10");
      await page.getByLabel("Type").selectOption("sale");
      listClients();
      await expect.poll(() => page.getByLabel("Client").getByRole("option", { name: "Globex" }).count()).toBe(1);
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect.poll(() => page.url()).toContain("limit=10");
      expect(page.url()).toContain("type=sale");
      await expect.poll(async () => (await rowIds(page)).length).toBe(10);
    });
  });

  it("opens the view a link names even when the link is followed the moment the console appears", async () => {
    await withTab(async (page) => {
      // The fragment changes in the same task that draws the signed-in console, before any effect
      // of it can run: the view must still follow.
      await page.addInitScript(`new MutationObserver((_, observer) => {
        if (![...document.querySelectorAll("button")].some((button) => button.textContent === "Sign out")) return;
        observer.disconnect();
        location.hash = "#/transactions/${fixture.authorization}";
      }).observe(document, { childList: true, subtree: true });`);
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByRole("heading", { name: "Payment timeline" }).waitFor();
    });
  });

  it("opens a payment's timeline: each event in order, who recorded it, the state it leaves, every link checked", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.locator(`tr[data-transaction-id="${fixture.authorization}"] a`).click();
      await page.getByRole("heading", { name: "Payment timeline" }).waitFor();
      const stream = (await api.request("GET", `/v1/transactions/${fixture.authorization}/events`)).body;
      const events = page.locator("ol.timeline > li");
      await expect.poll(() => events.count()).toBe(stream.events.length);
      expect(stream.events.length).toBeGreaterThanOrEqual(4);
      expect(await events.evaluateAll((items) => items.map((item) => item.getAttribute("data-revision")))).toEqual(
        stream.events.map((event: Json) => String(event.revision)),
      );
      expect(await events.evaluateAll((items) => items.map((item) => item.getAttribute("data-verdict")))).toEqual(
        stream.events.map(() => "verified"),
      );
      expect(await page.getByTestId("chain-verdict").textContent()).toContain("Hash chain intact");
      expect(await events.first().textContent()).toContain("Recorded by client key");
      // The last event leaves the authorization captured 600, and the slider's last step shows the same.
      const current = (await api.request("GET", `/v1/transactions/${fixture.authorization}`)).body;
      expect(await events.last().textContent()).toContain(`captured 6.00 USD`);
      expect(await page.getByTestId("as-of-state").textContent()).toContain(`${current.state} 10.00 USD, captured 6.00 USD`);

      // The slider's first step is the state the first event leaves.
      await page.getByRole("slider").focus();
      await page.keyboard.press("Home");
      await expect.poll(() => page.getByTestId("as-of-state").textContent()).toContain("pending 10.00 USD, captured 0.00 USD");
      await page.keyboard.press("End");
      await screenshot(page, "timeline");
    });
  });

  it("shows the books per processor and currency with each currency's trial balance, and beside a payment's timeline the entries its events posted", async () => {
    /** An amount as the console writes it, by the currency's exponent: 123456 USD is "1,234.56 USD". */
    const written = (amount: number, currency: string) => {
      const exponent = minorUnitExponent(currency);
      const [whole, fraction] = [Math.floor(Math.abs(amount) / 10 ** exponent), Math.abs(amount) % 10 ** exponent];
      return `${amount < 0 ? "-" : ""}${whole.toLocaleString("en-US")}${exponent > 0 ? `.${String(fraction).padStart(exponent, "0")}` : ""} ${currency}`;
    };
    const balances = (await api.request("GET", "/v1/journal/balances")).body.data as Json[];
    const trialBalances = (await api.request("GET", "/v1/journal/trial-balance")).body.data as Json[];
    // Every client's balance of an account, per currency and processor.
    const expected = new Map<string, number>();
    for (const { currency, processor, account, balance } of balances) {
      const key = `${currency} ${processor} ${account}`;
      expected.set(key, (expected.get(key) ?? 0) + balance);
    }
    expect(expected.get("EUR processor_b processor_receivable")).toBe(4200);
    expect(expected.get("USD processor_a settled_funds")).toBeGreaterThan(0);
    expect([...new Set(balances.map((row) => row.currency))].sort()).toEqual(["EUR", "JPY", "KWD", "USD"]);
    const entries = (await api.request("GET", `/v1/journal/entries?paymentId=${fixture.authorization}&limit=100`)).body.data as Json[];
    expect(entries.map((entry) => entry.kind).sort()).toEqual([
      "authorization_approved",
      "capture_approved",
      "refund_approved",
      "transaction_settled",
      "transaction_settled",
    ]);

    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByRole("link", { name: "Journal" }).click();
      await page.getByRole("region", { name: "Balances in USD per processor" }).waitFor();
      for (const [key, amount] of expected) {
        const [currency, processor, account] = key.split(" ") as [string, string, string];
        if (account === "holds_offset") continue;
        const cell = page.locator(`section[data-currency="${currency}"] tr[data-processor="${processor}"] td[data-account="${account}"]`);
        expect(await cell.textContent(), key).toBe(written(amount, currency));
      }
      for (const { currency, debit, credit } of trialBalances) {
        expect(await page.getByTestId(`trial-balance-${currency}`).textContent()).toBe(
          `Trial balance: debits ${written(debit, currency)}, credits ${written(credit, currency)} balanced`,
        );
      }
      await screenshot(page, "journal");
      // As of a moment before anything was posted.
      await page.getByLabel(/^As of/).fill("2000-01-01");
      await page.getByRole("button", { name: "Show" }).click();
      await page.getByText("Nothing posted yet.").waitFor();
      expect(page.url()).toContain("#/journal?asOf=2000-01-01");

      await page.goto(`/console/#/transactions/${fixture.authorization}`);
      await page.getByTestId("as-of-state").waitFor();
      await expect.poll(() => page.locator("[data-entry-kind]").count()).toBe(entries.length);
      for (const entry of entries) {
        const posted = page.locator(`ol.timeline > li[data-event-id="${entry.eventId}"] [data-entry-kind="${entry.kind}"]`);
        const lines = entry.lines.map((line: Json) => `${line.debit > 0 ? "Dr" : "Cr"} ${line.account} ${written(line.debit || line.credit, line.currency)}`);
        expect(await posted.locator("li").allTextContents()).toEqual(lines);
      }
      expect(await page.locator('[data-entry-kind="capture_approved"] li').allTextContents()).toEqual([
        "Dr processor_receivable 6.00 USD",
        "Cr sales 6.00 USD",
        "Cr holds 6.00 USD",
        "Dr holds_offset 6.00 USD",
      ]);
      await screenshot(page, "timeline-journal");
    });
  });

  it("marks the event whose stored record was altered, and only that one, as breaking the chain", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.goto(`/console/#/transactions/${fixture.tamperedSale}`);
      const verdict = page.getByTestId("chain-verdict");
      await verdict.waitFor();
      expect(await verdict.textContent()).toContain("Hash chain broken at revision 1");
      const broken = page.locator('ol.timeline > li[data-revision="1"]');
      expect(await broken.getAttribute("data-verdict")).toBe("broken");
      expect(await broken.isVisible()).toBe(true);
      expect(await broken.textContent()).toContain("Chain breaks here: its content does not match its hash");
      // What the service found as it served the event: the hash its content has now, and the one stored.
      const [stored] = await new PostgresEventStore(api.database.db).readStream(paymentStreamId(fixture.tamperedSale), { from: 1n, maxCount: 1 });
      const link = stored!.metadata.chain as { previous: string; hash: string };
      const problem = broken.getByTestId("link-problem");
      expect(await problem.textContent()).toContain(`expected ${chainHash(link.previous, stored!)}`);
      expect(await problem.textContent()).toContain(`found ${link.hash}`);
      expect(await problem.isVisible()).toBe(true);
      // In red: the colour the styles give what is bad.
      const colour = await page.evaluate<string>(`getComputedStyle(document.querySelector('ol.timeline > li[data-revision="1"] [data-testid="link-problem"]')).color`);
      const red = await page.evaluate<string>(
        `(() => { const probe = document.createElement("span"); probe.style.color = "var(--bad-text)"; document.body.append(probe); const colour = getComputedStyle(probe).color; probe.remove(); return colour; })()`,
      );
      expect(colour).toBe(red);
      const others = await page.locator('ol.timeline > li:not([data-revision="1"])').evaluateAll((items) =>
        items.map((item) => item.getAttribute("data-verdict")),
      );
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((verdictOf) => verdictOf === "verified")).toBe(true);
      await screenshot(page, "broken-chain");
    });
  });

  it("never shows a link as verified when the service flags it, even though this browser's check holds", async () => {
    await withTab(async (page) => {
      // The service checks the stored record and sees what the page may not (the event before,
      // outside the page): its verdict stands beside the browser's. Here it alone finds revision 1 broken.
      const problem = { code: "link_mismatch", message: "it does not name the stored hash of revision 0", expected: "a".repeat(64), found: "b".repeat(64) };
      await page.route(`**/v1/transactions/${fixture.authorization}/events`, async (route) => {
        const served = await route.fetch();
        const body = (await served.json()) as { events: Json[]; brokenLinks: number };
        body.events[1].chain = { ...body.events[1].chain, status: "broken", problems: [problem] };
        await route.fulfill({ response: served, json: { ...body, brokenLinks: 1 } });
      });
      await signIn(page, TEST_ADMIN_KEY);
      await page.goto(`/console/#/transactions/${fixture.authorization}`);
      await page.getByTestId("chain-verdict").waitFor();
      expect(await page.getByTestId("chain-verdict").textContent()).toContain("Hash chain broken at revision 1");
      const flagged = page.locator('ol.timeline > li[data-revision="1"]');
      expect(await flagged.getAttribute("data-verdict")).toBe("broken");
      expect(await flagged.getByTestId("link-problem").textContent()).toContain(`expected ${problem.expected}, found ${problem.found}`);
      const linkLine = (await flagged.locator(".link-check").textContent()) ?? "";
      expect(linkLine).not.toContain("verified");
      expect(linkLine).toContain("✗ The service found this link broken");
    });
  });

  it("marks an event whose chain link was removed after chained events as breaking the chain", async () => {
    const stream = (await api.request("GET", `/v1/transactions/${fixture.unlinkedSale}/events`)).body;
    const last = String(stream.events.at(-1).revision);
    expect(Number(last)).toBeGreaterThan(0);
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.goto(`/console/#/transactions/${fixture.unlinkedSale}`);
      const verdict = page.getByTestId("chain-verdict");
      await verdict.waitFor();
      expect(await verdict.textContent()).toContain(`Hash chain broken at revision ${last}`);
      expect(await verdict.getAttribute("role")).toBe("alert");
      const unlinked = page.locator(`ol.timeline > li[data-revision="${last}"]`);
      expect(await unlinked.getAttribute("data-verdict")).toBe("broken");
      expect(await unlinked.textContent()).toContain("Chain breaks here: its chain link was removed");
    });
  });

  it("shows each event's own state when two events share a millisecond", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.goto(`/console/#/transactions/${fixture.sameMomentSale}`);
      const events = page.locator("ol.timeline > li");
      await expect.poll(() => events.count()).toBeGreaterThanOrEqual(2);
      const times = await events.locator("time").evaluateAll((items) => items.slice(0, 2).map((item) => item.getAttribute("datetime")));
      expect(times[0]).toBe(times[1]);
      expect(await events.nth(0).textContent()).toContain("Leaves this transaction pending");
      expect(await events.nth(1).textContent()).toContain("Leaves this transaction succeeded");
      await page.getByRole("slider").focus();
      await page.keyboard.press("Home");
      await expect.poll(() => page.getByTestId("as-of-state").textContent()).toContain("pending 9.00 USD");
    });
  });

  it("shows a client key its own transactions, configurations, batches and endpoints only, and another client's as not found", async () => {
    const { globex, acme } = fixture;
    await withTab(async (page, tab) => {
      await signIn(page, globex.key);
      await expect.poll(() => page.getByTestId("role").textContent()).toBe("Client key: own data");
      await expect.poll(async () => (await rowIds(page)).sort()).toEqual([...fixture.globexAll].sort());
      expect(await page.getByLabel("Client", { exact: true }).count()).toBe(0);

      await page.goto(`/console/#/transactions/${fixture.authorization}`);
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("Not found");
      expect(await page.locator("ol.timeline").count()).toBe(0);
      expect(await page.content()).not.toContain("order-1000");
      expect(tab.refusals.length).toBeGreaterThan(0);

      // Nothing of Acme's on any view this key opens.
      const acmeOwn = [acme.configurationName, "Acme terminals", "Back office", acme.settlementId, acme.endpointUrl];
      const expectNothingOfAcme = async () => {
        const shown = await page.content();
        expect(acmeOwn.filter((own) => shown.includes(own))).toEqual([]);
      };
      await page.getByRole("link", { name: "Host configurations" }).click();
      const configurations = page.getByRole("region", { name: "Host configurations" });
      await expect.poll(() => configurations.getByRole("link").allTextContents()).toEqual([globex.configurationName]);
      await expectNothingOfAcme();

      await page.getByRole("link", { name: "Operations" }).click();
      await expect.poll(() => settlementIds(page)).toEqual([globex.settlementId]);
      const failing = page.getByRole("region", { name: "Failing webhook deliveries" });
      await expect.poll(() => failing.textContent()).toContain(globex.endpointUrl);
      await expectNothingOfAcme();

      expect(tab.requests.some((url) => url.includes(globex.key))).toBe(false);
      expect(api.logs()).not.toContain(globex.key);
    });
  });

  it("fits a 390 px wide screen: no view scrolls sideways, wide tables scroll in their own region", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      for (const view of viewsOf(fixture)) {
        await openView(page, view);
        const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - window.innerWidth`);
        expect(overflow, `${view.name} scrolls sideways`).toBeLessThanOrEqual(0);
        await screenshot(page, `${view.name}-390`);
      }
      await openView(page, viewsOf(fixture)[0]!);
      const region = page.getByRole("region", { name: "Transactions" });
      expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    }, 390);
  });

  for (const width of [1280, 390]) {
    it(`has no colour contrast failure nor serious accessibility violation on any view, ${width} px wide (axe-core)`, async () => {
      await withTab(async (page) => {
        await page.goto("/console/");
        const found: Record<string, string[]> = { "sign-in": await accessibilityViolations(page) };
        await signIn(page, TEST_ADMIN_KEY);
        for (const view of viewsOf(fixture)) {
          await openView(page, view);
          found[view.name] = await accessibilityViolations(page);
        }
        expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
      }, width);
    });
  }

  it("is usable by keyboard alone: sign in, move between views, open a payment, move the slider", async () => {
    await withTab(async (page) => {
      await page.goto("/console/");
      await tabTo(page, (element) => element.id === "api-key", "the key field");
      await page.keyboard.type(TEST_ADMIN_KEY);
      expect(await page.locator("#api-key").inputValue()).toBe(TEST_ADMIN_KEY);
      expect((await focused(page)).id).toBe("api-key");
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      await expect.poll(() => focusedHeading(page)).toBe("Transactions");

      await tabTo(page, withText("Operations"), "Operations");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedHeading(page)).toBe("Operations");
      await tabTo(page, withText("Transactions"), "Transactions");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedHeading(page)).toBe("Transactions");
      await page.locator("tbody tr").first().waitFor();

      await tabTo(page, withText(`…${fixture.authorization.slice(-12)}`), "the authorization's link");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedHeading(page)).toBe("Payment timeline");
      await page.getByTestId("as-of-state").waitFor();
      const before = await page.getByTestId("as-of-state").textContent();
      await tabTo(page, (element) => element.type === "range", "the as-of slider");
      await page.keyboard.press("Home");
      await expect.poll(() => page.getByTestId("as-of-state").textContent()).not.toBe(before);
    });
  });

  it("shows operators the flow: lag, pending, jobs, settlement batches, failing webhooks, limits and today's usage", async () => {
    // Made here, not in the fixture, so that it is under a minute old when the page looks.
    const pending = await api.request("POST", "/v1/transactions/sale", {
      key: fixture.globex.key,
      body: { processor: "processor_a", amount: 100, currency: "USD", userId: "user_9", card: { ...approvedCard, number: timeoutCard } },
    });
    expect(pending.status, pending.text).toBe(504);
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByRole("link", { name: "Operations" }).click();
      await page.getByRole("heading", { name: "Projection lag" }).waitFor();
      expect(await page.getByRole("heading", { name: "Projection lag" }).locator("..").textContent()).toContain("transactions");
      const pendingCard = page.getByRole("region", { name: "Pending transactions by age" });
      expect(await pendingCard.getByRole("listitem").allTextContents()).toEqual(["<1m: 1", "1m-10m: 0", "10m-1h: 0", ">=1h: 0"]);
      expect(await pendingCard.textContent()).toMatch(/Oldest: \d+ s\./);
      const resolver = page.getByRole("region", { name: "Resolver and jobs" });
      expect(await resolver.textContent()).toContain("Owed: 1 to ask about, 0 to reverse, 0 watched.");
      expect(await resolver.textContent()).toContain("pending-resolver");
      expect(await resolver.textContent()).toContain("No pass has done anything yet.");
      const batches = page.getByRole("region", { name: "Settlement batches, newest first" });
      await expect.poll(async () => (await settlementIds(page)).sort()).toEqual([fixture.acme.settlementId, fixture.globex.settlementId].sort());
      expect(await batches.textContent()).toContain("matched");
      const failing = page.getByRole("region", { name: "Failing webhook deliveries" });
      await expect.poll(() => failing.textContent()).toContain(fixture.globex.endpointUrl);
      expect(await failing.textContent()).toContain(fixture.acme.endpointUrl);
      const usage = page.getByRole("region", { name: "Limits and today's usage per client" });
      const acmeRow = usage.locator("tr", { hasText: "Acme" });
      // Today's USD: the authorization (10.00) and the four order sales (20.90 + 21.90 + 22.90 + 23.90).
      await expect.poll(() => acmeRow.textContent()).toContain("99.60 USD / 10,000.00 USD");
      await screenshot(page, "operations");

      // A pass's summary as the resolver stores it with its lease (its one pass here found nothing to do).
      const pass: PassSummary = {
        at: "2026-11-26T06:00:00.000Z",
        counts: { approved: 1, declined: 0, failed: 0, approved_late: 0, reversed: 0, reversal_refused: 0, still_pending: 2, errored: 1 },
      };
      await sql`update projection_checkpoints set last_pass = ${JSON.stringify(pass)} where projection = ${PENDING_RESOLVER_LEASE}`.execute(
        api.database.db,
      );
      await page.reload();
      await expect
        .poll(() => resolver.textContent())
        .toContain("Last pass: 2026-11-26 06:00:00 UTC: 1 approved, 2 still pending, 1 errored.");
    });
  });

  it("shows a client key its own limits and today's usage, and no other client's", async () => {
    await withTab(async (page) => {
      await signIn(page, fixture.acme.key);
      await page.getByRole("link", { name: "Operations" }).click();
      const usage = page.getByRole("region", { name: "Limits and today's usage per client" });
      await expect.poll(() => usage.locator("tbody tr").count()).toBe(1);
      expect(await usage.locator("tbody tr").textContent()).toContain("Acme");
      expect(await usage.textContent()).toContain("99.60 USD / 10,000.00 USD");
      expect(await usage.textContent()).not.toContain("Globex");
    });
  });

  it("shows two versions of a host configuration side by side, secrets only as configured", async () => {
    await withTab(async (page) => {
      await signIn(page, TEST_ADMIN_KEY);
      await page.getByRole("link", { name: "Host configurations" }).click();
      await page.getByRole("link", { name: "Back office (north)" }).click();
      const diff = page.getByRole("region", { name: "Version 1 and version 2 side by side" });
      await diff.waitFor();
      const changed = await diff.locator("tr[data-changed]").evaluateAll((rows) => rows.map((row) => row.querySelector("th")!.textContent));
      expect(changed).toEqual(expect.arrayContaining(["≠ name", "≠ version"]));
      expect(changed).not.toContain("≠ merchant.merchantId");
      expect(await diff.locator("tr", { hasText: "credentials" }).textContent()).toBe("credentialsconfiguredconfigured");
      expect(await page.content()).not.toContain("s3cret pass!");
      await screenshot(page, "host-configuration-diff");
    });
  });
});
