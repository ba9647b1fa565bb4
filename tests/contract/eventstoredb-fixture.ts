import { setTimeout as sleep } from "node:timers/promises";
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from "testcontainers";
import { createEventStoreDbEventStore } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import type { EventStoreFixture, FixtureSetup } from "./fixture.ts";

const IMAGE = "eventstore/eventstore:24.10";
/** The server's default `MaxAppendSize`, which compose.yaml states: 1 MiB. */
const MAX_APPEND_SIZE = 1_048_576;
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
  return { store, close, eventIdsUniqueIn: "stream", maxAppendSize: MAX_APPEND_SIZE };
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
 * EventStoreDB for the contract suite: the server at EVENTSTORE_URL when given, else a throwaway
 * container when a Docker engine answers, else a skip with the reason.
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
        EVENTSTORE_INSECURE: "true",
        EVENTSTORE_RUN_PROJECTIONS: "None",
        EVENTSTORE_MEM_DB: "true",
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(Wait.forHttp("/health/live", HTTP_PORT).forStatusCode(204))
      .withStartupTimeout(120_000)
      .start();
    const connectionString = `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`;
    return connect(connectionString, async () => {
      await container.stop();
    });
  };
}
