import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Kysely, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CheckpointSigner, loadCheckpointSigner, publishCheckpointKey } from "../../src/audit/checkpoint-keys.ts";
import {
  type ChainHead,
  type CheckpointVerification,
  checkpointDigest,
  merkleRoot,
  parseCheckpointKeys,
  signedContent,
  verifyCheckpoints,
} from "../../src/audit/checkpoint-proof.ts";
import { CHECKPOINT_STREAM, checkpointLines, recordCheckpoints, verifyRecordedCheckpoints } from "../../src/audit/checkpoints.ts";
import { verifyChains } from "../../src/audit/verify-chains.ts";
import { verify } from "../../src/cli/verify.ts";
import type { Database } from "../../src/db/schema.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { chainEvents, readChainLink } from "../../src/eventstore/hash-chain.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { recordPayments } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));
const DAY_MS = 86_400_000;
const base = Date.now();
const at = (days: number) => new Date(base + days * DAY_MS);

/** Each problem, as `sequence code`. */
const problemsOf = (result: CheckpointVerification) => result.problems.map((problem) => `${problem.sequence} ${problem.code}`);

const rollback = new Error("rollback");

/** Runs `check` on the log as `tamper` leaves it, inside a transaction rolled back after. */
async function whileTampered<T>(db: Kysely<Database>, tamper: (trx: Transaction<Database>) => Promise<unknown>, check: (store: EventStore, trx: Transaction<Database>) => Promise<T>) {
  let checked: T | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      await tamper(trx);
      checked = await check(new PostgresEventStore(trx), trx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return checked!;
}

for (const target of testDatabaseTargets()) {
  describe(`the chain of signed checkpoints on ${target}`, () => {
    let api: TestService;
    let store: EventStore;
    let signer: CheckpointSigner;
    let keys: Map<string, KeyObject>;
    /** The authorization's payment: covered by checkpoints 0 and 1 only. */
    let stream: string;
    /** `ledger checkpoints export`: 0 and 1 as the release before checkpoint chains recorded them, 2 and 3 by this one's recorder. */
    let file: string[];
    /** The whole log, as `ledger export` writes it. */
    let log: string[];

    const sign64 = (content: Parameters<typeof signedContent>[0]) => sign(null, signedContent(content), signer.privateKey).toString("base64");

    /** A checkpoint of every chained head, as the release before checkpoint chains recorded it: signed without `previous`. */
    async function recordUnchainedCheckpoint(sequence: number, recordedAt: Date) {
      const heads = new Map<string, ChainHead>();
      let through: string | null = null;
      for (;;) {
        const batch = await store.readAll({ after: through, batchSize: 500 });
        if (batch.events.length === 0) break;
        for (const event of batch.events) {
          const link = readChainLink(event.metadata);
          if (event.streamId !== CHECKPOINT_STREAM && typeof link === "object") {
            heads.set(event.streamId, { streamId: event.streamId, revision: Number(event.revision), hash: link.hash });
          }
        }
        through = batch.checkpoint;
      }
      const sorted = [...heads.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : 1));
      const content = { sequence, keyId: signer.keyId, recordedAt: recordedAt.toISOString(), root: merkleRoot(sorted) };
      const data = { ...content, heads: sorted, signature: sign64(content), through };
      const [last] = await store.readStream(CHECKPOINT_STREAM, { direction: "backwards", maxCount: 1 });
      const events = chainEvents(CHECKPOINT_STREAM, last, [{ type: "ChainCheckpointRecorded", data }]);
      await store.append(CHECKPOINT_STREAM, events, last?.revision ?? "no_stream");
    }

    /** The log with the capture's amount rewritten and every later hash of its stream recomputed: a consistent chain. */
    function rewritten(): string[] {
      let previous: string | null = null;
      return log.map((line) => {
        const event = JSON.parse(line);
        if (event.streamId !== stream) return line;
        const data = event.revision === 2 ? { ...event.data, amount: 1 } : event.data;
        const hash: string = event.revision >= 2 ? chainHash(previous, { ...event, data }) : event.metadata.chain.hash;
        const chain = { previous: event.revision === 0 ? null : previous, hash };
        previous = hash;
        return JSON.stringify({ ...event, data, metadata: { ...event.metadata, chain } });
      });
    }

    beforeAll(async () => {
      api = await startTestService(target);
      store = new PostgresEventStore(api.database.db);
      const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      signer = await loadCheckpointSigner({ pem });
      await publishCheckpointKey(store, signer);
      keys = parseCheckpointKeys(signer.publicKeyPem);
      stream = paymentStreamId((await recordPayments(api)).authorization);
      await recordUnchainedCheckpoint(0, at(0));
      await api.createClient("Initech");
      await recordUnchainedCheckpoint(1, at(1));
      await api.createClient("Umbrella");
      expect(await recordCheckpoints({ store, signer, intervalMs: DAY_MS, now: () => at(2) })).toBe(1);
      await api.createClient("Hooli");
      expect(await recordCheckpoints({ store, signer, intervalMs: DAY_MS, now: () => at(3) })).toBe(1);
      file = [];
      for await (const line of checkpointLines(store, undefined)) file.push(line.trimEnd());
      log = [];
      for (let cursor: string | null = null; ; ) {
        const response = await api.request("GET", `/v1/events?limit=100${cursor ? `&after=${cursor}` : ""}`);
        log.push(...response.body.data.map((event: Json) => JSON.stringify(event)));
        if (response.body.nextCursor === null) break;
        cursor = response.body.nextCursor;
      }
    }, 60_000);
    afterAll(() => api?.stop());

    it("proves the chain from sequence 0, the checkpoints from before checkpoint chains committed to by the first chained one", async () => {
      const records = file.map((line) => JSON.parse(line));
      let previous: string | null = null;
      const digests = records.map((record) => (previous = checkpointDigest(record, record.previous === undefined ? previous : record.previous)));
      expect(records.map((record) => record.previous)).toEqual([undefined, undefined, digests[1], digests[2]]);

      const result = await verifyCheckpoints(file, keys);
      expect(result).toMatchObject({ ok: true, checkpoints: 4, chainFrom: { sequence: 0, trusted: false }, problems: [] });
      expect(result.last).toEqual({ sequence: 3, digest: digests[3] });

      // Alone, the ones from before checkpoint chains are committed to by nothing.
      expect(problemsOf(await verifyCheckpoints(file.slice(0, 2), keys))).toEqual(["0 uncommitted"]);
      // One without a link after chained ones is refused, though its signature verifies.
      const content = { sequence: 4, keyId: signer.keyId, recordedAt: at(4).toISOString(), root: merkleRoot([]) };
      const unlinked = JSON.stringify({ ...content, heads: [], signature: sign64(content) });
      expect(problemsOf(await verifyCheckpoints([...file, unlinked], keys))).toEqual(["4 link_missing"]);
    });

    it("refuses checkpoints dropped from the front, unless the auditor names a checkpoint they hold to start from", async () => {
      const held = (await verifyCheckpoints(file, keys)).last!;
      const dropped = file.slice(3);
      expect(problemsOf(await verifyCheckpoints(dropped, keys))).toEqual(["3 chain_start"]);
      expect(await verifyCheckpoints(dropped, keys, { trusted: held })).toMatchObject({ ok: true, chainFrom: { sequence: 3, trusted: true } });
      const second = (await verifyCheckpoints(file.slice(0, 3), keys)).last!;
      // Starting right after the trusted one, linked to it: an export made --since it.
      expect(await verifyCheckpoints(dropped, keys, { trusted: second })).toMatchObject({ ok: true, chainFrom: { sequence: 2, trusted: true } });
      expect(problemsOf(await verifyCheckpoints(dropped, keys, { trusted: { sequence: 3, digest: "0".repeat(64) } }))).toEqual(["3 trusted_mismatch"]);
      // A start from before checkpoint chains has no link of its own to compute its digest from.
      const unchainedStart = await verifyCheckpoints(file.slice(1), keys, { trusted: { sequence: 1, digest: "0".repeat(64) } });
      expect(unchainedStart.problems[0]).toMatchObject({ code: "chain_start", message: "checkpoint 1 was recorded before checkpoint chains: prove the chain from sequence 0" });
    });

    it("refuses a forged head: the newest checkpoint signed again over a rewritten stream, against the digest the auditor holds", async () => {
      const held = (await verifyCheckpoints(file, keys)).last!;
      const real = JSON.parse(file[3]!);
      const rewrittenHead = JSON.parse(rewritten().filter((line) => JSON.parse(line).streamId === stream).at(-1)!);
      const heads = [...real.heads, { streamId: stream, revision: rewrittenHead.revision, hash: rewrittenHead.metadata.chain.hash }];
      const content = { sequence: 3, keyId: signer.keyId, recordedAt: real.recordedAt, root: merkleRoot(heads), previous: real.previous };
      const forged = [...file.slice(0, 3), JSON.stringify({ ...content, heads, signature: sign64(content), through: real.through })];
      // Signed with the service's own key in its place in the chain: only a digest held outside tells it from the real one.
      expect((await verifyCheckpoints(forged, keys)).ok).toBe(true);
      expect(problemsOf(await verifyCheckpoints(forged, keys, { trusted: held }))).toEqual(["3 trusted_mismatch"]);
      expect(await verifyCheckpoints(file, keys, { trusted: held })).toMatchObject({ ok: true, chainFrom: { sequence: 0, trusted: false } });
      // A file cut back before the head the auditor holds.
      expect(problemsOf(await verifyCheckpoints(file.slice(0, 3), keys, { trusted: held }))).toEqual(["3 trusted_missing"]);
    });

    it("refuses a replayed checkpoint: another checkpoint 2 the same key signed, spliced into the chain, or one repeated", async () => {
      // As the service records checkpoint 2 again once its database is restored from a backup taken before it.
      const real = JSON.parse(file[2]!);
      const content = { sequence: 2, keyId: signer.keyId, recordedAt: at(2.5).toISOString(), root: real.root, previous: real.previous };
      const twin = JSON.stringify({ ...real, ...content, signature: sign64(content) });
      expect((await verifyCheckpoints([twin], keys, { trusted: (await verifyCheckpoints(file.slice(0, 2), keys)).last! })).ok).toBe(true);
      expect(problemsOf(await verifyCheckpoints(file.with(2, twin), keys))).toEqual(["3 link_mismatch"]);
      expect(problemsOf(await verifyCheckpoints(file.toSpliced(3, 0, file[2]!), keys))).toEqual(["2 out_of_sequence"]);
    });

    it("ledger verify checks the recorded chain and the heads it signs: checkpoints deleted from the front, a stream rewritten under them", async () => {
      const { db } = api.database;
      const recorded = await verifyRecordedCheckpoints(store, keys);
      expect(recorded).toMatchObject({ ok: true, chainFrom: { sequence: 0, trusted: false }, last: (await verifyCheckpoints(file, keys)).last });

      const dropped = await whileTampered(
        db,
        (trx) => sql`delete from events where stream_id = ${CHECKPOINT_STREAM} and revision < 3`.execute(trx),
        (tampered) => verifyRecordedCheckpoints(tampered, keys),
      );
      expect(problemsOf(dropped)).toEqual(["3 chain_start"]);

      const events = await store.readStream(stream);
      const report = await whileTampered(
        db,
        async (trx) => {
          let previous = (events[1]!.metadata.chain as Json).hash as string;
          for (const event of events.slice(2)) {
            const data = event.revision === 2n ? { ...event.data, amount: 1 } : event.data;
            const hash = chainHash(previous, { ...event, data });
            const metadata = { ...event.metadata, chain: { previous, hash } };
            await sql`update events set data = ${JSON.stringify(data)}::jsonb, metadata = ${JSON.stringify(metadata)}::jsonb
                      where stream_id = ${stream} and revision = ${event.revision}`.execute(trx);
            previous = hash;
          }
        },
        (tampered, trx) => verifyChains({ store: tampered, eventsDb: trx, checkpointedHeads: recorded.heads }),
      );
      expect(report.tampered).toEqual([{ streamId: stream, findings: [{ kind: "head_rewritten", revision: 5n, sequence: 1 }], omitted: 0 }]);
    });

    it("ledger verify prints where the chain it proved starts, and refuses a trusted checkpoint the log does not hold", async () => {
      const output: string[] = [];
      const write = vi.spyOn(process.stdout, "write").mockImplementation((text: string | Uint8Array) => {
        output.push(String(text));
        return true;
      });
      const ledgerOf = { db: api.database.db, store, eventsDb: api.database.db };
      try {
        const held = (await verifyCheckpoints(file, keys)).last!;
        expect(await verify(ledgerOf, [], { limit: 20, settleSeconds: 1 })).toBe(0);
        expect(output.join("")).toContain(`checkpoints (keys: the 1 key the database publishes): 4 checkpoints covering`);
        expect(output.join("")).toContain(`  checkpoint chain verified from sequence 0 to checkpoint 3, digest ${held.digest}\n`);
        output.length = 0;
        expect(await verify(ledgerOf, [], { limit: 20, settleSeconds: 1, trusted: { sequence: 7, digest: held.digest } })).toBe(1);
        expect(output.join("")).toContain("  FAILED checkpoint 7: trusted_missing: the trusted checkpoint 7 is not in the file: it ends at checkpoint 3\n");
        expect(output.at(-1)).toBe("verify: 1 problem found\n");
      } finally {
        write.mockRestore();
      }
    });

    const cliSkipReason = target === "pglite" ? undefined : "the command reads files only: it runs once, on the PGlite export";
    if (cliSkipReason) console.warn(`SKIPPED ledger verify-export --trust-checkpoint on ${target}: ${cliSkipReason}`);

    it.skipIf(cliSkipReason)(
      "ledger verify-export refuses checkpoints dropped from the front, says where the chain starts, and checks the checkpoints the export carries",
      async () => {
        const folder = await mkdtemp(path.join(os.tmpdir(), "checkpoint-chain-"));
        try {
          const files = Object.fromEntries(["log", "rewritten", "dropped", "keys"].map((name) => [name, path.join(folder, `${name}.ndjson`)]));
          await writeFile(files.log!, `${log.join("\n")}\n`);
          await writeFile(files.rewritten!, `${rewritten().join("\n")}\n`);
          await writeFile(files.dropped!, `${file.slice(3).join("\n")}\n`);
          await writeFile(files.keys!, signer.publicKeyPem);
          const held = (await verifyCheckpoints(file, keys)).last!;
          const offline = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: path.join(folder, "absent") };
          const run = (...args: string[]) => runProcess(ledger, ["verify-export", ...args], offline);
          const [dropped, trusted, carried, carriedRewritten, unchecked] = await Promise.all([
            run(files.rewritten!, "--checkpoints", files.dropped!, "--key", files.keys!),
            run(files.log!, "--checkpoints", files.dropped!, "--key", files.keys!, "--trust-checkpoint", `3:${held.digest}`),
            run(files.log!, "--key", files.keys!),
            run(files.rewritten!, "--key", files.keys!),
            run(files.log!),
          ]);
          const lastLine = (output: string) => output.trimEnd().split("\n").at(-1);

          expect(dropped.stdout).toContain(
            "  FAILED line 1, checkpoint 3: chain_start: the file starts at checkpoint 3: a chain is proved from sequence 0, or from a checkpoint named trusted\n",
          );
          expect(lastLine(dropped.stdout)).toBe("verify-export: the checkpoints do not verify: their heads prove nothing");
          expect(dropped.code).toBe(1);

          expect(trusted.stdout).toContain(`${files.dropped}: 1 checkpoint covering`);
          expect(trusted.stdout).toContain(`  checkpoint chain verified from trusted checkpoint 3 to checkpoint 3, digest ${held.digest}\n`);
          expect(lastLine(trusted.stdout)).toBe("verify-export: ok: every stream is one unbroken hash chain");
          expect(trusted.code, trusted.stdout + trusted.stderr).toBe(0);

          expect(carried.stdout).toContain(`the checkpoints ${files.log} carries: 4 checkpoints covering`);
          expect(carried.stdout).toContain(`  checkpoint chain verified from sequence 0 to checkpoint 3, digest ${held.digest}\n`);
          expect(carried.code, carried.stdout + carried.stderr).toBe(0);

          // The export's own checkpoints cover the rewritten stream's head.
          expect(carriedRewritten.stdout).toMatch(new RegExp(`FAILED ${stream}: .*\\n    - line \\d+, revision 5: head_rewritten: `));
          expect(carriedRewritten.code).toBe(1);

          expect(unchecked.stdout).toContain(`${files.log} carries 4 checkpoints: not checked (--key checks them)\n`);
          expect(unchecked.code).toBe(0);
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      },
      60_000,
    );
  });
}
