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
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
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

/**
 * Runs `command` in DATA_DIR `dataDir` until GET /health/ready answers 200; the milliseconds from
 * its spawn. Then stops it (SIGTERM) and waits until the service's process is gone, so that the
 * next start finds DATA_DIR free.
 */
async function timeToReady([file, ...args]: readonly string[], dataDir: string): Promise<number> {
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
    const ready = performance.now() - started;
    await stop(child, Number(match[1]));
    return ready;
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
    let fresh = 0;
    const freshDir = () => path.join(work, `fresh-${fresh++}`);
    const existing = path.join(work, "existing");
    await timeToReady(["npm", "start"], existing);

    row("npm start", "ready, new DATA_DIR", await repeat(runs, () => timeToReady(["npm", "start"], freshDir())), GOAL_START_MS);
    const npmStart = await repeat(runs, () => timeToReady(["npm", "start"], existing));
    row("npm start", "ready, existing DATA_DIR", npmStart, GOAL_START_MS);

    const launcher = await repeat(runs, () => timeToReady([process.execPath, "bin/start.js"], existing));
    row("breakdown", `node bin/start.js (${built ? "dist/" : "sources through tsx: dist/ missing or stale"})`, launcher);
    row("breakdown", "  npm's own start and prestart (npm start - the above)", median(npmStart) - median(launcher));
    row("breakdown", "    of which prestart (console build check)", await repeat(runs, () => timeToExit([process.execPath, "--import", "tsx", "console/build.ts", "--if-stale"])));
    const sources = await repeat(runs, () => timeToReady([process.execPath, "--import", "tsx", "src/main.ts"], existing));
    row("breakdown", "node --import tsx src/main.ts", sources);
    if (built) {
      const compiled = await repeat(runs, () => timeToReady([process.execPath, "dist/main.js"], existing));
      row("breakdown", "node dist/main.js", compiled);
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
