import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from "testcontainers";
import { createEventStoreDbEventStore } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import type { EventStoreFixture, FixtureSetup } from "./fixture.ts";

const IMAGE = "kurrentplatform/kurrentdb:26.1";
const HTTP_PORT = 2113;
const READY_TIMEOUT_MS = 60_000;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The node can answer /health/live before it serves reads; wait until a stream read succeeds. */
async function waitUntilServing(store: EventStore, connectionString: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      await store.readStream(`readiness-probe-${crypto.randomUUID()}`, { maxCount: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`EventStoreDB at ${connectionString} did not answer within ${READY_TIMEOUT_MS} ms: ${messageOf(error)}`, {
          cause: error,
        });
      }
      await sleep(500);
    }
  }
}

/** What a node's `/info/options` lists: each option's name and value as text. */
type Options = { name: string; value: string }[];

/**
 * The node's `MaxAppendSize` as it runs (by default 1 MiB on EventStoreDB 24.10, a chunk's 256 MiB
 * on KurrentDB 26.1, or what it was started with), from its options over HTTP: the first node of
 * the connection string, over TLS unless `tls=false`, with its credentials and CA file.
 */
async function serverMaxAppendSize(connectionString: string): Promise<number> {
  const url = new URL(connectionString);
  const host = url.host.split(",")[0]!;
  const secure = url.searchParams.get("tls") !== "false";
  const headers: Record<string, string> = { accept: "application/json" };
  if (url.username) headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  const where = `${secure ? "https" : "http"}://${host}/info/options`;
  let body: string;
  if (secure) {
    const caFile = url.searchParams.get("tlsCAFile");
    const ca = caFile ? await readFile(caFile) : undefined;
    body = await new Promise<string>((resolve, reject) => {
      request(where, { headers, ca }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text)).on("error", reject);
      })
        .on("error", reject)
        .end();
    });
  } else {
    body = await (await fetch(where, { headers })).text();
  }
  const option = (JSON.parse(body) as Options).find(({ name }) => name.toLowerCase() === "maxappendsize");
  const size = Number(option?.value);
  if (!Number.isSafeInteger(size) || size <= 0) throw new Error(`${where} names no MaxAppendSize: ${body.slice(0, 200)}`);
  return size;
}

async function connect(connectionString: string, cleanup: () => Promise<void>): Promise<EventStoreFixture> {
  const store = createEventStoreDbEventStore(connectionString);
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      await cleanup();
    }
  };
  try {
    await waitUntilServing(store, connectionString);
  } catch (error) {
    await close();
    throw error;
  }
  // advancePositionBeyond is left out: EventStoreDB assigns log positions itself.
  return { store, close, eventIdsUniqueIn: "stream", maxAppendSize: await serverMaxAppendSize(connectionString) };
}

async function dockerUnavailableReason(): Promise<string | null> {
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * KurrentDB or EventStoreDB for the contract suite: the server at EVENTSTORE_URL when given, else
 * a throwaway KurrentDB 26.1 container when a Docker engine answers, else a skip with the reason.
 */
export function eventStoreDbSetup(env: { EVENTSTORE_URL?: string }): FixtureSetup {
  return async () => {
    if (env.EVENTSTORE_URL) return connect(env.EVENTSTORE_URL, async () => {});

    const reason = await dockerUnavailableReason();
    if (reason !== null) {
      return { skip: `EventStoreDB: EVENTSTORE_URL is not set and no Docker engine answers (${reason})` };
    }

    const container: StartedTestContainer = await new GenericContainer(IMAGE)
      .withEnvironment({
        KURRENTDB_INSECURE: "true",
        KURRENTDB_RUN_PROJECTIONS: "None",
        KURRENTDB_MEM_DB: "true",
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(Wait.forHttp("/health/live", HTTP_PORT).forStatusCode(204))
      .withStartupTimeout(120_000)
      .start();
    const connectionString = `kurrentdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`;
    return connect(connectionString, async () => {
      await container.stop();
    });
  };
}
