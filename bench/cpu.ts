/**
 * CPU time spent during a run, read from Linux's /proc: the whole machine's busy time, and
 * PostgreSQL's share (its server processes, when it runs on this machine). On two cores shared by
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
}

/** The CPU time used so far; undefined where /proc cannot be read. */
export function cpuTime(): CpuTime | undefined {
  try {
    return { machineMs: machineBusyMs(), postgresMs: postgresMs() };
  } catch {
    return undefined;
  }
}

/** The CPU time used since `before`; undefined where /proc cannot be read. */
export function cpuTimeSince(before: CpuTime | undefined): CpuTime | undefined {
  const now = cpuTime();
  if (!before || !now) return undefined;
  return { machineMs: now.machineMs - before.machineMs, postgresMs: now.postgresMs - before.postgresMs };
}

function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  // cpu user nice system idle iowait irq softirq steal ...
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce((sum: number, ticks) => sum + (ticks ?? 0), 0) * MS_PER_TICK;
}

function postgresMs(): number {
  let ticks = 0;
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
    if (stat.slice(stat.indexOf("(") + 1, commEnd) !== "postgres") continue;
    const fields = stat.slice(commEnd + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * MS_PER_TICK;
}
