// An auditor's check of an export, with nothing of the operator's but the file: every hash chain in
// it, recomputed offline. Given a trial balance the service served (GET /v1/journal/trial-balance,
// saved as it answered), it also recomputes the journal from the export's events with the
// service's posting rules and compares the two, as of the served one's asOf. It prints one JSON
// line: whether all holds, per stream what it proved, and the trial balance's differences.
//
//   node verify-export.mjs ledger-export.ndjson [trial-balance.json]
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { compareTrialBalances, createJournalRecomputer, parseServedTrialBalance, verifyExport } from "@payment-ledger/client";

const [exportFile, trialBalanceFile] = process.argv.slice(2);
const linesOf = (file) => createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });

const { ok, events, streams, problems } = await verifyExport(linesOf(exportFile));
const proofs = streams.map(({ streamId, firstRevision, lastRevision, head, problems }) => ({
  streamId,
  revisions: [firstRevision, lastRevision],
  head,
  problems: problems.map(({ revision, code }) => ({ revision, code })),
}));

let journal = null;
if (trialBalanceFile !== undefined) {
  const served = parseServedTrialBalance(await readFile(trialBalanceFile, "utf8"));
  if (typeof served === "string") throw new Error(`${trialBalanceFile}: ${served}`);
  const recomputer = createJournalRecomputer();
  for await (const line of linesOf(exportFile)) recomputer.add(line);
  const differences = compareTrialBalances(served.data, recomputer.trialBalance({ asOf: served.asOf }));
  journal = { ok: differences.length === 0, entries: recomputer.entries().length, differences };
}

process.stdout.write(`${JSON.stringify({ ok, events, streams: proofs, unreadable: problems.length, journal })}\n`);
process.exitCode = ok && journal?.ok !== false ? 0 : 1;
