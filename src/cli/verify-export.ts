import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { type CheckpointVerification, parseCheckpointKeys, type TrustedCheckpoint, verifyCheckpoints } from "../audit/checkpoint-proof.ts";
import { compareTrialBalances, createJournalRecomputer, parseServedTrialBalance, type ServedTrialBalance } from "../audit/export-journal.ts";
import { type ExportProblem, type ExportVerification, type RecordedHead, type StreamProof, verifyExport } from "../audit/verify-export.ts";
import { count, writeOut } from "./output.ts";

export interface VerifyExportFileOptions {
  partial: boolean;
  /** An earlier export kept outside the database. */
  against?: string;
  /** Checkpoints kept outside the database (`ledger checkpoints export`). */
  checkpoints?: string;
  /** The checkpoints' public keys: those of `checkpoints` and those the export carries are checked with them. */
  keyFile?: string;
  /** A checkpoint the auditor holds: a chain may start there instead of at sequence 0. */
  trusted?: TrustedCheckpoint;
  /** A trial balance the service served (`GET /v1/journal/trial-balance`), to compare with the journal recomputed from the export. */
  trialBalance?: string;
  /** Whose books `trialBalance` is; every client's without. */
  clientId?: string;
}

/**
 * Checks every chain of an NDJSON export, offline, and prints per stream what it proved.
 * Returns 1 when any event is missing, reordered, edited or inserted, when checkpoints (kept, or
 * carried by the export) do not verify as one chain, or when a head recorded outside the database
 * (an earlier export's, a checkpoint's) is not in it as recorded, or when a served trial balance
 * is not what the journal recomputed from the export gives; 0 otherwise.
 */
export async function verifyExportFile(file: string, options: VerifyExportFileOptions): Promise<number> {
  const lines: string[] = [];
  const recordedHeads: RecordedHead[] = [];
  const keys = options.keyFile === undefined ? undefined : parseCheckpointKeys(await readFile(options.keyFile, "utf8"));
  const refuse = async (reason: string) => {
    await writeOut(`${lines.join("\n")}\nverify-export: ${reason}\n`);
    return 1;
  };
  if (options.checkpoints !== undefined && keys !== undefined) {
    const checked = await verifyCheckpoints(linesOf(options.checkpoints), keys, { trusted: options.trusted });
    lines.push(...checkpointReportLines(options.checkpoints, checked), "");
    if (!checked.ok) return refuse("the checkpoints do not verify: their heads prove nothing");
    recordedHeads.push(...headsOf(checked));
  }
  if (options.against !== undefined) {
    const earlier = await verifyExport(linesOf(options.against));
    lines.push(...reportLines(options.against, earlier), "");
    if (!earlier.ok) return refuse("the earlier export does not verify: its heads prove nothing");
    recordedHeads.push(...earlier.streams);
  }
  let result = await verifyExport(linesOf(file), { partial: options.partial, recordedHeads });
  if (result.checkpoints.length > 0 && keys === undefined) {
    lines.push(`${file} carries ${count(result.checkpoints.length, "checkpoint")}: not checked (--key checks them)`, "");
  } else if (result.checkpoints.length > 0 && keys !== undefined) {
    const carried = await verifyCheckpoints(result.checkpoints, keys, { trusted: options.trusted });
    lines.push(...checkpointReportLines(`the checkpoints ${file} carries`, carried), "");
    if (!carried.ok) return refuse("the checkpoints the export carries do not verify: their heads prove nothing");
    // Read again, now that their heads are known.
    result = await verifyExport(linesOf(file), { partial: options.partial, recordedHeads: [...recordedHeads, ...headsOf(carried)] });
  }
  lines.push(...reportLines(file, result));
  let journalOk = true;
  if (options.trialBalance !== undefined) {
    const served = parseServedTrialBalance(await readFile(options.trialBalance, "utf8"));
    if (typeof served === "string") return refuse(`${options.trialBalance}: ${served}`);
    const compared = await compareJournal(file, options.trialBalance, served, options.clientId);
    lines.push("", ...compared.lines);
    journalOk = compared.ok;
  }
  await writeOut(lines.join("\n") + "\n");
  return result.ok && journalOk ? 0 : 1;
}

/** Recomputes the journal from the export and compares its trial balance, as of the served one's `asOf`, with the served one. */
async function compareJournal(file: string, servedFile: string, served: ServedTrialBalance, clientId: string | undefined) {
  const journal = createJournalRecomputer();
  for await (const line of linesOf(file)) journal.add(line);
  const recomputed = journal.trialBalance({ asOf: served.asOf, clientId });
  const differences = compareTrialBalances(served.data, recomputed);
  const whose = clientId === undefined ? "every client's books" : `client ${clientId}'s books`;
  const lines = [
    `journal recomputed from ${file}: ${journal.entries().length} entries; ` +
      `its trial balance as of ${served.asOf.toISOString()} (${whose}) against ${servedFile}`,
  ];
  for (const currency of recomputed) lines.push(`  ${currency.currency}: debits ${currency.debit}, credits ${currency.credit}${currency.balanced ? "" : " NOT BALANCED"}`);
  for (const { currency, row, served: was, recomputed: is } of differences) {
    lines.push(`  DIFFERENT ${currency} ${row}: served ${was}; recomputed from the export ${is}`);
  }
  const unbalanced = recomputed.filter((currency) => !currency.balanced).length;
  lines.push(
    differences.length === 0 && unbalanced === 0
      ? "verify-export: ok: the served trial balance is the one the export's events post"
      : `verify-export: the served trial balance is not the one the export's events post (${count(differences.length, "figure")} ${differences.length === 1 ? "differs" : "differ"})`,
  );
  return { ok: differences.length === 0 && unbalanced === 0, lines };
}

const headsOf = (result: CheckpointVerification): RecordedHead[] =>
  result.heads.map((head) => ({ streamId: head.streamId, lastRevision: head.revision, head: head.hash }));

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

/** What a verification of checkpoints found, and where the chain it proved starts. */
export function checkpointReportLines(title: string, result: CheckpointVerification): string[] {
  const lines = [`${title}: ${count(result.checkpoints, "checkpoint")} covering ${count(result.heads.length, "chain head")}`];
  for (const problem of result.problems) {
    const where = [problem.line === null ? [] : [`line ${problem.line}`], problem.sequence === null ? [] : [`checkpoint ${problem.sequence}`]].flat().join(", ");
    lines.push(`  FAILED ${where}: ${problem.code}: ${problem.message}`);
  }
  if (result.checkpoints === 0 && result.ok) lines.push("  no checkpoint: nothing proved");
  if (result.ok && result.chainFrom !== null && result.last !== null) {
    const { sequence, trusted } = result.chainFrom;
    lines.push("  ok: every checkpoint's signature and Merkle root verify");
    lines.push(
      `  checkpoint chain verified from ${trusted ? `trusted checkpoint ${sequence}` : "sequence 0"} ` +
        `to checkpoint ${result.last.sequence}, digest ${result.last.digest}`,
    );
  }
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
