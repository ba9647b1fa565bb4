import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Table from "cli-table3";
import type { InjectedFault } from "./faults.ts";
import { type Evidence, type Violation, invariantNames } from "./invariants.ts";
import type { MonitorSummary } from "./monitors.ts";
import type { WorkloadStats } from "./workload.ts";

/** What one run produced, whatever its mode. */
export interface RunResult {
  mode: "distributed" | "embedded" | "eventstoredb";
  seed: number;
  durationMs: number;
  /** Epoch milliseconds the load started: the faults' times count from here. */
  loadStartedAt: number;
  stats: WorkloadStats;
  injected: InjectedFault[];
  violations: Violation[];
  monitor: MonitorSummary;
  /** How long the resolvers took to settle every pending transaction; undefined: they did not. */
  settledInMs: number | undefined;
  verify: { ok: boolean; output: string };
  runDirectory: string;
  evidence: Evidence;
  instances: { name: string; crashes: readonly { at: string; reason: string }[] }[];
  /** Voids the processor proxy dropped before they reached the processor; undefined without one. */
  droppedVoids: number | undefined;
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const TIMELINES_SHOWN = 3;

/** What the ledger, the processor and the clients each saw of the payment a transaction belongs to. */
export function timeline(evidence: Evidence, transactionId: string): string[] {
  const payment = evidence.payments.find((candidate) =>
    candidate.transactions.some((transaction) => transaction.id === transactionId || transaction.reversalId === transactionId),
  );
  const ids = new Set(payment ? payment.transactions.flatMap((transaction) => [transaction.id, transaction.reversalId ?? ""]) : [transactionId]);
  const lines: string[] = [];
  for (const transaction of payment?.transactions ?? []) {
    lines.push(
      `  ledger    ${transaction.createdAt} ${transaction.type} ${transaction.id} ${transaction.status}` +
        `${transaction.failureReason ? ` (${transaction.failureReason})` : ""} card ${transaction.card?.last4 ?? "—"} amount ${transaction.amount}` +
        ` captured ${transaction.capturedAmount} refunded ${transaction.refundedAmount} voided ${transaction.voided}` +
        `${transaction.approvedLate ? " approved late" : ""}${transaction.reversalId ? ` reversal ${transaction.reversalId} open` : ""}${transaction.reversed ? " reversed" : ""}` +
        `${transaction.approvedAt ? ` approved at ${transaction.approvedAt}` : ""}${transaction.expiredAt ? ` expired at ${transaction.expiredAt}` : ""}` +
        `${transaction.settlementId ? ` settled in ${transaction.settlementId} at ${transaction.settledAt}` : ""}`,
    );
  }
  for (const record of evidence.processorTransactions.filter((candidate) => ids.has(candidate.transactionId))) {
    lines.push(
      `  processor ${record.recordedAt} ${record.operation} ${record.transactionId} code ${record.code} amount ${record.amount} voided ${record.voided}` +
        `${record.settlementId ? ` settled in ${record.settlementId}` : ""}`,
    );
  }
  for (const answer of evidence.answers.filter((candidate) => ids.has(candidate.transactionId))) {
    lines.push(`  client    ${answer.at} ${answer.operation} ${answer.transactionId} answered ${answer.httpStatus} ${answer.status} (key ${answer.idempotencyKey})`);
  }
  return lines.length > 0 ? lines : [`  nothing anywhere about ${transactionId}`];
}

/** What the ledger and the processor each have of a settlement batch. */
export function batchTimeline(evidence: Evidence, settlementId: string): string[] {
  const batch = evidence.settlements.find((candidate) => candidate.settlementId === settlementId);
  const settled = evidence.processorTransactions.filter((record) => record.settlementId === settlementId);
  const scheduled = batch && evidence.scheduledCloses.find((close) => close.hostConfigurationId === batch.hostConfigurationId);
  return [
    batch
      ? `  ledger    batch ${settlementId} ${batch.status}, host configuration ${batch.hostConfigurationId}, ${batch.localDate === null ? "closed by hand" : `scheduled for ${batch.localDate}${scheduled ? ` at ${scheduled.at.toISOString()}` : ""}`}, lists ${batch.transactionIds?.join(", ") ?? "nothing yet"}`
      : `  ledger    no batch ${settlementId}`,
    `  processor settled in it: ${settled.map((record) => `${record.operation} ${record.transactionId}`).join(", ") || "nothing"}`,
  ];
}

/** Every violation, then the timeline of each payment and batch they name (at most `timelines` of each). */
function explain(evidence: Evidence, violations: readonly Violation[], timelines = Infinity): string[] {
  const lines = violations.map((violation) => `- ${violation.invariant}: ${violation.detail}`);
  const offending = [...new Set(violations.flatMap((violation) => (violation.transactionId ? [violation.transactionId] : [])))];
  for (const transactionId of offending.slice(0, timelines)) {
    lines.push("", `timeline of the payment of ${transactionId}:`, ...timeline(evidence, transactionId));
  }
  const batches = [...new Set(violations.flatMap((violation) => (violation.settlementId ? [violation.settlementId] : [])))];
  for (const settlementId of batches.slice(0, timelines)) {
    lines.push("", `timeline of batch ${settlementId}:`, ...batchTimeline(evidence, settlementId));
  }
  return lines;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * For each kill of the EventStoreDB node: when it took effect, how long until EventStoreDB served
 * the harness's reads again (one node: its restart; a cluster: a new leader elected and found),
 * and until the first payment sent after the kill was answered 201: the service's own recovery,
 * as a client sees it (the workload's retry pauses included).
 */
function eventStoreRecoveries(result: RunResult): string[][] {
  return result.injected.flatMap(({ eventStoreOutage: outage, endedAt }) => {
    if (!outage) return [];
    const killedAt = result.loadStartedAt + outage.killedAt;
    const firstAnswered = result.evidence.answers
      .filter((answer) => answer.httpStatus === 201 && Date.parse(answer.sentAt) >= killedAt)
      .reduce((earliest, answer) => Math.min(earliest, Date.parse(answer.at)), Infinity);
    return [
      [
        seconds(outage.killedAt),
        outage.answeringAt === undefined ? "not within 120 s" : seconds(outage.answeringAt - outage.killedAt),
        firstAnswered === Infinity ? "none" : seconds(firstAnswered - killedAt),
        seconds(endedAt - outage.killedAt),
      ],
    ];
  });
}

/** Prints the summary and the offending payments' timelines; returns whether the run failed. */
export function printReport(result: RunResult, bounds: { maxRssBytes: number }): boolean {
  const out = (line = "") => process.stdout.write(`${line}\n`);
  const violations = [...result.violations];
  if (!result.verify.ok) violations.push({ invariant: "ledger verify passes", detail: result.verify.output.trim().split("\n").slice(-20).join("\n") });
  for (const [instance, rss] of result.monitor.maxRssBytes) {
    if (rss > bounds.maxRssBytes) violations.push({ invariant: "memory stayed bounded", detail: `${instance} reached ${megabytes(rss)} (bound ${megabytes(bounds.maxRssBytes)})` });
  }
  for (const failed of result.monitor.failedHealthChecks) {
    violations.push({ invariant: "health answered while the database was reachable", detail: `${failed.instance} at ${failed.at}: ${failed.detail}` });
  }
  for (const instance of result.instances) {
    for (const crash of instance.crashes) {
      violations.push({ invariant: "no instance crashed", detail: `${instance.name} exited by itself at ${crash.at} (${crash.reason}); see its log` });
    }
  }
  if (result.settledInMs === undefined) violations.push({ invariant: "nothing left pending", detail: "the resolvers did not settle every pending transaction in their window" });

  out();
  out(`chaos ${result.mode} run · seed ${result.seed} · ${(result.durationMs / 1000).toFixed(1)} s of load · settled in ${result.settledInMs === undefined ? "—" : `${(result.settledInMs / 1000).toFixed(1)} s`}`);

  const operations = new Table({ head: ["operation → outcome", "count"] });
  for (const [outcome, count] of [...result.stats.outcomes].sort(([a], [b]) => a.localeCompare(b))) operations.push([outcome, count]);
  operations.push(["retries (same Idempotency-Key)", result.stats.retries], ["gave up", result.stats.gaveUp]);
  out(operations.toString());

  const faults = new Table({ head: ["fault injected", "count"] });
  const faultCounts = new Map<string, number>();
  for (const { fault } of result.injected) faultCounts.set(fault.kind, (faultCounts.get(fault.kind) ?? 0) + 1);
  for (const [kind, count] of faultCounts) faults.push([kind, count]);
  out(faults.toString());

  const recoveries = eventStoreRecoveries(result);
  if (recoveries.length > 0) {
    const table = new Table({
      head: ["EventStoreDB kill -9 at", "reads served again after", "first payment sent after it answered 201 after", "node restarted and serving after"],
    });
    for (const recovery of recoveries) table.push(recovery);
    out(table.toString());
  }

  const closed = result.evidence.settlements.filter((batch) => batch.transactionIds !== null);
  const lifecycle = new Table({ head: ["without a client asking", "count"] });
  lifecycle.push(
    ["batches closed on schedule", closed.filter((batch) => batch.localDate !== null).length],
    ["batches closed by hand", closed.filter((batch) => batch.localDate === null).length],
    ["authorizations expired", result.evidence.payments.flatMap((payment) => payment.transactions).filter((transaction) => transaction.expiredAt !== null).length],
    ["voids dropped before the processor", result.droppedVoids ?? "—"],
  );
  out(lifecycle.toString());

  const invariants = new Table({ head: ["invariant", "violations"] });
  const names = [...invariantNames, "no instance crashed", "ledger verify passes", "memory stayed bounded", "health answered while the database was reachable"];
  for (const name of names) invariants.push([name, violations.filter((violation) => violation.invariant === name).length]);
  out(invariants.toString());
  const rss = [...result.monitor.maxRssBytes].map(([instance, bytes]) => `${instance} ${megabytes(bytes)}`).join(", ");
  out(`max RSS: ${rss || "—"} · health checks judged: ${result.monitor.healthChecks}, slowest ${Math.round(result.monitor.slowestHealthMs)} ms`);

  if (violations.length === 0) {
    out("no violations");
    return false;
  }
  const recorded = join(result.runDirectory, "violations.txt");
  const explained = explain(result.evidence, violations);
  writeFileSync(recorded, `${explained.join("\n")}\n`);
  out();
  out(`${violations.length} violation(s); logs kept in ${result.runDirectory}, every violation with its timeline in ${recorded}`);
  for (const violation of violations.slice(0, 50)) out(`- ${violation.invariant}: ${violation.detail}`);
  for (const line of explain(result.evidence, violations, TIMELINES_SHOWN).slice(violations.length)) out(line);
  return true;
}
