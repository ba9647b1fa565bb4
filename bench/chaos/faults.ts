import { setTimeout as sleep } from "node:timers/promises";
import type { EventStoreNode } from "./eventstore-node.ts";
import type { FaultProxy } from "./fault-proxy.ts";
import type { ThrowawayPostgres } from "./postgres-server.ts";
import type { ServiceInstance } from "./processes.ts";
import type { Random } from "./random.ts";

export type Fault =
  | { kind: "kill -9"; instance: number; downMs: number }
  | { kind: "SIGTERM"; instance: number; downMs: number }
  | { kind: "database connections reset" }
  | { kind: "database connections held"; forMs: number }
  | { kind: "database restart" }
  | { kind: "processor latency"; latencyMs: number; forMs: number }
  | { kind: "processor resets mid-response"; forMs: number }
  | { kind: "processor 5xx"; status: number; forMs: number }
  | { kind: "processor drops voids"; forMs: number }
  | { kind: "eventstore kill -9"; downMs: number };

export interface ScheduledFault {
  /** Milliseconds after the load started; a fault waits for its lane's previous one to end. */
  at: number;
  fault: Fault;
}

/** What the faults act on. Without a database, processor proxy or EventStoreDB node, those lanes stay quiet. */
export interface FaultTargets {
  instances: readonly ServiceInstance[];
  postgres?: ThrowawayPostgres;
  databaseProxy?: FaultProxy;
  processorProxy?: FaultProxy;
  eventStore?: EventStoreNode;
  processorTimeoutMs: number;
}

type Lane = (random: Random) => Fault;

/** Milliseconds from the planned start of a lane's fault to the planned start of its next. */
const pauseMs = { min: 2_000, max: 8_000 };
/**
 * The EventStoreDB node took 8 to 15 s to serve again after a `kill -9` (its start and recovery on
 * a loaded machine): its faults are planned further apart, so the load runs between them.
 */
const eventStorePauseMs = { min: 20_000, max: 30_000 };

/**
 * A void as each processor's wire carries it: processor_a's path, processor_b's and processor_c's
 * transaction type in the body, processor_d's reversals sub-resource. The merchants' voids, the
 * expiries' and the reversals' alike.
 */
export const voidRequest = /^POST \/processor_a\/v1\/void |"REVERSAL"|"ccvoid"|^POST \/processor_d\/v2\/payments\/[^/ ]+\/reversals /m;

function lanesFor(targets: FaultTargets): { draw: Lane; pause: { min: number; max: number } }[] {
  const instanceLane: Lane = (random) => {
    const instance = random.int(0, targets.instances.length - 1);
    const downMs = random.int(500, 3_000);
    return random.chance(0.8) ? { kind: "kill -9", instance, downMs } : { kind: "SIGTERM", instance, downMs };
  };
  const databaseLane: Lane = (random) =>
    random.pick<Fault>([
      { kind: "database connections reset" },
      { kind: "database connections held", forMs: random.int(500, 4_000) },
      { kind: "database restart" },
    ]);
  const processorLane: Lane = (random) =>
    random.pick<Fault>([
      { kind: "processor latency", latencyMs: targets.processorTimeoutMs + random.int(100, 1_000), forMs: random.int(1_000, 4_000) },
      { kind: "processor resets mid-response", forMs: random.int(500, 3_000) },
      { kind: "processor 5xx", status: random.pick([500, 502, 503]), forMs: random.int(500, 3_000) },
      // Longer: only voids are touched, and they are few.
      { kind: "processor drops voids", forMs: random.int(3_000, 10_000) },
    ]);
  const eventStoreLane: Lane = (random) => ({ kind: "eventstore kill -9", downMs: random.int(500, 5_000) });
  // The EventStoreDB lane comes last: the other lanes draw the same faults with or without it.
  return [
    { draw: instanceLane, pause: pauseMs },
    ...(targets.postgres && targets.databaseProxy ? [{ draw: databaseLane, pause: pauseMs }] : []),
    ...(targets.processorProxy ? [{ draw: processorLane, pause: pauseMs }] : []),
    ...(targets.eventStore ? [{ draw: eventStoreLane, pause: eventStorePauseMs }] : []),
  ];
}

/**
 * The seeded schedule: each lane (instances, database, processor, EventStoreDB) draws faults one after another
 * with pauses of 2 to 8 s, so faults of different lanes overlap and hit every component at once.
 */
export function planFaults(random: Random, durationMs: number, targets: FaultTargets): ScheduledFault[][] {
  return lanesFor(targets).map(({ draw, pause }, index) => {
    const lane = random.fork(`lane-${index}`);
    const planned: ScheduledFault[] = [];
    for (let at = lane.int(1_000, 5_000); at < durationMs; at += lane.int(pause.min, pause.max)) {
      planned.push({ at, fault: draw(lane) });
    }
    return planned;
  });
}

export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case "kill -9":
    case "SIGTERM":
      return `${fault.kind} instance ${fault.instance}, restarted after ${fault.downMs} ms`;
    case "database connections held":
    case "processor resets mid-response":
    case "processor drops voids":
      return `${fault.kind} for ${fault.forMs} ms`;
    case "processor latency":
      return `${fault.kind} ${fault.latencyMs} ms for ${fault.forMs} ms`;
    case "processor 5xx":
      return `processor answers ${fault.status} for ${fault.forMs} ms`;
    case "eventstore kill -9":
      return `kill -9 of the EventStoreDB node, restarted after ${fault.downMs} ms`;
    default:
      return fault.kind;
  }
}

/** When a kill of the EventStoreDB node took effect and when its reads were served again, in ms from the load's start. */
export interface EventStoreOutage {
  killedAt: number;
  /** Undefined: not within the node's restart bound (its restart then fails the run). */
  answeringAt: number | undefined;
}

/**
 * Runs one fault to its end: whatever it broke works again when this resolves. A kill of the
 * EventStoreDB node reports its outage, timed by `elapsed` (ms since the load started).
 */
async function inject(fault: Fault, targets: FaultTargets, elapsed: () => number): Promise<EventStoreOutage | undefined> {
  switch (fault.kind) {
    case "kill -9":
    case "SIGTERM": {
      const instance = targets.instances[fault.instance];
      if (!instance) throw new Error(`no instance ${fault.instance}`);
      await (fault.kind === "kill -9" ? instance.process.kill() : instance.process.terminate());
      await sleep(fault.downMs);
      await instance.start();
      return;
    }
    case "database connections reset":
      targets.databaseProxy?.resetAll();
      return;
    case "database connections held":
      await holdFor(targets.databaseProxy, { kind: "hold" }, fault.forMs);
      return;
    case "database restart":
      await targets.postgres?.restart();
      return;
    case "processor latency":
      await holdFor(targets.processorProxy, { kind: "latency", ms: fault.latencyMs }, fault.forMs);
      return;
    case "processor resets mid-response":
      await holdFor(targets.processorProxy, { kind: "reset_responses" }, fault.forMs);
      return;
    case "processor 5xx":
      await holdFor(targets.processorProxy, { kind: "http_error", status: fault.status }, fault.forMs);
      return;
    case "processor drops voids":
      await holdFor(targets.processorProxy, { kind: "drop_requests", matching: voidRequest }, fault.forMs);
      return;
    case "eventstore kill -9": {
      if (!targets.eventStore) return;
      await targets.eventStore.kill();
      const killedAt = elapsed();
      const answeringAt = targets.eventStore.answering().then(elapsed, () => undefined);
      await sleep(fault.downMs);
      await targets.eventStore.restart();
      return { killedAt, answeringAt: await answeringAt };
    }
  }
}

async function holdFor(proxy: FaultProxy | undefined, mode: Parameters<FaultProxy["setMode"]>[0], ms: number): Promise<void> {
  if (!proxy) return;
  proxy.setMode(mode);
  try {
    await sleep(ms);
  } finally {
    proxy.setMode({ kind: "pass" });
  }
}

export interface InjectedFault {
  lane: number;
  startedAt: number;
  endedAt: number;
  fault: Fault;
  /** For a kill of the EventStoreDB node, in ms from the load's start like the rest. */
  eventStoreOutage?: EventStoreOutage;
}

/**
 * Plays the lanes until they run out or `signal` aborts; a fault under way always runs to its end,
 * so everything works again when this resolves.
 */
export async function runFaults(
  lanes: ScheduledFault[][],
  targets: FaultTargets,
  options: { signal: AbortSignal; onFault: (injected: InjectedFault) => void; onStart?: (lane: number, fault: Fault) => void },
): Promise<InjectedFault[]> {
  const started = Date.now();
  const injected: InjectedFault[] = [];
  await Promise.all(
    lanes.map(async (planned, lane) => {
      for (const { at, fault } of planned) {
        const wait = at - (Date.now() - started);
        if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
        if (options.signal.aborted) return;
        options.onStart?.(lane, fault);
        const startedAt = Date.now() - started;
        const eventStoreOutage = await inject(fault, targets, () => Date.now() - started);
        const record: InjectedFault = { lane, startedAt, endedAt: Date.now() - started, fault, ...(eventStoreOutage && { eventStoreOutage }) };
        injected.push(record);
        options.onFault(record);
      }
    }),
  );
  return injected;
}
