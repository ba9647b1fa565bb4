/**
 * CPU time spent during a run, read from Linux's /proc: the whole machine's busy time, and
 * PostgreSQL's and EventStoreDB's shares (their server processes, when they run on this machine). On two cores shared by
 * the service, PostgreSQL, the simulator and the load generator, a request's cost is what all of
 * them spend on it, not only the service's main thread.
 */
import { readdirSync, readFileSync } from "node:fs";

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux. */
const MS_PER_TICK = 10;

export interface CpuTime {
  /** Busy time of every core together (user, nice, system, irq, softirq, steal). */
  machineMs: number;
  /** User and system time of the processes named `postgres`, with their exited children's. */
  postgresMs: number;
  /** User and system time of EventStoreDB (KurrentDB) server processes; undefined when none runs here. */
  eventStoreMs: number | undefined;
}

/** The CPU time used so far; undefined where /proc cannot be read. */
export function cpuTime(): CpuTime | undefined {
  try {
    const processes = serverProcesses();
    return { machineMs: machineBusyMs(), postgresMs: processes.postgresMs, eventStoreMs: processes.eventStoreMs };
  } catch {
    return undefined;
  }
}

/** The CPU time used since `before`; undefined where /proc cannot be read. */
export function cpuTimeSince(before: CpuTime | undefined): CpuTime | undefined {
  const now = cpuTime();
  if (!before || !now) return undefined;
  return {
    machineMs: now.machineMs - before.machineMs,
    postgresMs: now.postgresMs - before.postgresMs,
    eventStoreMs: now.eventStoreMs === undefined || before.eventStoreMs === undefined ? undefined : now.eventStoreMs - before.eventStoreMs,
  };
}

function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  // cpu user nice system idle iowait irq softirq steal ...
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce((sum: number, ticks) => sum + (ticks ?? 0), 0) * MS_PER_TICK;
}

/** EventStoreDB runs as its own binary or as `dotnet EventStore.ClusterNode.dll`: its command line names it. */
const isEventStoreServer = (pid: string) => {
  try {
    return /EventStore\.ClusterNode|KurrentDB/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch {
    return false;
  }
};

function serverProcesses(): { postgresMs: number; eventStoreMs: number | undefined } {
  let postgresTicks = 0;
  let eventStoreTicks: number | undefined;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // It exited meanwhile.
    }
    // pid (comm) state ppid ...: utime and stime are the 14th and 15th fields; cutime and cstime,
    // the 16th and 17th, hold what the postmaster's exited children (idle connections closed by
    // a pool) spent, which would otherwise vanish from the sum when they exit.
    const commEnd = stat.lastIndexOf(")");
    const fields = stat.slice(commEnd + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    if (stat.slice(stat.indexOf("(") + 1, commEnd) === "postgres") postgresTicks += ticks;
    else if (isEventStoreServer(pid)) eventStoreTicks = (eventStoreTicks ?? 0) + ticks;
  }
  return { postgresMs: postgresTicks * MS_PER_TICK, eventStoreMs: eventStoreTicks === undefined ? undefined : eventStoreTicks * MS_PER_TICK };
}
