// An auditor's check of an export, with nothing of the operator's but the file: every hash chain in
// it, recomputed offline. It prints one JSON line: whether all holds, and per stream what it proved.
//
//   node verify-export.mjs ledger-export.ndjson
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { verifyExport } from "@payment-ledger/client";

const lines = createInterface({ input: createReadStream(process.argv[2], { encoding: "utf8" }), crlfDelay: Infinity });
const { ok, events, streams, problems } = await verifyExport(lines);
const proofs = streams.map(({ streamId, firstRevision, lastRevision, head, problems }) => ({
  streamId,
  revisions: [firstRevision, lastRevision],
  head,
  problems: problems.map(({ revision, code }) => ({ revision, code })),
}));
process.stdout.write(`${JSON.stringify({ ok, events, streams: proofs, unreadable: problems.length })}\n`);
process.exitCode = ok ? 0 : 1;
