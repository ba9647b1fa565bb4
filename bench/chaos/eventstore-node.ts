import { exec } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import type { EventStore } from "../../src/eventstore/port.ts";

const shell = promisify(exec);

/** How long a restarted node is given to serve reads again before the run fails. */
const ANSWER_WITHIN_MS = 120_000;

/**
 * The EventStoreDB node a run's events live in, killed and restarted by the operator's own shell
 * commands (the harness does not know how the server is run, only how to ask for it).
 */
export interface EventStoreNode {
  url: string;
  /** `kill -9` of the node: the operator's kill command; resolves once it has run. */
  kill(): Promise<void>;
  /** The operator's restart command, then waits until the node serves reads again. */
  restart(): Promise<void>;
  /**
   * Resolves once EventStoreDB serves the harness's reads again: after a restart for one node; in
   * a cluster, once a new leader is elected and the client has found it.
   */
  answering(): Promise<void>;
}

export function eventStoreNode(url: string, store: EventStore, commands: { kill: string; restart: string }): EventStoreNode {
  return {
    url,
    kill: () => run(commands.kill),
    async restart() {
      await run(commands.restart);
      await waitUntilAnswering(store);
    },
    answering: () => waitUntilAnswering(store),
  };
}

async function run(command: string): Promise<void> {
  try {
    await shell(command, { timeout: 60_000 });
  } catch (error) {
    throw new Error(`the command \`${command}\` failed`, { cause: error });
  }
}

async function waitUntilAnswering(store: EventStore): Promise<void> {
  const deadline = Date.now() + ANSWER_WITHIN_MS;
  for (;;) {
    const failure = await store.readHead().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (failure === undefined) return;
    if (Date.now() > deadline) throw new Error(`EventStoreDB did not answer within ${ANSWER_WITHIN_MS / 1000} s of its restart: ${failure}`);
    await sleep(250);
  }
}

/**
 * The run reads its read models from a fresh PostgreSQL: events left in the store by an earlier
 * run would be projected into them and judged as this run's.
 */
export async function requireEmpty(store: EventStore, url: string): Promise<void> {
  const head = await store.readHead();
  if (head.position !== null) throw new Error(`${url} already holds events: give the run an EventStoreDB with an empty database`);
}
