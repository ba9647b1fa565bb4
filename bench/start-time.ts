/**
 * How long `npm start` takes to be ready on the embedded database (issue 54 item 5: at most 5 s on
 * a warm machine), where that time goes, and how long `ledger --help` takes each way it can be run
 * (item 2: under 1 s). Ready is the first 200 of GET /health/ready, timed from the command's start.
 *
 * Each start runs `--runs` times (the median, min and max are printed): in a new DATA_DIR (the
 * database created, every migration run, keys generated) and in one an earlier start left. The
 * breakdown, in the existing DATA_DIR: npm's own start and `prestart` (npm start against
 * `node bin/start.js`), tsx's compile of the sources (`node --import tsx src/main.ts` against
 * `node dist/main.js`; only when dist/ is current), the loading of the service's modules (built),
 * and, in a process of its own with the modules loaded, PGlite's start, the migrations, the
 * processor simulator, the rest of startService, and listening to ready.
 * Usage: tsx bench/start-time.ts [--runs 3]
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, promisify } from "node:util";
import { formatNumber, intOption, printResults, type ResultRow } from "./support.ts";

const GOAL_START_MS = 5_000;
const GOAL_HELP_MS = 1_000;
const root = fileURLToPath(new URL("..", import.meta.url));
/** The embedded database, whatever the shell exported; the log at info, where the service says where it listens. */
const embedded = { DATABASE_URL: "", EVENTSTORE_URL: "", PORT: "0", LOG_LEVEL: "info" };
const listening = /"pid":(\d+).*docs: (http:\S+)\/docs/;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${formatNumber(ms / 1000, 2)} s`;
const spread = (values: readonly number[]) => `${seconds(median(values))} (${seconds(Math.min(...values))}-${seconds(Math.max(...values))})`;

/** Linux's clock ticks a second, the unit of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/**
 * The CPU milliseconds `pid` has used, with those of its children that ended (npm's `prestart`);
 * undefined where there is no /proc.
 */
function cpuMs(pid: number): number | undefined {
  try {
    // The fields after the command's name (which may hold spaces): utime is the 14th field of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return ((utime! + stime! + cutime! + cstime!) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

interface Start {
  /** From the spawn to GET /health/ready's first 200. */
  wallMs: number;
  /** The CPU the command's processes used until then (npm, its prestart, the service): less shaken by the machine's load. */
  cpuMs: number | undefined;
}

/**
 * Runs `command` in DATA_DIR `dataDir` until GET /health/ready answers 200: how long that took.
 * Then stops it (SIGTERM) and waits until the service's process is gone, so that the next start
 * finds DATA_DIR free.
 */
async function timeToReady([file, ...args]: readonly string[], dataDir: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(file!, args, { cwd: root, env: { ...process.env, ...embedded, DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += String(chunk)));
  child.stderr.on("data", (chunk) => (output += String(chunk)));
  try {
    let match = listening.exec(output);
    while (!match) {
      if (child.exitCode !== null) throw new Error(`${[file, ...args].join(" ")} exited (${child.exitCode}):\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      match = listening.exec(output);
    }
    while ((await fetch(`${match[2]}/health/ready`).catch(() => undefined))?.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const wallMs = performance.now() - started;
    const servicePid = Number(match[1]);
    const [own, service] = [cpuMs(child.pid!), servicePid === child.pid ? 0 : cpuMs(servicePid)];
    await stop(child, servicePid);
    return { wallMs, cpuMs: own === undefined || service === undefined ? undefined : own + service };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

async function stop(child: ChildProcess, servicePid: number): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
  // npm forwards the signal to the service; its exit may come after npm's.
  for (;;) {
    try {
      process.kill(servicePid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The milliseconds `command` takes from its spawn to its exit (status 0). */
async function timeToExit([file, ...args]: readonly string[]): Promise<number> {
  const started = performance.now();
  await promisify(execFile)(file!, args, { cwd: root });
  return performance.now() - started;
}

async function repeat(runs: number, measure: () => Promise<number>): Promise<number[]> {
  const figures = [];
  for (let run = 0; run < runs; run++) figures.push(await measure());
  return figures;
}

/** Whether dist/main.js is current, as bin/start.js judges it (then it runs it). */
async function distIsCurrent(): Promise<boolean> {
  const launcher = pathToFileURL(path.join(root, "bin", "compiled-or-sources.js")).href;
  const script = `const { isBuiltCurrent } = await import(${JSON.stringify(launcher)}); process.stdout.write(String(isBuiltCurrent("main")))`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: root });
  return stdout === "true";
}

/** The milliseconds a fresh node takes to import the service's modules: the built ones, or the sources through tsx. */
async function moduleLoading(built: boolean): Promise<number> {
  const entry = built ? path.join(root, "dist", "service.js") : path.join(root, "src", "service.ts");
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(entry).href)}); process.stdout.write(String(performance.now() - t))`;
  const { stdout } = await promisify(execFile)(process.execPath, [...(built ? [] : ["--import", "tsx"]), "--input-type=module", "-e", script], { cwd: root });
  return Number(stdout);
}

type Phases = Record<string, number>;

/** Each step of a start after the modules are loaded, timed in this process (`--phases DATA_DIR`), printed as JSON. */
async function timePhases(dataDir: string): Promise<void> {
  const [{ PGlite }, { usePglite }, { startSimulator }, { startService }, { loadConfig }, { createLogger }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("../src/db/connection.ts"),
    import("../src/processors/simulator/server.ts"),
    import("../src/service.ts"),
    import("../src/config.ts"),
    import("../src/logger.ts"),
  ]);
  const config = loadConfig({ ...embedded, DATA_DIR: dataDir });
  const phases: Phases = {};
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await step();
    phases[name] = performance.now() - started;
    return result;
  };
  const location = path.resolve(dataDir, "pglite");
  await mkdir(location, { recursive: true });
  const pglite = await timed("PGlite's start", () => PGlite.create(location));
  const database = await timed("migrations", () => usePglite(pglite));
  const simulator = await timed("processor simulator (apart)", () => startSimulator({ dataDir: path.join(dataDir, "simulator-apart") }));
  await simulator.close();
  const service = await timed("startService: keys, simulator, jobs, HTTP", () => startService(config, createLogger("warn", process.stderr), database));
  await timed("listening to /health/ready 200", async () => {
    while ((await fetch(`${service.url}/health/ready`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
  });
  await service.stop();
  process.stdout.write(JSON.stringify(phases));
}

async function phasesIn(dataDir: string): Promise<Phases> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--phases", dataDir], {
    cwd: root,
    env: { ...process.env, ...embedded },
  });
  return JSON.parse(stdout) as Phases;
}

async function main(runs: number): Promise<void> {
  const rows: ResultRow[] = [];
  const row = (target: string, metric: string, ms: number | number[], goalMs?: number) => {
    const figure = typeof ms === "number" ? seconds(ms) : spread(ms);
    const value = typeof ms === "number" ? ms : median(ms);
    rows.push({ target, metric, value: figure, goal: goalMs ? `<= ${seconds(goalMs)}` : "", met: goalMs ? (value <= goalMs ? "yes" : "NO") : "" });
  };
  const loadBefore = loadavg();
  const work = await mkdtemp(path.join(tmpdir(), "bench-start-"));
  try {
    const built = await distIsCurrent();
    let dirs = 0;
    const freshDir = () => path.join(work, `fresh-${dirs++}`);
    const existing = path.join(work, "existing");
    await timeToReady(["npm", "start"], existing);
    const starts = async (command: readonly string[], dataDir: () => string) => {
      const measured: Start[] = [];
      for (let run = 0; run < runs; run++) measured.push(await timeToReady(command, dataDir()));
      return measured;
    };
    const cpuRow = (target: string, metric: string, measured: readonly Start[]) => {
      const cpu = measured.flatMap(({ cpuMs: ms }) => (ms === undefined ? [] : [ms]));
      if (cpu.length > 0) row(target, `${metric}: CPU used`, cpu);
    };
    const wall = (measured: readonly Start[]) => measured.map(({ wallMs }) => wallMs);

    const fresh = await starts(["npm", "start"], freshDir);
    row("npm start", "ready, new DATA_DIR", wall(fresh), GOAL_START_MS);
    cpuRow("npm start", "ready, new DATA_DIR", fresh);
    const npmStart = await starts(["npm", "start"], () => existing);
    row("npm start", "ready, existing DATA_DIR", wall(npmStart), GOAL_START_MS);
    cpuRow("npm start", "ready, existing DATA_DIR", npmStart);

    const launcher = wall(await starts([process.execPath, "bin/start.js"], () => existing));
    row("breakdown", `node bin/start.js (${built ? "dist/" : "sources through tsx: dist/ missing or stale"})`, launcher);
    row("breakdown", "  npm's own start and prestart (npm start - the above)", median(wall(npmStart)) - median(launcher));
    row("breakdown", "    of which prestart (console build check)", await repeat(runs, () => timeToExit([process.execPath, "--import", "tsx", "console/build.ts", "--if-stale"])));
    const sourcesStarts = await starts([process.execPath, "--import", "tsx", "src/main.ts"], () => existing);
    const sources = wall(sourcesStarts);
    row("breakdown", "node --import tsx src/main.ts", sources);
    cpuRow("breakdown", "node --import tsx src/main.ts", sourcesStarts);
    if (built) {
      const compiledStarts = await starts([process.execPath, "dist/main.js"], () => existing);
      const compiled = wall(compiledStarts);
      row("breakdown", "node dist/main.js", compiled);
      cpuRow("breakdown", "node dist/main.js", compiledStarts);
      row("breakdown", "  tsx's compile of the sources (tsx - dist)", median(sources) - median(compiled));
      row("breakdown", "  loading the service's modules (dist)", await repeat(runs, () => moduleLoading(true)));
    }
    row("breakdown", "  loading the service's modules (sources through tsx)", await repeat(runs, () => moduleLoading(false)));
    for (const [where, dataDir] of [["existing DATA_DIR", () => existing], ["new DATA_DIR", freshDir]] as const) {
      const phases: Phases[] = [];
      for (let run = 0; run < runs; run++) phases.push(await phasesIn(dataDir()));
      for (const name of Object.keys(phases[0]!)) row(`phases, ${where}`, name, phases.map((phase) => phase[name]!));
    }

    row("ledger --help", "node bin/ledger.js --help", await repeat(runs, () => timeToExit([process.execPath, "bin/ledger.js", "--help"])), GOAL_HELP_MS);
    row("ledger --help", "npm run --silent ledger -- --help", await repeat(runs, () => timeToExit(["npm", "run", "--silent", "ledger", "--", "--help"])), GOAL_HELP_MS);
    row("ledger --help", "npm exec ledger -- --help", await repeat(runs, () => timeToExit(["npm", "exec", "ledger", "--", "--help"])), GOAL_HELP_MS);
    row("ledger --help", "npx ledger --help", await repeat(runs, () => timeToExit(["npx", "ledger", "--help"])), GOAL_HELP_MS);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  printResults(rows);
  const load = (averages: number[]) => averages.map((average) => average.toFixed(2)).join(", ");
  console.log(`load average (1, 5, 15 min) before: ${load(loadBefore)}; after: ${load(loadavg())}; ${runs} runs each, median (min-max)`);
}

const { values } = parseArgs({ options: { runs: { type: "string" }, phases: { type: "string" } }, strict: true });
if (values.phases) await timePhases(values.phases);
else await main(intOption(values.runs, 3, "runs"));
