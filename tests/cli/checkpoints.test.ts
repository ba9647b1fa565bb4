import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKPOINT_STREAM, type CheckpointData, checkpointOf } from "../../src/audit/checkpoints.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { testEnvironment } from "../support/environment.ts";
import { recordPayments } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { startTestService, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));

// `ledger checkpoints export` runs in a process of its own next to the service: that needs a server, not PGlite.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set";
if (skipReason) console.warn(`SKIPPED ledger checkpoints CLI test: ${skipReason}`);

describe.skipIf(skipReason)("ledger checkpoints export and verify-export --checkpoints, as processes", { timeout: 90_000 }, () => {
  let api: TestService;
  let folder: string;
  const file = (name: string) => path.join(folder, name);
  /** As a user runs it: on the service's database for export; verify-export offline, with nothing to connect to. */
  const online = () => ({ DATABASE_URL: api.database.url!, EVENTSTORE_URL: "", DATA_DIR: "memory://" });
  const offline = () => ({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", EVENTSTORE_URL: "", DATA_DIR: path.join(folder, "absent") });

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "ledger-cli-checkpoints-"));
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    api = await startTestService("postgres", { CHECKPOINT_INTERVAL_SECONDS: "1", CHECKPOINT_SIGNING_KEY: pem });
    const store = new PostgresEventStore(api.database.db);
    const sale = paymentStreamId((await recordPayments(api)).sale);
    const [head] = await store.readStream(sale, { direction: "backwards", maxCount: 1 });
    const covers = (checkpoint: CheckpointData) => checkpoint.heads.some((covered) => covered.streamId === sale && covered.revision === Number(head!.revision));
    // The service's own timer records it (once a second).
    while (!(await store.readStream(CHECKPOINT_STREAM)).some((event) => covers(checkpointOf(event)))) await sleep(100);
  });
  afterAll(async () => {
    await api?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("exports the checkpoints as NDJSON, then verifies an export against them with the public keys; a forged checkpoint fails", async () => {
    const exported = await runProcess(ledger, ["checkpoints", "export"], online());
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trimEnd().split("\n");
    const recorded = (await new PostgresEventStore(api.database.db).readStream(CHECKPOINT_STREAM)).map(checkpointOf);
    expect(lines.map((line) => JSON.parse(line).sequence)).toEqual(recorded.map((checkpoint) => checkpoint.sequence).slice(0, lines.length));
    expect(exported.stderr).toContain(`exported ${lines.length} checkpoint`);
    await writeFile(file("checkpoints.ndjson"), exported.stdout);

    // The log exported after the checkpoints, and the keys fetched as an auditor does: no API key.
    const log = await runProcess(ledger, ["export"], online());
    expect(log.code, log.stderr).toBe(0);
    await writeFile(file("log.ndjson"), log.stdout);
    const keys = await fetch(`${api.url}/audit/checkpoint-keys`);
    expect(keys.status).toBe(200);
    await writeFile(file("keys.json"), await keys.text());

    const verified = await runProcess(ledger, ["verify-export", file("log.ndjson"), "--checkpoints", file("checkpoints.ndjson"), "--key", file("keys.json")], offline());
    expect(verified.stderr).toBe("");
    expect(verified.stdout).toContain(`${file("checkpoints.ndjson")}: ${lines.length} checkpoint`);
    expect(verified.stdout).toContain("ok: every checkpoint's signature and Merkle root verify");
    expect(verified.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: ok: every stream is one unbroken hash chain");
    expect(verified.code).toBe(0);

    // A checkpoint whose first covered head was changed after signing: its root no longer matches.
    const [first, ...rest] = lines;
    const forged = JSON.parse(first!) as CheckpointData;
    forged.heads[0] = { ...forged.heads[0]!, hash: "0".repeat(64) };
    await writeFile(file("forged.ndjson"), [JSON.stringify(forged), ...rest].join("\n") + "\n");
    const refused = await runProcess(ledger, ["verify-export", file("log.ndjson"), "--checkpoints", file("forged.ndjson"), "--key", file("keys.json")], offline());
    expect(refused.stdout).toMatch(/FAILED line 1, checkpoint \d+: /);
    expect(refused.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: the checkpoints do not verify: their heads prove nothing");
    expect(refused.code).toBe(1);

    const withoutKey = await runProcess(ledger, ["verify-export", file("log.ndjson"), "--checkpoints", file("checkpoints.ndjson")], offline());
    expect(withoutKey.stderr).toContain("--checkpoints needs --key");
    expect(withoutKey.code).toBe(2);
  });
});
