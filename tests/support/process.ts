import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Runs `src/main.ts` as `npm start` does, in a process of its own, until it says where it listens. */
export async function startServiceProcess(environment: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, PORT: "0", DATABASE_URL: "", ADMIN_API_KEY: "", LOG_LEVEL: "info", ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const started = Date.now();
  const listening = /docs: (http:\S+)\/docs/;
  while (!listening.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url: listening.exec(output)![1]!, output: () => output };
}

export async function stopServiceProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (child.exitCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = await once(child, "exit");
  return code as number | null;
}
