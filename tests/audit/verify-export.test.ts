import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExportVerification, verifyExport } from "../../src/audit/verify-export.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type RecordedPayments, recordPayments } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));

/** Each problem of a verification, as `streamId revision code`. */
const problemsOf = (result: ExportVerification) =>
  result.streams.flatMap((proof) => proof.problems.map((problem) => `${problem.streamId} ${problem.revision} ${problem.code}`));

for (const target of testDatabaseTargets()) {
  describe(`verifying an export offline, on one from ${target}`, () => {
    let api: TestService;
    let payments: RecordedPayments;
    let stream: string;
    let events: Json[];
    /** The export's lines, in log order. */
    let lines: string[];
    /** Where the authorization's stream's events are among the lines. */
    let at: (revision: number) => number;

    beforeAll(async () => {
      api = await startTestService(target);
      payments = await recordPayments(api);
      stream = paymentStreamId(payments.authorization);
      events = (await api.request("GET", "/v1/events?limit=100")).body.data;
      lines = events.map((event) => JSON.stringify(event));
      at = (revision) => events.findIndex((event) => event.streamId === stream && event.revision === revision);
    });
    afterAll(() => api.stop());

    const edited = (index: number, change: (event: Json) => Json) => lines.with(index, JSON.stringify(change(JSON.parse(lines[index]!))));

    it("proves every stream of an intact export from its start to its head", async () => {
      const result = await verifyExport(lines);
      expect(result).toMatchObject({ ok: true, events: events.length, problems: [] });
      const streams = new Set(events.map((event) => event.streamId));
      expect(result.streams.map((proof) => proof.streamId).sort()).toEqual([...streams].sort());
      expect(result.streams.find((proof) => proof.streamId === stream)).toEqual({
        streamId: stream,
        events: 6,
        firstRevision: 0,
        lastRevision: 5,
        linkedFrom: null,
        head: events[at(5)].metadata.chain.hash,
        unchained: 0,
        problems: [],
      });
    });

    it("fails on an edited event, naming the hash expected and the one found", async () => {
      const index = at(2);
      const result = await verifyExport(edited(index, (event) => ({ ...event, data: { ...event.data, amount: 1 } })));
      expect(result.ok).toBe(false);
      expect(problemsOf(result)).toEqual([`${stream} 2 altered`]);
      const [problem] = result.streams.find((proof) => proof.streamId === stream)!.problems;
      expect(problem).toMatchObject({ line: index + 1, found: events[index].metadata.chain.hash });
      expect(problem!.expected).not.toBe(problem!.found);
    });

    it("fails on a missing event, and on a stream whose first events are missing", async () => {
      const dropped = await verifyExport(lines.toSpliced(at(3), 1));
      expect(problemsOf(dropped)).toEqual([`${stream} 4 missing`]);
      const start = await verifyExport(lines.toSpliced(at(0), 1));
      expect(problemsOf(start)).toEqual([`${stream} 1 missing`]);
      // Unless the export is known to start mid-log: then it proves the chain from the hash given.
      const partial = await verifyExport(lines.toSpliced(at(0), 1), { partial: true });
      expect(partial.ok).toBe(true);
      expect(partial.streams.find((proof) => proof.streamId === stream)).toMatchObject({
        firstRevision: 1,
        linkedFrom: events[at(0)].metadata.chain.hash,
      });
    });

    it("fails on reordered events: two lines swapped, or two events' revisions swapped", async () => {
      const [first, second] = [at(2), at(3)];
      const swapped = lines.with(first, lines[second]!).with(second, lines[first]!);
      expect(problemsOf(await verifyExport(swapped))).toEqual([`${stream} 3 missing`, `${stream} 2 out_of_log_order`, `${stream} 2 out_of_order`]);

      const renumbered = edited(first, (event) => ({ ...event, revision: 3 }));
      const both = renumbered.with(second, JSON.stringify({ ...JSON.parse(lines[second]!), revision: 2 }));
      // Read in file order: revision 3 first (so 2 is missing, then late), each unlike its hash, and 4 not linked to the 3 read.
      expect(problemsOf(await verifyExport(both))).toEqual([
        `${stream} 3 missing`,
        `${stream} 3 altered`,
        `${stream} 2 out_of_order`,
        `${stream} 2 altered`,
        `${stream} 4 link_mismatch`,
      ]);
    });

    it("fails on an inserted event, even one given a valid hash linked to the event before it", async () => {
      const before = JSON.parse(lines[at(2)]!);
      const forged = { ...before, id: "0190a8e2-7c3b-7def-8a12-00000000f0f0", revision: 3, data: { ...before.data, amount: 400 } };
      forged.metadata = { ...forged.metadata, chain: { previous: before.metadata.chain.hash, hash: chainHash(before.metadata.chain.hash, forged) } };
      // Placed after revision 2 (at its position) and the real ones renumbered after it: each of those no longer
      // matches its hash, and the first no longer links to the event before it.
      const renumbered = lines.map((line) => {
        const event = JSON.parse(line);
        return event.streamId === stream && event.revision >= 3 ? JSON.stringify({ ...event, revision: event.revision + 1 }) : line;
      });
      const inserted = await verifyExport(renumbered.toSpliced(at(2) + 1, 0, JSON.stringify(forged)));
      expect(problemsOf(inserted)).toEqual([
        `${stream} 3 out_of_log_order`,
        `${stream} 4 altered`,
        `${stream} 4 link_mismatch`,
        `${stream} 5 altered`,
        `${stream} 6 altered`,
      ]);

      // Placed without renumbering, at the real revision 3's position: that one comes as a repeat (at the same
      // position), and revision 4 does not link to the forged one.
      const positioned = { ...forged, position: JSON.parse(lines[at(3)]!).position };
      const added = await verifyExport(lines.toSpliced(at(2) + 1, 0, JSON.stringify(positioned)));
      expect(problemsOf(added)).toEqual([`${stream} 3 out_of_log_order`, `${stream} 3 out_of_order`, `${stream} 4 link_mismatch`]);
    });

    /** The export with the capture's amount rewritten and every later hash of its stream recomputed: a consistent chain. */
    function rewritten(): string[] {
      let previous: string | null = null;
      return lines.map((line) => {
        const event = JSON.parse(line);
        if (event.streamId !== stream) return line;
        const data = event.revision === 2 ? { ...event.data, amount: 1 } : event.data;
        const hash: string = event.revision >= 2 ? chainHash(previous, { ...event, data }) : event.metadata.chain.hash;
        const chain = { previous: event.revision === 0 ? null : previous, hash };
        previous = hash;
        return JSON.stringify({ ...event, data, metadata: { ...event.metadata, chain } });
      });
    }

    it("passes a rewrite that keeps the chain consistent, but not against the heads of an earlier export", async () => {
      const { streams: recordedHeads } = await verifyExport(lines);
      expect((await verifyExport(rewritten())).ok).toBe(true);
      const checked = await verifyExport(rewritten(), { recordedHeads });
      expect(problemsOf(checked)).toEqual([`${stream} 5 head_rewritten`]);
      const [problem] = checked.streams.find((proof) => proof.streamId === stream)!.problems;
      expect(problem).toMatchObject({ expected: events[at(5)].metadata.chain.hash, found: expect.stringMatching(/^[0-9a-f]{64}$/) });

      // Events cut from a stream's end leave a consistent chain too.
      const cut = lines.toSpliced(at(5), 1);
      expect((await verifyExport(cut)).ok).toBe(true);
      expect(problemsOf(await verifyExport(cut, { recordedHeads }))).toEqual([`${stream} 5 head_missing`]);
      // A later export, with more events after the recorded heads, still holds them.
      expect((await verifyExport([...lines], { recordedHeads: recordedHeads.map((head) => ({ ...head })) })).ok).toBe(true);
    });

    it("refuses a stream stripped of its chain after chained events, its amount edited, instead of counting it from before hash chains", async () => {
      const sale = paymentStreamId(payments.sale);
      const stripped = lines.map((line) => {
        const event = JSON.parse(line);
        if (event.streamId !== sale) return line;
        const { chain: _chain, ...metadata } = event.metadata;
        const data = event.revision === 0 ? { ...event.data, amount: 1 } : event.data;
        return JSON.stringify({ ...event, data, metadata });
      });
      const result = await verifyExport(stripped);
      const revisions = events.filter((event) => event.streamId === sale).map((event) => `${sale} ${event.revision} link_removed`);
      expect(problemsOf(result)).toEqual(revisions);
      expect(result.streams.find((proof) => proof.streamId === sale)).toMatchObject({ unchained: 0 });
    });

    it("names an unreadable line", async () => {
      const result = await verifyExport([...lines, "{not json"]);
      expect(result.ok).toBe(false);
      expect(result.problems).toMatchObject([{ code: "unreadable", line: lines.length + 1 }]);
    });

    const cliSkipReason = target === "pglite" ? undefined : "the command reads a file only: it runs once, on the PGlite export";
    if (cliSkipReason) console.warn(`SKIPPED ledger verify-export on ${target}: ${cliSkipReason}`);

    it.skipIf(cliSkipReason)("ledger verify-export checks a file with no database and no service, and prints per stream what it proved", async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), "verify-export-"));
      try {
        const intact = path.join(folder, "intact.ndjson");
        const tampered = path.join(folder, "tampered.ndjson");
        await writeFile(intact, lines.map((line) => `${line}\n`).join(""));
        await writeFile(tampered, edited(at(2), (event) => ({ ...event, data: { ...event.data, amount: 1 } })).join("\n"));
        // No database anywhere: a DATABASE_URL nothing answers, and a data directory that does not exist.
        const environment = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: path.join(folder, "absent") };
        const consistent = path.join(folder, "rewritten.ndjson");
        await writeFile(consistent, rewritten().join("\n"));
        const [ok, failed, missing, against] = await Promise.all([
          runProcess(ledger, ["verify-export", intact], environment),
          runProcess(ledger, ["verify-export", tampered], environment),
          runProcess(ledger, ["verify-export", path.join(folder, "none.ndjson")], environment),
          runProcess(ledger, ["verify-export", consistent, "--against", intact], environment),
        ]);
        expect(ok.code, ok.stderr).toBe(0);
        const head = events[at(5)].metadata.chain.hash;
        expect(ok.stdout).toContain(`ok     ${stream}: revisions 0..5 (6 events) chained from the stream's start; head ${head}`);
        expect(ok.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: ok: every stream is one unbroken hash chain");

        expect(failed.code).toBe(1);
        expect(failed.stdout).toContain(`FAILED ${stream}: revisions 0..5`);
        expect(failed.stdout).toMatch(new RegExp(`line ${at(2) + 1}, revision 2: altered: .* \\(expected [0-9a-f]{64}, found ${events[at(2)].metadata.chain.hash}\\)`));
        expect(failed.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: 1 stream failed");

        expect(against.code, against.stderr).toBe(1);
        expect(against.stdout).toContain(`revision 5: head_rewritten: the head recorded at revision 5 holds another hash here (expected ${head}, found `);
        expect(against.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: 1 stream failed");

        expect(missing.code).toBe(2);
        expect(missing.stderr).toContain("ENOENT");
        expect(await readFile(intact, "utf8")).toContain(stream);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }, 60_000);
  });
}

describe("the client package's export verifier", () => {
  const body = (copied: string) => copied.slice(copied.indexOf("\n\n") + 2);
  const read = (file: string) => readFile(new URL(`../../${file}`, import.meta.url), "utf8");

  it("is the one ledger verify-export runs, with the chain-hash rule and the checkpoint verifier, as npm run client:generate copied them", async () => {
    expect(body(await read("packages/client/src/chain-hash.ts"))).toBe(await read("src/eventstore/chain-hash.ts"));
    const verifier = (await read("src/audit/verify-export.ts")).replace('from "../eventstore/chain-hash.ts"', 'from "./chain-hash.js"');
    expect(body(await read("packages/client/src/verify-export.ts"))).toBe(verifier);
    expect(body(await read("packages/client/src/checkpoint-proof.ts"))).toBe(await read("src/audit/checkpoint-proof.ts"));
  });
});
