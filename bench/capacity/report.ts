/** A step's figures from its samples, the knee, and the printed table. */
import { formatNumber, percentile } from "../support.ts";
import type { Sample } from "./load.ts";

/** The knee's bounds (issue 52). */
export const KNEE = { addedP99OfReference: 3, projectionLagP99Seconds: 1, webhookLagP99Seconds: 2 } as const;

export interface Step {
  offered: number;
  seconds: number;
  sent: number;
  /** Answers a second, but 5xx (a processor timeout's 504 counts: the platform answered it). */
  achieved: number;
  /** 5xx answers but a processor timeout's 504, and requests with no answer. */
  platform5xx: number;
  status503: number;
  /** 504 `processor_timeout`: the simulator's timeouts, answered as the contract says. */
  processorTimeouts: number;
  status4xx: number;
  addedP50Ms: number;
  addedP99Ms: number;
  endToEndP99Ms: number;
  referenceAddedP99Ms: number;
  referenceEndToEndP99Ms: number;
  /** Over the status reads the service answered. */
  projectionLagP99Seconds: number;
  /** Status reads shed (503) or timed out: the lag was not read then. */
  statusReadsRefused: number;
  webhookLagP99Seconds: number;
  webhooksReceived: number;
  /** Webhook deliveries not yet delivered as the step ended. */
  webhookQueueAtEnd: number;
  eventLoopUtilization: number;
  /** Every process's CPU over answers, in ms, and its parts: `service` is the API's process (all of the service in one process), `projector` the projector's when apart. */
  cpuMsPerOperation: { total: number; service: number; projector: number; postgres: number; eventStore: number; simulator: number; receiver: number; bench: number };
  serviceRssMiB: number;
  /** The generator's worst lateness: large, and the bench itself was short of CPU. */
  generatorLatenessMs: number;
}

/** What one stretch of load did, before any reference is set beside it; its samples too. */
export type Measured = Omit<Step, "referenceAddedP99Ms" | "referenceEndToEndP99Ms"> & { samples: Sample[]; statusReadMs: number };

const isProcessorTimeout = (sample: Sample) => sample.status === 504 && sample.code === "processor_timeout";
const isPlatform5xx = (sample: Sample) => (sample.status >= 500 || sample.status === 0) && !isProcessorTimeout(sample);

const sortedOf = (values: number[]) => values.toSorted((a, b) => a - b);

/** Platform-added latency: an answer's time less what it waited on its processor. */
export function latencies(samples: Sample[]) {
  const answered = samples.filter((sample) => sample.status !== 0);
  const added = sortedOf(answered.map((sample) => Math.max(0, sample.endToEndMs - sample.processorMs)));
  const endToEnd = sortedOf(answered.map((sample) => sample.endToEndMs));
  return { addedP50Ms: percentile(added, 0.5), addedP99Ms: percentile(added, 0.99), endToEndP99Ms: percentile(endToEnd, 0.99) };
}

/** Platform-added p99 of each kind of operation, slowest first: where a step's tail comes from. */
export function addedP99ByKind(samples: Sample[]): string {
  const kinds = [...new Set(samples.map((sample) => sample.kind))];
  return kinds
    .map((kind) => ({ kind, p99: latencies(samples.filter((sample) => sample.kind === kind)).addedP99Ms }))
    .toSorted((one, other) => other.p99 - one.p99)
    .map(({ kind, p99 }) => `${kind} ${formatNumber(p99)} ms`)
    .join(", ");
}

export function answerCounts(samples: Sample[], seconds: number) {
  const platform5xx = samples.filter(isPlatform5xx).length;
  return {
    sent: samples.length,
    achieved: (samples.length - platform5xx) / seconds,
    platform5xx,
    status503: samples.filter((sample) => sample.status === 503).length,
    processorTimeouts: samples.filter(isProcessorTimeout).length,
    status4xx: samples.filter((sample) => sample.status >= 400 && sample.status < 500).length,
  };
}

/** p99 of `values`; Infinity when there are none (no webhook arrived: it is late without bound). */
export const p99OrInfinity = (values: number[]) => (values.length === 0 ? Number.POSITIVE_INFINITY : percentile(sortedOf(values), 0.99));

/** The bounds a step misses, in the order the knee names them. */
export function missed(step: Step): string[] {
  const reasons: string[] = [];
  if (step.platform5xx > 0) reasons.push(`${step.platform5xx} 5xx`);
  if (step.addedP99Ms > KNEE.addedP99OfReference * step.referenceAddedP99Ms) {
    reasons.push(`added p99 ${formatNumber(step.addedP99Ms / step.referenceAddedP99Ms, 1)} × reference's`);
  }
  if (step.projectionLagP99Seconds > KNEE.projectionLagP99Seconds) reasons.push(`projection lag p99 ${formatNumber(step.projectionLagP99Seconds, 1)} s`);
  if (step.webhookLagP99Seconds > KNEE.webhookLagP99Seconds) reasons.push(`webhook lag p99 ${formatNumber(step.webhookLagP99Seconds, 1)} s`);
  return reasons;
}

/** The highest step within every bound; undefined when none is. */
export const kneeOf = (steps: Step[]): Step | undefined => steps.filter((step) => missed(step).length === 0).at(-1);

export const ms = (value: number) => (Number.isFinite(value) ? formatNumber(value, value < 10 ? 1 : 0) : "∞");
export const seconds = (value: number) => (Number.isFinite(value) ? formatNumber(value, 2) : "∞");

/** One line a step: a Markdown table, so docs/capacity.md can take it as printed. */
export function printSteps(steps: Step[]): void {
  const header = [
    "offered/s", "achieved/s", "5xx", "503", "504 timeout", "4xx", "added p50 ms", "added p99 ms", "e2e p99 ms",
    "ref added p99 ms", "ref e2e p99 ms", "proj lag p99 s", "status reads refused", "webhook lag p99 s", "webhooks", "webhook queue",
    "ELU", "CPU ms/op (svc+proj+pg+es+sim+rcv+bench)", "RSS MiB", "gen late ms", "misses",
  ];
  console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const step of steps) {
    const cpu = step.cpuMsPerOperation;
    const cells = [
      formatNumber(step.offered), formatNumber(step.achieved, 1), step.platform5xx, step.status503, step.processorTimeouts, step.status4xx,
      ms(step.addedP50Ms), ms(step.addedP99Ms), ms(step.endToEndP99Ms), ms(step.referenceAddedP99Ms), ms(step.referenceEndToEndP99Ms),
      seconds(step.projectionLagP99Seconds), step.statusReadsRefused, seconds(step.webhookLagP99Seconds), step.webhooksReceived, step.webhookQueueAtEnd,
      `${formatNumber(step.eventLoopUtilization * 100)} %`,
      `${formatNumber(cpu.total, 2)} (${[cpu.service, cpu.projector, cpu.postgres, cpu.eventStore, cpu.simulator, cpu.receiver, cpu.bench].map((part) => formatNumber(part, 2)).join("+")})`,
      formatNumber(step.serviceRssMiB), ms(step.generatorLatenessMs), missed(step).join("; ") || "none",
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
}
