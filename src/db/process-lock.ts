import { link, readFile, rm, writeFile } from "node:fs/promises";
import { deadProcessLockTakeover } from "../retry/policies.ts";
import { retry } from "../retry/retry.ts";

/** The lock is another running process's. */
export class ProcessLockHeldError extends Error {
  constructor(
    message: string,
    readonly holder: number,
  ) {
    super(message);
    this.name = "ProcessLockHeldError";
  }
}

export interface ProcessLock {
  release(): Promise<void>;
}

/**
 * Takes `file` as this process's claim on `what` (its pid inside), or throws naming the running
 * process that holds it. A claim whose process has died is taken over. The file appears whole
 * (hard-linked from a written one), so no one ever reads a half-written pid.
 */
export async function takeProcessLock(file: string, what: string): Promise<ProcessLock> {
  const own = `${file}.${process.pid}`;
  await writeFile(own, `${process.pid}\n`);
  try {
    return await retry(deadProcessLockTakeover, async (tryNumber) => {
      try {
        await link(own, file);
        return { release: () => rm(file, { force: true }) };
      } catch (error) {
        // A refusal on the last try is another process that took the lock in between: thrown as it is.
        const triesLeft = tryNumber < deadProcessLockTakeover.maxAttempts;
        if ((error as NodeJS.ErrnoException).code === "EEXIST" && triesLeft) await removeDeadClaim(file, what);
        throw error;
      }
    });
  } finally {
    await rm(own, { force: true });
  }
}

/** Removes the claim in `file` if its process has died; throws naming it if it runs. */
async function removeDeadClaim(file: string, what: string): Promise<void> {
  const holder = Number.parseInt(await readFile(file, "utf8"), 10);
  if (isRunning(holder)) {
    throw new ProcessLockHeldError(`${what} is in use by process ${holder}: stop it first (${file})`, holder);
  }
  await rm(file, { force: true });
}

/**
 * Our own pid in the file is a claim left by an earlier life: a container's service is pid 1 on
 * every start.
 */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
