import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";

const checkoutRoot = fileURLToPath(new URL("../..", import.meta.url));
const main = path.join(checkoutRoot, "src/main.ts");
const simulatorMain = fileURLToPath(new URL("../../src/processors/simulator/main.ts", import.meta.url));

interface StartedProcess {
  child: ChildProcess;
  /** The match of `ready` in the output. */
  ready: RegExpExecArray;
  output: () => string;
}

/** Runs a TypeScript entry as its npm script does (in `cwd`), in a process of its own, until its output matches `ready`. */
function startProcess(script: string, environment: Record<string, string>, ready: RegExp, cwd = checkoutRoot, args: string[] = []): Promise<StartedProcess> {
  return startCommand([process.execPath, "--import", "tsx", script, ...args], environment, ready, cwd);
}

/** Runs a command in `cwd` until its output matches `ready`. */
async function startCommand(
  [file, ...args]: string[],
  environment: Record<string, string>,
  ready: RegExp,
  cwd = checkoutRoot,
): Promise<StartedProcess> {
  const script = [file, ...args].join(" ");
  const child = spawn(file!, args, {
    cwd,
    env: { ...process.env, ...environment },
    // The IPC channel lets an entry that listens for "disconnect" go when this process does.
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const started = Date.now();
  // A first start creates the embedded database: over a minute on a loaded 2-core machine.
  let match = ready.exec(output);
  while (!match) {
    if (child.exitCode !== null || Date.now() - started > 180_000) throw new Error(`${script} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    match = ready.exec(output);
  }
  return { child, ready: match, output: () => output };
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

const serviceEnvironment = { PORT: "0", DATABASE_URL: "", ADMIN_API_KEY: "", LOG_LEVEL: "info" };
const listening = /"pid":(\d+).*docs: (http:\S+)\/docs/;

/**
 * Runs `src/main.ts` as `npm start` does, until it says where it listens: this checkout's, or
 * that of `checkout` (another release's tree, tests/upgrade).
 */
export async function startServiceProcess(
  environment: Record<string, string>,
  { checkout, role }: { checkout?: string; role?: "api" } = {},
): Promise<ServiceProcess> {
  const entry = checkout === undefined ? main : path.join(checkout, "src/main.ts");
  const { child, ready, output } = await startProcess(entry, { ...serviceEnvironment, ...environment }, listening, checkout, role ? [role] : []);
  return { child, url: ready[2]!, output };
}

/** `npm run start:projector`: the projections alone, until they run. */
export async function startProjectorProcess(environment: Record<string, string>): Promise<Omit<ServiceProcess, "url">> {
  const { child, output } = await startProcess(main, { ...serviceEnvironment, ...environment }, /"msg":"projector running"/, checkoutRoot, ["projector"]);
  return { child, output };
}

/** The service as built by `npm run build`: plain JavaScript in `outDir`, run by node alone. */
export async function startBuiltService(outDir: string, environment: Record<string, string>): Promise<ServiceProcess> {
  const { child, ready, output } = await startCommand(
    [process.execPath, "--enable-source-maps", `${outDir}/main.js`],
    { ...serviceEnvironment, ...environment },
    listening,
  );
  return { child, url: ready[2]!, output };
}

/** `npm start` itself (npm, the shell it runs the script in, the service), until the service listens. */
export async function startWithNpm(environment: Record<string, string>): Promise<ServiceProcess & { servicePid: number }> {
  const { child, ready, output } = await startCommand(["npm", "start"], { ...serviceEnvironment, ...environment }, listening);
  return { child, url: ready[2]!, servicePid: Number(ready[1]), output };
}

export interface SimulatorProcess {
  url: string;
  /** Sends SIGTERM; the exit code. */
  stop(): Promise<number | null>;
}

/** Runs the processor simulator as `npm run simulator` does, until it prints its URL; it dies with this process. */
export async function startSimulatorProcess(environment: Record<string, string> = {}): Promise<SimulatorProcess> {
  const { child, ready } = await startProcess(simulatorMain, environment, /^\{"simulator":.*\}$/m);
  const { simulator } = JSON.parse(ready[0]) as { simulator: string };
  return { url: simulator, stop: () => stopProcess(child) };
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = await once(child, "exit");
  return code as number | null;
}

export interface FinishedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript entry (`src/main.ts`, `src/cli/ledger.ts`) with `args` until it exits, or
 * until `killAfterMs` has passed (then it is killed and its code is null): for an entry expected
 * to stop at once, which must not be left running when it does not.
 */
export async function runProcess(
  script: string,
  args: string[],
  environment: Record<string, string>,
  { killAfterMs }: { killAfterMs?: number } = {},
): Promise<FinishedProcess> {
  return run(process.execPath, ["--import", "tsx", script, ...args], environment, killAfterMs);
}

/**
 * The same, with a terminal: util-linux `script` gives it a pseudo-terminal, so what shows only
 * to a person (progress bars, readable logs) is drawn; all it drew arrives on stdout.
 */
export async function runInTerminal(script: string, args: string[], environment: Record<string, string>): Promise<FinishedProcess> {
  const [file, ...scriptArgs] = inTerminal(script, args);
  return run(file!, scriptArgs, environment);
}

function inTerminal(script: string, args: string[]): string[] {
  const command = [process.execPath, "--import", "tsx", script, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  return ["script", "--quiet", "--return", "--command", command, "/dev/null"];
}

/** `src/main.ts` at a terminal, until it says where its API is. */
export async function startServiceInTerminal(environment: Record<string, string>): Promise<ServiceProcess> {
  const { child, ready, output } = await startCommand(inTerminal(main, []), { ...serviceEnvironment, ...environment }, /API: (http:\S+)\/v1/);
  return { child, url: ready[1]!, output };
}

async function run(file: string, args: string[], environment: Record<string, string>, killAfterMs?: number): Promise<FinishedProcess> {
  const child = spawn(file, args, {
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const kill = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(kill);
  return { code, stdout, stderr };
}
