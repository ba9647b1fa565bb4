import { afterAll, beforeAll, expect, it } from "vitest";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";

/** `server-timing` tells the time a request waited on its processor from the rest (issue 52). */

let api: TestService;
let key: string;

beforeAll(async () => {
  // The built-in simulator, every answer 200 ms late.
  api = await startTestService("pglite", { SIMULATOR_LATENCY_P50_MS: "200", SIMULATOR_LATENCY_P99_MS: "200" });
  const client = await api.createClient("Acme");
  key = client.key;
  const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
  expect(created.status).toBe(201);
});
afterAll(() => api.stop());

const timingOf = (header: string | null) => {
  const match = /^processor;dur=(\d+\.\d), app;dur=(\d+\.\d)$/.exec(header ?? "");
  if (!match) throw new Error(`unexpected server-timing: ${header}`);
  return { processorMs: Number(match[1]), appMs: Number(match[2]) };
};

it("counts a sale's processor call as processor time, the rest as the service's", async () => {
  const startedAt = performance.now();
  const sale = await api.request("POST", "/v1/transactions/sale", {
    key,
    body: { processor: "processor_a", amount: 1099, currency: "USD", userId: "user_1", card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } },
  });
  const elapsedMs = performance.now() - startedAt;
  expect(sale.status).toBe(201);
  const { processorMs, appMs } = timingOf(sale.headers.get("server-timing"));
  expect(processorMs).toBeGreaterThanOrEqual(195);
  expect(processorMs + appMs).toBeLessThanOrEqual(elapsedMs);

  const read = await api.request("GET", `/v1/transactions/${String(sale.body.id)}`, { key });
  expect(timingOf(read.headers.get("server-timing")).processorMs).toBe(0);
});
