import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { type CheckpointVerification, parseCheckpointKeys, verifyCheckpoints } from "../audit/checkpoint-proof.ts";
import { type ExportProblem, type ExportVerification, type RecordedHead, type StreamProof, verifyExport } from "../audit/verify-export.ts";
import { count, writeOut } from "./output.ts";

/**
 * Checks every chain of an NDJSON export, offline, and prints per stream what it proved.
 * Returns 1 when any event is missing, reordered, edited or inserted, or a head recorded outside
 * the database (an earlier export's, a checkpoint's) is not in it as recorded; 0 otherwise.
 */
export async function verifyExportFile(
  file: string,
  options: { partial: boolean; against?: string; checkpoints?: { file: string; keyFile: string } },
): Promise<number> {
  const lines: string[] = [];
  const recordedHeads: RecordedHead[] = [];
  if (options.checkpoints !== undefined) {
    const { file: checkpointsFile, keyFile } = options.checkpoints;
    const keys = parseCheckpointKeys(await readFile(keyFile, "utf8"));
    const checked = await verifyCheckpoints(linesOf(checkpointsFile), keys);
    lines.push(...checkpointLines(checkpointsFile, checked), "");
    if (!checked.ok) {
      await writeOut(lines.join("\n") + "\nverify-export: the checkpoints do not verify: their heads prove nothing\n");
      return 1;
    }
    recordedHeads.push(...checked.heads.map((head) => ({ streamId: head.streamId, lastRevision: head.revision, head: head.hash })));
  }
  if (options.against !== undefined) {
    const earlier = await verifyExport(linesOf(options.against));
    lines.push(...reportLines(options.against, earlier), "");
    if (!earlier.ok) {
      await writeOut(lines.join("\n") + "\nverify-export: the earlier export does not verify: its heads prove nothing\n");
      return 1;
    }
    recordedHeads.push(...earlier.streams);
  }
  const result = await verifyExport(linesOf(file), { partial: options.partial, recordedHeads });
  lines.push(...reportLines(file, result));
  await writeOut(lines.join("\n") + "\n");
  return result.ok ? 0 : 1;
}

const linesOf = (file: string) => createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });

function reportLines(file: string, result: ExportVerification): string[] {
  const lines = [`${file}: ${count(result.events, "event")} in ${count(result.streams.length, "stream")}`];
  lines.push(...result.problems.map(problemLine));
  for (const proof of result.streams) {
    lines.push(`  ${proof.problems.length === 0 ? "ok    " : "FAILED"} ${proof.streamId}: ${proved(proof)}`);
    lines.push(...proof.problems.map((problem) => `    - ${problemLine(problem)}`));
  }
  const failed = result.streams.filter((proof) => proof.problems.length > 0).length;
  lines.push(
    result.ok
      ? "verify-export: ok: every stream is one unbroken hash chain"
      : `verify-export: ${count(failed, "stream")} failed${result.problems.length > 0 ? `, ${count(result.problems.length, "unreadable line")}` : ""}`,
  );
  return lines;
}

function checkpointLines(file: string, result: CheckpointVerification): string[] {
  const lines = [`${file}: ${count(result.checkpoints, "checkpoint")} covering ${count(result.heads.length, "chain head")}`];
  lines.push(...result.problems.map((problem) => `  FAILED line ${problem.line}${problem.sequence === null ? "" : `, checkpoint ${problem.sequence}`}: ${problem.code}: ${problem.message}`));
  if (result.ok) lines.push("  ok: every checkpoint's signature and Merkle root verify");
  return lines;
}

function proved(proof: StreamProof): string {
  const revisions = proof.firstRevision === proof.lastRevision ? `revision ${proof.firstRevision}` : `revisions ${proof.firstRevision}..${proof.lastRevision}`;
  const from = proof.linkedFrom === null ? "from the stream's start" : `from predecessor hash ${proof.linkedFrom}`;
  const unchained = proof.unchained > 0 ? `, the first ${count(proof.unchained, "event")} from before hash chains (not provable)` : "";
  return `${revisions} (${count(proof.events, "event")}) chained ${from}${unchained}; head ${proof.head ?? "(none)"}`;
}

function problemLine(problem: ExportProblem): string {
  const where = [problem.line === null ? [] : [`line ${problem.line}`], problem.revision === null ? [] : [`revision ${problem.revision}`]].flat().join(", ");
  const hashes = problem.expected !== undefined ? ` (expected ${problem.expected ?? "none"}, found ${problem.found ?? "none"})` : "";
  return `${where}: ${problem.code}: ${problem.message}${hashes}`;
}
