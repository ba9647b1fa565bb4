/**
 * The bench's processes: the processor simulator (with its latency model), the service (with the
 * event-loop probe) and the webhook receiver, each a child of its own so that /proc tells what
 * each spends; and what /proc says of them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import type { EventLoopUtilization } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const root = fileURLToPath(new URL("../..", import.meta.url));
const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export interface Child {
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry (through tsx, and `imports` before it, with node's `nodeArgs` and the
 * script's `args`) until its output matches `ready`.
 */
async function startChild(
  script: string,
  environment: Record<string, string>,
  ready: RegExp,
  { imports = [], nodeArgs = [], args = [] }: { imports?: string[]; nodeArgs?: string[]; args?: string[] } = {},
) {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", ...imports.flatMap((file) => ["--import", file]), script, ...args], {
    cwd: root,
    env: { ...process.env, ...environment },
    // The IPC channel: the probe's and the receiver's answers, and children that go when the bench does.
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  const keep = (chunk: unknown) => {
    // Only the start's lines matter; a long run must not keep every log line.
    if (output.length < 100_000) output += String(chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const started = Date.now();
  for (;;) {
    const match = ready.exec(output);
    if (match && child.pid !== undefined) {
      const pid = child.pid;
      return {
        match,
        pid,
        child,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill("SIGTERM");
          await once(child, "exit");
        },
      };
    }
    if (child.exitCode !== null || Date.now() - started > 180_000) throw new Error(`${script} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface LatencyEnvironment {
  SIMULATOR_LATENCY_P50_MS: string;
  SIMULATOR_LATENCY_P99_MS: string;
  SIMULATOR_TIMEOUT_RATE: string;
}

/** The processor simulator as a child; without `latency` it answers at once. */
export async function startSimulatorChild(latency?: LatencyEnvironment): Promise<Child & { url: string }> {
  const started = await startChild(path("../../src/processors/simulator/main.ts"), { ...latency }, /^\{"simulator":"(\S+)"\}$/m);
  return { ...started, url: started.match[1] ?? "" };
}

const eluMessage = z.object({ elu: z.object({ idle: z.number(), active: z.number(), utilization: z.number() }) });

export interface ServiceChild extends Child {
  url: string;
  /** The service's event-loop utilization so far (pass two to `performance.eventLoopUtilization` for a span's). */
  elu(): Promise<EventLoopUtilization>;
}

/** A port free now, for a child that must be told where to listen. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

/**
 * `npm start` (role `all`) or `npm run start:api` (role `api`) as a child, with the probe that
 * reports its event loop, once `/health/ready` says it is ready (at LOG_LEVEL=warn it prints
 * nothing when it starts). With `cpuProfileDir`, node writes the service's CPU profile there when
 * it stops (open it in Chrome's DevTools).
 */
export async function startServiceChild(
  environment: Record<string, string>,
  { role, cpuProfileDir }: { role: "all" | "api"; cpuProfileDir?: string | undefined },
): Promise<ServiceChild> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = cpuProfileDir ? ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir] : [];
  const started = await startChild(path("../../src/main.ts"), { ...environment, HOST: "127.0.0.1", PORT: String(port) }, /^/, {
    imports: [path("./probe.ts")],
    nodeArgs,
    args: [role],
  });
  for (;;) {
    const ready = await fetch(`${url}/health/ready`).then((response) => response.ok, () => false);
    if (ready) break;
    if (started.child.exitCode !== null) throw new Error("the service exited before it was ready");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    ...started,
    url,
    async elu() {
      started.child.send("elu");
      const [message] = (await once(started.child, "message")) as unknown[];
      return eluMessage.parse(message).elu;
    },
  };
}

const lagsMessage = z.object({ lagsMs: z.array(z.number()), received: z.number() });

/** `npm run start:projector` as a child: the projections in a process of their own, beside an `api` service. */
export async function startProjectorChild(environment: Record<string, string>): Promise<Child> {
  const started = await startChild(path("../../src/main.ts"), environment, /^/, { args: ["projector"] });
  await once(started.child, "message");
  return started;
}

export interface ReceiverChild extends Child {
  url: string;
  /** The lags (event's time to arrival) of the messages received since the last collect. */
  collect(): Promise<z.infer<typeof lagsMessage>>;
}

export async function startReceiverChild(): Promise<ReceiverChild> {
  const started = await startChild(path("./receiver.ts"), {}, /^receiver: (http:\S+)$/m);
  return {
    ...started,
    url: started.match[1] ?? "",
    async collect() {
      started.child.send("collect");
      const [message] = (await once(started.child, "message")) as unknown[];
      return lagsMessage.parse(message);
    },
  };
}

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux. */
const MS_PER_TICK = 10;

/** User and system CPU time of a process so far, in ms. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** The same, 0 for a process that has gone (a backend closed between two readings). */
export function processCpuMsOrZero(pid: number): number {
  try {
    return processCpuMs(pid);
  } catch {
    return 0;
  }
}

/** Resident memory of a process, in MiB. */
export function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((text) => text.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}
