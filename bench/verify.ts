/**
 * `ledger verify` of a large log on the embedded default (issue 54: 100,000 events in under 15 s).
 * The real service (built, dist/main.js) records a few payments of every shape in a fresh DATA_DIR
 * and stops; their payment streams are then appended again under fresh ids until the log holds
 * `--events` events, and every read model is rebuilt from it. Then the built CLI, as an operator
 * runs it (`node bin/ledger.js verify`), verifies the stopped database, and once more with the
 * service running on it (a snapshot the service hands over). Needs `npm run build:server` first.
 * Usage: tsx bench/verify.ts [--events 100000]
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openDatabase } from "../src/db/connection.ts";
import { chainEvents } from "../src/eventstore/hash-chain.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import type { JsonObject, NewEvent } from "../src/eventstore/port.ts";
import { projections } from "../src/projections/all.ts";
import { rebuildProjection } from "../src/projections/rebuild.ts";
import { validBodies } from "../tests/support/host-configurations.ts";
import { startBuiltService, stopProcess } from "../tests/support/process.ts";
import { benchArgs, formatNumber, intOption, printResults } from "./support.ts";

const GOAL_SECONDS = 15;
const root = fileURLToPath(new URL("..", import.meta.url));
const ADMIN = "bench-verify-admin-key-0123456789abcdefghijklmnop";
const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };

const { values } = benchArgs(["events"]);
const target = intOption(values.events, 100_000, "events");

async function recordTemplates(url: string): Promise<void> {
  const call = async (method: string, route: string, key: string, body?: object) => {
    const response = await fetch(`${url}/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300 && response.status !== 402) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: string; key: string; transaction?: { id: string } };
  };
  const client = await call("POST", "/clients", ADMIN, { name: "Bench" });
  const { key } = await call("POST", `/clients/${client.id}/api-keys`, ADMIN, {});
  await call("POST", "/host-configurations/processor_a", ADMIN, { ...validBodies.processor_a, clientId: client.id });
  const payment = { processor: "processor_a", currency: "USD", userId: "user_1", card };
  const authorization = await call("POST", "/transactions/authorization", key, { ...payment, amount: 1000 });
  const capture = await call("POST", "/transactions/capture", key, { transactionId: authorization.id, amount: 600 });
  await call("POST", "/transactions/refund", key, { transactionId: capture.id, amount: 200, reason: "damaged" });
  const sale = await call("POST", "/transactions/sale", key, { ...payment, amount: 500 });
  await call("POST", "/transactions/void", key, { transactionId: sale.id });
  await call("POST", "/transactions/sale", key, { ...payment, amount: 700 });
  await call("POST", "/transactions/sale", key, { ...payment, amount: 300, card: { ...card, number: "4000000000000002" } });
}

/** Appends copies of the payment streams, every id in them but the client's and its configuration's made anew, up to `target` events. */
async function cloneUntil(dataDir: string): Promise<number> {
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    const store = new PostgresEventStore(database.db);
    const templates: { streamId: string; events: NewEvent[] }[] = [];
    const keep = new Set<string>();
    let checkpoint = null;
    let total = 0;
    for (;;) {
      const batch = await store.readAll({ after: checkpoint, batchSize: 1_000 });
      if (batch.checkpoint === checkpoint) break;
      checkpoint = batch.checkpoint;
      for (const event of batch.events) {
        total += 1;
        if (!event.streamId.startsWith("payment-")) {
          for (const id of JSON.stringify(event.data).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []) keep.add(id);
          continue;
        }
        let template = templates.find((candidate) => candidate.streamId === event.streamId);
        if (!template) templates.push((template = { streamId: event.streamId, events: [] }));
        const { chain: _chain, ...metadata } = event.metadata as JsonObject & { chain?: unknown };
        template.events.push({ type: event.type, data: event.data, metadata });
      }
    }
    const texts = templates.map((template) => JSON.stringify(template));
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    let next = 0;
    const appendOne = async (index: number) => {
      const fresh = new Map<string, string>();
      const copy = JSON.parse(texts[index % texts.length]!.replace(uuid, (id) => (keep.has(id) ? id : (fresh.get(id) ?? fresh.set(id, randomUUID()).get(id)!)))) as {
        streamId: string;
        events: NewEvent[];
      };
      await store.append(copy.streamId, chainEvents(copy.streamId, undefined, copy.events), "no_stream");
      return copy.events.length;
    };
    const loaders = Array.from({ length: 8 }, async () => {
      while (total < target) {
        const appended = await appendOne(next++);
        total += appended;
      }
    });
    await Promise.all(loaders);
    for (const projection of projections) await rebuildProjection({ db: database.db, store, projection });
    return total;
  } finally {
    await database.close();
  }
}

async function timedVerify(dataDir: string): Promise<{ seconds: number; output: string; ok: boolean }> {
  const started = performance.now();
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(root, "bin/ledger.js"), "verify"], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", EVENTSTORE_URL: "" },
    maxBuffer: 64 * 1024 * 1024,
  });
  // stderr may follow the verdict (a note that dist/ is stale): the verdict is stdout's last line.
  return { seconds: (performance.now() - started) / 1_000, output: stdout + stderr, ok: stdout.trimEnd().endsWith("verify: ok") };
}

const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-bench-verify-"));
try {
  const environment = { DATA_DIR: dataDir, DATABASE_URL: "", EVENTSTORE_URL: "", ADMIN_API_KEY: ADMIN };
  let service = await startBuiltService(path.join(root, "dist"), environment);
  await recordTemplates(service.url);
  await stopProcess(service.child);
  const started = performance.now();
  const events = await cloneUntil(dataDir);
  console.log(`loaded ${formatNumber(events)} events and rebuilt every read model in ${formatNumber((performance.now() - started) / 1_000, 1)} s`);

  const stopped = await timedVerify(dataDir);
  console.log(stopped.output);
  service = await startBuiltService(path.join(root, "dist"), environment);
  let running;
  try {
    running = await timedVerify(dataDir);
    console.log(running.output);
  } finally {
    await stopProcess(service.child);
  }
  const row = (metric: string, { seconds, ok }: { seconds: number; ok: boolean }) => ({
    target: "pglite",
    metric,
    value: `${formatNumber(seconds, 1)} s${ok ? "" : " (NOT ok)"}`,
    goal: `< ${GOAL_SECONDS} s`,
    met: seconds < GOAL_SECONDS && ok ? "yes" : "no",
  });
  printResults([
    row(`node bin/ledger.js verify, ${formatNumber(events)} events, service stopped`, stopped),
    row(`node bin/ledger.js verify, ${formatNumber(events)} events, service running (snapshot)`, running),
  ]);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
