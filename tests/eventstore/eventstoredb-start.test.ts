import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EventStoreUnavailableError } from "../../src/eventstore/errors.ts";
import { awaitFirstAnswer } from "../../src/eventstore/eventstoredb/event-store.ts";
import { freePort } from "../processors/free-port.ts";
import { runProcess } from "../support/process.ts";
import { FakeServer, serverFaults } from "./fake-eventstoredb-client.ts";

const where = "esdb://admin:changeit@127.0.0.1:2113?tls=false";

describe("a start waiting for EventStoreDB's first answer (fake server)", () => {
  it("gives up after its window when the node stays down, naming where it looked without the password", async () => {
    const server = new FakeServer();
    server.stop(serverFaults.unavailableOnReconnect);
    const waited = awaitFirstAnswer(server.asClient(), where, 300);
    await expect(waited).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(waited).rejects.toThrow(
      /^EventStoreDB at esdb:\/\/127\.0\.0\.1:2113\?tls=false did not answer within 300 ms \(Error, code 14: 14 UNAVAILABLE: No connection established.*\); check EVENTSTORE_URL and that the server runs$/,
    );
  });

  it("goes on once a node still starting answers within the window", async () => {
    const server = new FakeServer();
    server.stop(serverFaults.unavailableOnReconnect);
    setTimeout(() => server.restart(), 200);
    await expect(awaitFirstAnswer(server.asClient(), where, 5_000)).resolves.toBeUndefined();
  });
});


describe("npm start with an EventStoreDB that does not answer", () => {
  it("exits 1 with one fatal line saying so, rather than serving every request 503", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-esdb-start-"));
    try {
      const url = `esdb://127.0.0.1:${await freePort()}?tls=false`;
      const finished = await runProcess("src/main.ts", [], { PORT: "0", DATABASE_URL: "", DATA_DIR: dataDir, EVENTSTORE_URL: url }, { killAfterMs: 30_000 });
      expect(finished.code).toBe(1);
      const fatal = finished.stdout.split("\n").filter((line) => line.includes('"level":60'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain(`EventStoreDB at ${url} did not answer within 5000 ms`);
      expect(finished.stdout).not.toContain("API: http");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
