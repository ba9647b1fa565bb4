import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../support/service.ts";

describe("an unexpected failure", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService("pglite");
  });
  afterAll(() => api.stop());

  it("is a 500 internal_error problem with no stack trace or SQL, and is logged", async () => {
    const client = await api.createClient("Doomed");
    await sql`alter table clients rename to clients_gone`.execute(api.database.db);
    const response = await api.request("GET", `/v1/clients/${client.clientId}`);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: "internal_error", status: 500, requestId: expect.any(String) });
    expect(response.text).not.toMatch(/clients|relation|select|at .*\.ts/i);
    expect(api.logs()).toContain("request failed");
  });
});
