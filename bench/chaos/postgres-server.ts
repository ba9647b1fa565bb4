import { type ChildProcess, execFile, spawn } from "node:child_process";
import { access, appendFile, mkdtemp, open, readFile, readdir, readlink, realpath, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";

export interface ThrowawayPostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth on loopback) */
  url: string;
  /** Starts the server (after stop/kill); resolves once it accepts connections. */
  start(): Promise<void>;
  /** pg_ctl stop -m fast; resolves once stopped. Does nothing when the server is not running. */
  stop(): Promise<void>;
  /**
   * SIGKILL to the postmaster (a crash): the next start() recovers from WAL. Resolves once the
   * postmaster and every backend it leaves behind are gone. Does nothing when it is not running.
   */
  kill(): Promise<void>;
  /** stop (or kill) then start. */
  restart(): Promise<void>;
  /** Stops it whatever its state and deletes its directory. */
  destroy(): Promise<void>;
}

const run = promisify(execFile);
const POSTGRES_INSTALLATIONS = "/usr/lib/postgresql";
const installScript = fileURLToPath(new URL("../../scripts/install-postgres.sh", import.meta.url));
const START_TIMEOUT_MS = 60_000;
const RELEASE_TIMEOUT_MS = 30_000;

/**
 * A PostgreSQL server of its own: a fresh cluster in a temporary directory, on its own port, with
 * the machine's newest PostgreSQL binaries (installed as CI does when there are none). Started
 * before it is returned.
 */
export async function startThrowawayPostgres(options: { port?: number } = {}): Promise<ThrowawayPostgres> {
  const binaries = await postgresBinaries();
  const port = options.port ?? (await freePort());
  // initdb refuses to run as root: root runs the binaries as the postgres user, who owns the directory.
  const asRoot = process.getuid?.() === 0;
  const directory = await realpath(await mkdtemp(path.join(os.tmpdir(), "chaos-postgres-")));
  const dataDirectory = path.join(directory, "data");
  const logFile = path.join(directory, "server.log");
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  // The postgres user may not be allowed into this process's working directory.
  const commandLine = (program: string, args: string[]): [string, string[]] => {
    const executable = path.join(binaries, program);
    return asRoot ? ["runuser", ["-u", "postgres", "--", executable, ...args]] : [executable, args];
  };
  const postgresCommand = (program: string, args: string[]) => run(...commandLine(program, args), { cwd: directory });

  const logTail = async () => {
    const log = await readFile(logFile, "utf8").catch(() => "");
    return log.trim() ? `last lines of ${logFile}:\n${log.trimEnd().split("\n").slice(-20).join("\n")}` : `${logFile} is empty`;
  };

  /** The postmaster's pid when it is alive; a pid from a stale postmaster.pid may belong to anyone by now. */
  const runningPostmaster = async () => {
    const pidFile = await readFile(path.join(dataDirectory, "postmaster.pid"), "utf8").catch(() => "");
    const pid = Number(pidFile.split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 && (await processesInDirectory(dataDirectory)).includes(pid) ? pid : undefined;
  };

  /**
   * The postmaster is this process's child (through runuser as root), not pg_ctl's: pg_ctl leaves
   * it to init, and an init that reaps lazily keeps a killed postmaster as a zombie whose pid in
   * postmaster.pid makes the next postmaster refuse to start.
   */
  let postmasterExit: Promise<string> | undefined;

  const server: ThrowawayPostgres = {
    port,
    url,
    async start() {
      const deadline = Date.now() + START_TIMEOUT_MS;
      const [command, args] = commandLine("postgres", ["-D", dataDirectory]);
      const log = await open(logFile, "a");
      let child: ChildProcess;
      try {
        child = spawn(command, args, { cwd: directory, stdio: ["ignore", log.fd, log.fd] });
      } finally {
        await log.close();
      }
      let exitReason: string | undefined;
      const exit = new Promise<string>((resolve) => {
        child.once("error", (error) => resolve(error.message));
        child.once("exit", (code, signal) => resolve(signal ? `killed by ${signal}` : `exit code ${code}`));
      });
      void exit.then((reason) => (exitReason = reason));
      postmasterExit = exit;
      const failure = await waitUntilAccepting(url, deadline, () => exitReason);
      if (failure) throw new Error(`PostgreSQL on port ${port} did not start (${failure})\n${await logTail()}`);
    },
    async stop() {
      if ((await runningPostmaster()) !== undefined) {
        await postgresCommand("pg_ctl", ["stop", "-w", "-m", "fast", "-D", dataDirectory]);
      }
      await postmasterExit;
    },
    async kill() {
      const pid = await runningPostmaster();
      if (pid !== undefined) process.kill(pid, "SIGKILL");
      await postmasterExit;
      // The backends notice their postmaster's death a moment later; a start before they are gone
      // fails on their shared memory.
      await waitUntilReleased(dataDirectory);
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async destroy() {
      await server.kill();
      await rm(directory, { recursive: true, force: true });
    },
  };

  try {
    if (asRoot) await run("chown", ["postgres:postgres", directory]);
    await postgresCommand("initdb", ["-D", dataDirectory, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
    await appendFile(path.join(dataDirectory, "postgresql.conf"), settings(port, directory));
    await server.start();
  } catch (error) {
    await server.destroy();
    throw error;
  }
  return server;
}

function settings(port: number, socketDirectory: string): string {
  return [
    "",
    "# throwaway server of the chaos harness",
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    `unix_socket_directories = '${socketDirectory.replaceAll("'", "''")}'`,
    "fsync = on", // a kill must be a real crash that recovers from WAL
    "max_connections = 200",
    "shared_buffers = 128MB",
    "logging_collector = off",
    "",
  ].join("\n");
}

/** The bin directory of the newest PostgreSQL under /usr/lib/postgresql, installing it when there is none. */
async function postgresBinaries(): Promise<string> {
  const installed = await newestInstalledBinaries();
  if (installed) return installed;
  try {
    await run("bash", [installScript]);
  } catch (error) {
    throw new Error(`no PostgreSQL under ${POSTGRES_INSTALLATIONS} and ${installScript} failed`, { cause: error });
  }
  const afterInstall = await newestInstalledBinaries();
  if (!afterInstall) throw new Error(`${installScript} ran but there is still no initdb under ${POSTGRES_INSTALLATIONS}`);
  return afterInstall;
}

async function newestInstalledBinaries(): Promise<string | undefined> {
  const versions = await readdir(POSTGRES_INSTALLATIONS).catch(() => []);
  const newestFirst = versions.filter((name) => /^\d+(\.\d+)?$/.test(name)).sort((a, b) => Number(b) - Number(a));
  for (const version of newestFirst) {
    const binaries = path.join(POSTGRES_INSTALLATIONS, version, "bin");
    if (await access(path.join(binaries, "initdb")).then(() => true, () => false)) return binaries;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", resolve);
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Connects and runs `select 1` until it works; otherwise says why not once the deadline passes or the
 * postmaster has exited.
 */
async function waitUntilAccepting(url: string, deadline: number, exitReason: () => string | undefined): Promise<string | undefined> {
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    let failure: string;
    try {
      await client.connect();
      try {
        await client.query("select 1");
        return undefined;
      } finally {
        await client.end();
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const exited = exitReason();
    if (exited) return `postgres exited: ${exited}`;
    if (Date.now() > deadline) return `no answer after ${START_TIMEOUT_MS / 1000} s: ${failure}`;
    await sleep(100);
  }
}

/**
 * The pids of the processes whose working directory is `directory`. The postmaster changes into
 * its data directory and every backend inherits that, so these are the server's processes, and a
 * zombie (which has no working directory) is not among them. Linux only: it reads /proc.
 */
async function processesInDirectory(directory: string): Promise<number[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const inDirectory = await Promise.all(
    pids.map((pid) => readlink(`/proc/${pid}/cwd`).then((cwd) => cwd === directory, () => false)),
  );
  return pids.filter((_, index) => inDirectory[index]).map(Number);
}

async function waitUntilReleased(dataDirectory: string) {
  const deadline = Date.now() + RELEASE_TIMEOUT_MS;
  for (;;) {
    const remaining = await processesInDirectory(dataDirectory);
    if (remaining.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`processes ${remaining.join(", ")} still run in ${dataDirectory} ${RELEASE_TIMEOUT_MS / 1000} s after the kill`);
    }
    await sleep(20);
  }
}
