import { createHash } from "node:crypto";
import { once } from "node:events";
import { chmod, rm } from "node:fs/promises";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Snapshots of an embedded database, handed over by the process that holds it. PGlite serves one
 * process: a second one opening its files corrupts them for good. The process that has it open
 * (the service, or a CLI command that writes) listens on a Unix socket next to the lock in
 * DATA_DIR; whoever connects gets the path of a consistent copy of the data directory, made for
 * it under DATA_DIR/snapshots (copyPglite), works on that copy and deletes it. Nothing the other
 * side sends is read: the socket has no way to change the database. Only the owner of DATA_DIR
 * may connect (0600).
 */

/** Unix socket paths are limited to about 104 bytes: past that, one under the temporary directory named by DATA_DIR's hash. */
const MAX_SOCKET_PATH = 100;

export function snapshotSocketPath(dataDir: string): string {
  const beside = path.resolve(dataDir, "pglite.sock");
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return beside;
  const hash = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 20);
  return path.join(tmpdir(), `ledger-${hash}.sock`);
}

export interface SnapshotServer {
  close(): Promise<void>;
}

/**
 * Answers every connection on `socketPath` with the path `take()` made the copy at, `ok <path>`,
 * or `error <message>`. Returns undefined where Unix sockets are not available (Windows) or
 * the socket cannot be made: read-only commands then refuse as before, naming the process.
 */
export async function serveSnapshots(socketPath: string, take: () => Promise<string>): Promise<SnapshotServer | undefined> {
  if (process.platform === "win32") return undefined;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    // Whatever the peer sends is ignored.
    socket.resume();
    take().then(
      (copy) => socket.end(`ok ${copy}\n`),
      (error: unknown) => socket.end(`error ${error instanceof Error ? error.message : String(error)}\n`.replace(/\n(?!$)/g, " ")),
    );
  });
  // The caller holds DATA_DIR's lock: a socket file there is a dead holder's.
  await rm(socketPath, { force: true });
  try {
    server.listen(socketPath);
    await once(server, "listening");
    await chmod(socketPath, 0o600);
  } catch {
    server.close();
    return undefined;
  }
  server.unref();
  return {
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

export class SnapshotUnavailableError extends Error {}

/** Asks the process serving `socketPath` for a snapshot; the path of the copy, now the caller's to delete. */
export async function requestSnapshot(socketPath: string): Promise<string> {
  const socket = createConnection(socketPath);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  try {
    await once(socket, "end");
  } catch (error) {
    throw new SnapshotUnavailableError(`no snapshot from ${socketPath}: ${(error as Error).message}`);
  } finally {
    socket.destroy();
  }
  const answer = Buffer.concat(chunks).toString("utf8").trimEnd();
  const ok = /^ok (.+)$/.exec(answer);
  if (!ok) throw new SnapshotUnavailableError(`no snapshot from ${socketPath}: ${answer.replace(/^error /, "") || "the connection closed"}`);
  return ok[1]!;
}
