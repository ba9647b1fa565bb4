import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCheckpointSigner } from "../../src/audit/checkpoint-keys.ts";
import { CHECKPOINT_STREAM, type CheckpointData, checkpointLines, recordCheckpoints } from "../../src/audit/checkpoints.ts";
import type { Database } from "../../src/db/schema.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { recordPayments } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { capturedLogs, type Json, startTestService, testConfig, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));
const DAY_MS = 86_400_000;

function ed25519Key() {
  const { privateKey } = generateKeyPairSync("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // What must never show: the PEM's body, and the raw private key (the JWK's `d`).
  const secrets = [pem.split("\n")[1]!, privateKey.export({ format: "jwk" }).d!];
  return { pem, secrets };
}

/** The service's environment with checkpoints on: one look at start, the next only in hours. */
const checkpointEnvironment = (pem: string) => ({ CHECKPOINT_INTERVAL_SECONDS: "86400", CHECKPOINT_SIGNING_KEY: pem });

for (const target of testDatabaseTargets()) {
  describe(`signed checkpoints of the chain heads on ${target}`, () => {
    const oldKey = ed25519Key();
    const newKey = ed25519Key();
    let api: TestService;
    let rotated: Service | undefined;
    const rotatedLogs = capturedLogs();
    let db: Kysely<Database>;
    let store: EventStore;
    let folder: string;
    let stream: string;

    const checkpoints = async () => (await store.readStream(CHECKPOINT_STREAM)).map((event): CheckpointData => event.data as Json);
    const at = (days: number) => () => new Date(Date.now() + days * DAY_MS);

    /** The whole log through GET /v1/events, as `ledger export` writes it. */
    async function exportLog(): Promise<string> {
      const lines: string[] = [];
      for (let cursor: string | null = null; ; ) {
        const response = await api.request("GET", `/v1/events?limit=100${cursor ? `&after=${cursor}` : ""}`);
        lines.push(...response.body.data.map((event: Json) => JSON.stringify(event)));
        if (response.body.nextCursor === null) return `${lines.join("\n")}\n`;
        cursor = response.body.nextCursor;
      }
    }

    /** `ledger verify-export` on a fresh export, the checkpoints exported now and the published key list. */
    async function verifyAgainstCheckpoints() {
      const files = { log: path.join(folder, "log.ndjson"), checkpoints: path.join(folder, "checkpoints.ndjson"), keys: path.join(folder, "keys.json") };
      await writeFile(files.log, await exportLog());
      const lines: string[] = [];
      for await (const line of checkpointLines(store, undefined)) lines.push(line);
      await writeFile(files.checkpoints, lines.join(""));
      // As an auditor fetches them: without an API key, outside /v1 (every /v1 route takes a key).
      const keys = await api.request("GET", "/audit/checkpoint-keys", { key: null });
      expect(keys.status).toBe(200);
      expect((await api.request("GET", "/v1/audit/checkpoint-keys", { key: null })).status).toBe(401);
      expect((await api.request("GET", "/v1/audit/checkpoint-keys")).body).toEqual(keys.body);
      await writeFile(files.keys, keys.text);
      // Offline: a DATABASE_URL nothing answers, and a data directory that does not exist.
      const offline = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: path.join(folder, "absent") };
      return runProcess(ledger, ["verify-export", files.log, "--checkpoints", files.checkpoints, "--key", files.keys], offline);
    }

    beforeAll(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), "ledger-checkpoints-"));
      api = await startTestService(target, checkpointEnvironment(oldKey.pem));
      db = api.database.db;
      store = new PostgresEventStore(db);
      // The first look at start anchors the key the service just published: wait for it, so that
      // what the tests record next does not race it.
      while ((await checkpoints()).length === 0) await sleep(20);
      stream = paymentStreamId((await recordPayments(api)).authorization);
    }, 60_000);
    afterAll(async () => {
      await rotated?.stop();
      await api.stop();
      await rm(folder, { recursive: true, force: true });
    });

    it("records the changed heads once an interval has passed, one instance of several, and they verify", async () => {
      const signer = await loadCheckpointSigner({ pem: oldKey.pem });
      const options = { store, signer, intervalMs: DAY_MS };
      expect(await recordCheckpoints({ ...options, now: at(0) })).toBe(0);

      expect(await recordCheckpoints({ ...options, now: at(1) })).toBe(1);
      const [, checkpoint] = await checkpoints();
      const [head] = await store.readStream(stream, { direction: "backwards", maxCount: 1 });
      expect(checkpoint).toMatchObject({ sequence: 1, keyId: signer.keyId });
      expect(checkpoint!.heads).toContainEqual({ streamId: stream, revision: Number(head!.revision), hash: (head!.metadata.chain as Json).hash });
      expect(checkpoint!.heads.map((covered) => covered.streamId)).not.toContain(CHECKPOINT_STREAM);

      // Nothing changed since: no checkpoint, however late.
      expect(await recordCheckpoints({ ...options, now: at(3) })).toBe(0);

      // Two instances at once: one records.
      await recordPayments(api);
      const both = await Promise.all([recordCheckpoints({ ...options, now: at(2) }), recordCheckpoints({ ...options, now: at(2) })]);
      expect(both.sort()).toEqual([0, 1]);
      expect(await checkpoints()).toHaveLength(3);

      const verified = await verifyAgainstCheckpoints();
      expect(verified.stderr).toBe("");
      expect(verified.stdout).toContain("checkpoints.ndjson: 3 checkpoints covering");
      expect(verified.stdout).toContain("ok: every checkpoint's signature and Merkle root verify");
      expect(verified.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: ok: every stream is one unbroken hash chain");
      expect(verified.code).toBe(0);
    }, 60_000);

    it("keeps the checkpoints of a rotated key verifiable with the published key list", async () => {
      // Another instance started with the new key: it publishes it, and records nothing before the interval.
      const config = testConfig(api.database.url, checkpointEnvironment(newKey.pem));
      rotated = await startService(config, createLogger("info", rotatedLogs.sink), { ...api.database, close: async () => {} });
      const keys = (await api.request("GET", "/audit/checkpoint-keys", { key: null })).body.keys as Json[];
      const [oldSigner, newSigner] = await Promise.all([loadCheckpointSigner({ pem: oldKey.pem }), loadCheckpointSigner({ pem: newKey.pem })]);
      expect(keys.map((key) => key.keyId)).toEqual([oldSigner.keyId, newSigner.keyId]);
      expect(keys[1]).toEqual({ keyId: newSigner.keyId, algorithm: "ed25519", publicKey: newSigner.publicKeyPem, publishedAt: expect.any(String) });

      await recordPayments(api);
      expect(await recordCheckpoints({ store, signer: newSigner, intervalMs: DAY_MS, now: at(4) })).toBe(1);
      expect((await checkpoints()).map((checkpoint) => checkpoint.keyId)).toEqual([oldSigner.keyId, oldSigner.keyId, oldSigner.keyId, newSigner.keyId]);

      const verified = await verifyAgainstCheckpoints();
      expect(verified.stdout).toContain("checkpoints.ndjson: 4 checkpoints covering");
      expect(verified.code).toBe(0);
    }, 60_000);

    it("catches a stream rewritten with every hash recomputed, naming it", async () => {
      // The capture's amount changed, and revisions 2.. of the stream hashed again: the chain holds.
      const events = await store.readStream(stream);
      let previous = (events[1]!.metadata.chain as Json).hash as string;
      for (const event of events.slice(2)) {
        const data = event.revision === 2n ? { ...event.data, amount: 1 } : event.data;
        const hash = chainHash(previous, { ...event, data });
        await sql`update events set data = ${JSON.stringify(data)}::jsonb, metadata = ${JSON.stringify({ ...event.metadata, chain: { previous, hash } })}::jsonb
                  where stream_id = ${stream} and revision = ${event.revision}`.execute(db);
        previous = hash;
      }

      const verified = await verifyAgainstCheckpoints();
      const output = verified.stdout.split("\n");
      expect(output).toContain(`  FAILED ${stream}: revisions 0..${events.length - 1} (${events.length} events) chained from the stream's start; head ${previous}`);
      expect(output.find((line) => line.includes("head_rewritten"))).toMatch(
        new RegExp(`revision ${events.length - 1}: head_rewritten: .* \\(expected ${(events.at(-1)!.metadata.chain as Json).hash}, found ${previous}\\)`),
      );
      expect(output.at(-2)).toBe("verify-export: 1 stream failed");
      expect(verified.code).toBe(1);
    }, 60_000);

    it("never shows the private keys: not in logs, events or answers", async () => {
      const everything = [
        api.logs(),
        rotatedLogs.lines.join(""),
        await exportLog(),
        (await api.request("GET", "/audit/checkpoint-keys", { key: null })).text,
        (await api.request("GET", "/openapi.json", { key: null })).text,
      ].join("\n");
      for (const secret of [...oldKey.secrets, ...newKey.secrets]) expect(everything).not.toContain(secret);
      expect(everything).not.toContain("PRIVATE KEY");
    });
  });
}
