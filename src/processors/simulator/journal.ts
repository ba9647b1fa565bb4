import { mkdir, open, readFile, truncate } from "node:fs/promises";
import path from "node:path";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";

/**
 * The simulator's memory on disk: an append-only file of JSON lines, each written and synced
 * (fsync) before `append` resolves, so a processor that answered never forgets it. Lines that
 * arrive while a sync runs are written together with the next one. A `memory://` directory, or
 * none, keeps nothing.
 */
export interface Journal {
  /** The lines written before this start, oldest first. */
  readonly lines: readonly string[];
  append(line: string): Promise<void>;
  close(): Promise<void>;
}

const FILE = "transactions.jsonl";

export async function openJournal(dataDir: string | undefined): Promise<Journal> {
  if (dataDir === undefined || dataDir.startsWith("memory://")) {
    return { lines: [], append: async () => {}, close: async () => {} };
  }
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE);
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  // A line cut short by a crash was never answered (answers wait for the sync): drop it, so the
  // next line does not run on from it.
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  if (complete.length !== text.length) await truncate(file, Buffer.byteLength(complete));
  const handle = await open(file, "a");
  await syncDirectory(dataDir);

  let lost: unknown;
  const append = batchWhileBusy<string, void>(async (lines) => {
    // After a lost write nothing more is answered: the file would no longer hold every answer in order.
    if (lost !== undefined) throw lost;
    try {
      await handle.write(lines.map((line) => `${line}\n`).join(""));
      await handle.datasync();
    } catch (error) {
      lost = error;
      throw error;
    }
    return lines.map(() => undefined);
  });

  return {
    lines: complete.split("\n").filter((line) => line !== ""),
    append,
    close: () => handle.close(),
  };
}

/** A new file's name is durable once its directory is synced. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
