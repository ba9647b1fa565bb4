import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { createWriteStream, type WriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const repository = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Runs a TypeScript entry point of this repository with these arguments, in a process of its own
 * that sees only `env` (and PATH): the harness decides every setting a child gets.
 */
export function spawnEntry(entry: string, args: readonly string[], env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    cwd: repository,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A free TCP port on loopback, chosen now so that a process keeps it across restarts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP port");
  return address.port;
}

/**
 * A TypeScript entry point of this repository run as a process of its own, restartable with the
 * same environment; its output is appended to one log file across restarts.
 */
export class ManagedProcess {
  readonly #entry: string;
  readonly #env: Record<string, string>;
  readonly #log: WriteStream;
  #child: ChildProcessByStdio<null, Readable, Readable> | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** Set when the harness itself stops it. */
  #stopping = false;
  /** Set once it was ready: an exit before is a start that failed (its database away), not a crash. */
  #ready = false;
  /** Exits of a ready process that the harness did not cause. */
  readonly crashes: { at: string; reason: string }[] = [];

  constructor(
    readonly name: string,
    options: { entry: string; env: Record<string, string>; logFile: string },
  ) {
    this.#entry = options.entry;
    this.#env = options.env;
    this.#log = createWriteStream(options.logFile, { flags: "a" });
  }

  get pid(): number | undefined {
    return this.#child?.exitCode === null && this.#child.signalCode === null ? this.#child.pid : undefined;
  }

  get running(): boolean {
    return this.pid !== undefined;
  }

  /** Starts it and returns its first line of standard output (the simulator prints its address there). */
  start(): Promise<string> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.#log.write(`\n==== ${new Date().toISOString()} start\n`);
    const child = spawnEntry(this.#entry, [], this.#env);
    this.#child = child;
    this.#stopping = false;
    this.#ready = false;
    this.#exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        if (this.#ready && !this.#stopping) this.crashes.push({ at: new Date().toISOString(), reason: signal ?? `exit code ${code}` });
        resolve();
      }),
    );
    const firstLine = new Promise<string>((resolve, reject) => {
      let buffered = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        const end = buffered.indexOf("\n");
        if (end >= 0) resolve(buffered.slice(0, end));
      });
      child.once("exit", (code, signal) => reject(new Error(`${this.name} exited (${signal ?? code}) before it printed anything`)));
    });
    child.stdout.pipe(this.#log, { end: false });
    child.stderr.pipe(this.#log, { end: false });
    // Nobody may wait for the first line (a service is awaited by its health check instead).
    firstLine.catch(() => undefined);
    return firstLine;
  }

  markReady(): void {
    this.#ready = true;
  }

  /** `kill -9`: no shutdown code runs. */
  async kill(): Promise<void> {
    this.#log.write(`\n==== ${new Date().toISOString()} SIGKILL\n`);
    this.#stopping = true;
    this.#child?.kill("SIGKILL");
    await this.#exited;
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async terminate(graceMs = 60_000): Promise<void> {
    if (!this.running) return;
    this.#log.write(`\n==== ${new Date().toISOString()} SIGTERM\n`);
    this.#stopping = true;
    this.#child?.kill("SIGTERM");
    const exited = await Promise.race([this.#exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!exited) await this.kill();
  }

  /** Resident memory in bytes, from /proc; undefined when not running or not on Linux. */
  async rssBytes(): Promise<number | undefined> {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  }

  async close(): Promise<void> {
    await this.terminate();
    await new Promise((resolve) => this.#log.end(resolve));
  }
}

const answersOk = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.status === 200,
    () => false,
  );

/** A service instance: `src/main.ts` on a fixed port. */
export class ServiceInstance {
  readonly url: string;
  readonly process: ManagedProcess;

  constructor(name: string, options: { port: number; env: Record<string, string>; logFile: string }) {
    this.url = `http://127.0.0.1:${options.port}`;
    this.process = new ManagedProcess(name, {
      entry: "src/main.ts",
      env: { ...options.env, PORT: String(options.port), HOST: "127.0.0.1" },
      logFile: options.logFile,
    });
  }

  get name(): string {
    return this.process.name;
  }

  /**
   * Starts it and waits until it is ready (its stores answer). A start can fail while a fault
   * keeps the database away; it is tried again until `readyTimeoutMs`.
   */
  async start(readyTimeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + readyTimeoutMs;
    while (Date.now() < deadline) {
      if (!this.process.running) void this.process.start();
      if (await answersOk(`${this.url}/health/ready`)) {
        this.process.markReady();
        return;
      }
      await sleep(250);
    }
    throw new Error(`${this.name} was not ready within ${readyTimeoutMs} ms`);
  }
}
