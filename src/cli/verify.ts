import { readFile } from "node:fs/promises";
import type { KeyObject } from "node:crypto";
import { parseCheckpointKeys, type TrustedCheckpoint } from "../audit/checkpoint-proof.ts";
import { readCheckpointKeys } from "../audit/checkpoint-keys.ts";
import { verifyRecordedCheckpoints } from "../audit/checkpoints.ts";
import { type ChainFinding, type ChainReport, ChainScan } from "../audit/verify-chains.ts";
import type { EventStore } from "../eventstore/port.ts";
import type { JsonObject } from "../eventstore/port.ts";
import type { Projection } from "../projections/projection.ts";
import { compareWithReplay, type ReadModelVerdict, replayLog, withShadows } from "../projections/verify-read-model.ts";
import type { Ledger } from "./connection.ts";
import { count, writeOut } from "./output.ts";
import { withProgress } from "./progress.ts";
import { checkpointReportLines } from "./verify-export.ts";

export interface VerifyOptions {
  /** How many streams, and row keys per table and side, to name. */
  limit: number;
  /** How long a read model may take to reach the replay's checkpoint. */
  settleSeconds: number;
  /** The checkpoints' public keys (GET /audit/checkpoint-keys or a PEM); the keys the database publishes without. */
  keyFile?: string;
  /** A checkpoint the auditor holds: the chain may start there instead of at sequence 0. */
  trusted?: TrustedCheckpoint;
}

/**
 * Checks the signed checkpoints' chain, then reads the log once to check every stream's hash chain
 * (and the heads the checkpoints cover) and to replay every read model, then compares each read
 * model with its replay. Prints what differs and returns 1 when anything does, 0 otherwise.
 */
export async function verify(ledger: Ledger, projections: readonly Projection[], options: VerifyOptions): Promise<number> {
  const { db, store, eventsDb } = ledger;
  const keys = options.keyFile === undefined ? await publishedKeys(store) : parseCheckpointKeys(await readFile(options.keyFile, "utf8"));
  const checkpoints = await verifyRecordedCheckpoints(store, keys, options.trusted);
  const keysUsed = options.keyFile === undefined ? `the ${count(keys.size, "key")} the database publishes` : options.keyFile;
  await writeOut(
    (checkpoints.checkpoints === 0 && options.trusted === undefined
      ? ["checkpoints: none recorded"]
      : checkpointReportLines(`checkpoints (keys: ${keysUsed})`, checkpoints)
    ).join("\n") + "\n",
  );
  let problems = checkpoints.ok ? 0 : 1;

  // One pass over the log checks the hash chains and replays every read model into scratch tables.
  const chains = new ChainScan(checkpoints.ok ? checkpoints.heads : []);
  problems += await withShadows(db, projections, async (shadows) => {
    const pass = await withProgress("hash chains and replays", store, (progress) =>
      replayLog({
        db,
        store,
        shadows,
        onEvents: (events) => chains.check(events),
        onProgress: (events, last) => progress.update(events, last?.position ?? null),
      }),
    );
    const report = await chains.report(eventsDb);
    const summary = `${pass.summary}, read once for the chains and every read model's replay`;
    await writeOut(chainLines(report, summary, options.limit, eventsDb !== undefined).join("\n") + "\n");
    let found = report.tampered.length;
    for (const [index, { projection, schema }] of shadows.entries()) {
      const started = performance.now();
      let replayed = pass.result[index]!;
      const result = await compareWithReplay({
        db,
        store,
        projection,
        schema,
        replayed,
        sampleSize: options.limit,
        deadline: Date.now() + options.settleSeconds * 1000,
        onProgress: (caughtUp) => (replayed = caughtUp),
        ...(ledger.catchUp && { beforeCompare: () => ledger.catchUp!(projection) }),
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      await writeOut(verdictLines(result, `${count(replayed.events, "event")} replayed, compared in ${seconds} s`).join("\n") + "\n");
      if (result.status === "unsettled" || result.differences.length > 0) found += 1;
    }
    return found;
  });
  await writeOut(problems === 0 ? "verify: ok\n" : `verify: ${count(problems, "problem")} found\n`);
  return problems === 0 ? 0 : 1;
}

/** The keys the database publishes (GET /audit/checkpoint-keys): to check with keys of one's own, --key. */
async function publishedKeys(store: EventStore): Promise<Map<string, KeyObject>> {
  const keys = await readCheckpointKeys(store);
  return keys.length === 0 ? new Map() : parseCheckpointKeys(JSON.stringify({ keys }));
}

function chainLines(report: ChainReport, summary: string, limit: number, headsChecked: boolean): string[] {
  const lines = [`hash chains: ${count(report.streams, "stream")}, ${summary}: ${report.tampered.length} tampered`];
  for (const stream of report.tampered.slice(0, limit)) {
    lines.push(`  TAMPERED ${stream.streamId}`);
    lines.push(...stream.findings.map((finding) => `    - ${describeFinding(finding)}`));
    if (stream.omitted > 0) lines.push(`    - and ${count(stream.omitted, "more finding")}`);
  }
  if (report.tampered.length > limit) lines.push(`  and ${count(report.tampered.length - limit, "more tampered stream")}`);
  const { unchained } = report;
  if (unchained.streams > 0) {
    lines.push(
      `  from before hash chains, so not checked: ${count(unchained.events, "event")} in ` +
        `${count(unchained.streams, "stream")} (e.g. ${unchained.sample.join(", ")})`,
    );
  }
  if (!headsChecked) lines.push("  events in EventStoreDB: events deleted from the end of a stream cannot be seen");
  return lines;
}

function describeFinding(finding: ChainFinding): string {
  switch (finding.kind) {
    case "altered":
      return `revision ${finding.revision} does not match its hash (edited)`;
    case "missing":
      return finding.from === finding.to
        ? `revision ${finding.from} is missing (deleted)`
        : `revisions ${finding.from}..${finding.to} are missing (deleted)`;
    case "out_of_order":
      return `revision ${finding.revision} is stored after revision ${finding.after} (reordered)`;
    case "broken_link":
      return `revision ${finding.revision} does not link to the event stored before it (that one was replaced)`;
    case "unchained":
      return `revision ${finding.revision} lost its chain link (removed)`;
    case "head_rewritten":
      return `revision ${finding.revision} is not the head checkpoint ${finding.sequence} signed (rewritten, its hashes recomputed)`;
    case "head_missing":
      return `revision ${finding.revision}, which checkpoint ${finding.sequence} signed, is not in the log (cut)`;
    case "head_mismatch":
      return (
        `the stream's head is revision ${finding.head ?? "(no stream row)"} ` +
        `but its last stored event is ${finding.lastStored ?? "(none)"} (events deleted from its end, or added past it)`
      );
  }
}

/** A field's value as JSON, or "(absent)" when that side has no such field. */
const shown = (value: unknown) => (value === undefined ? "(absent)" : JSON.stringify(value));

function verdictLines(verdict: ReadModelVerdict, summary: string): string[] {
  const title = `read model ${verdict.projection}`;
  if (verdict.status === "unsettled") {
    return [
      `${title}: NOT COMPARED: its last applied event stayed at position ${verdict.live ?? "(none)"} while the ` +
        `replay's reached ${verdict.replayed ?? "(none)"} (${summary}); is the service running and caught up?`,
    ];
  }
  if (verdict.differences.length === 0) return [`${title}: equal to a fresh replay (${summary})`];
  const lines = [`${title}: DIFFERENT from a fresh replay (${summary})`];
  for (const { table, onlyLive, onlyReplay, changed } of verdict.differences) {
    lines.push(
      `  ${table}: ${count(onlyLive.count, "live row")} not in the replay, ${count(onlyReplay.count, "replayed row")} not live` +
        ` (${changed.count} of them under the same key on both sides: changed)`,
    );
    const changedKeys = new Set(changed.sample.map(({ key }) => JSON.stringify(key)));
    for (const { key, fields } of changed.sample) {
      lines.push(`    changed:     ${JSON.stringify(key)}`);
      lines.push(...fields.map(({ field, live, replayed }) => `      ${field}: live ${shown(live)}, replay ${shown(replayed)}`));
    }
    const unchanged = (keys: JsonObject[]) => keys.filter((key) => !changedKeys.has(JSON.stringify(key)));
    lines.push(...unchanged(onlyLive.sample).map((key) => `    live only:   ${JSON.stringify(key)}`));
    lines.push(...unchanged(onlyReplay.sample).map((key) => `    replay only: ${JSON.stringify(key)}`));
  }
  return lines;
}
