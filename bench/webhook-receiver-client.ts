/**
 * The webhooks bench's side of its receiver: starts `webhook-receiver.ts` in a process of its own
 * (a real receiver is another host: it shares neither the service's event loop nor its heap) and
 * asks it, over the IPC channel, what arrived.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopProcess } from "../tests/support/process.ts";

/** Milliseconds since the epoch, fractional, on the clock both processes read. */
export const clock = () => performance.timeOrigin + performance.now();

/** What the receiver answers about one endpoint's path. */
export interface PathStats {
  requests: number;
  distinctIds: number;
  /** Requests beyond the first for a webhook-id. */
  duplicates: number;
  /** When the last request arrived (ms since the epoch, fractional); 0 before any. */
  lastArrival: number;
  /** Bodies that were not JSON or whose `id` was not the webhook-id header. */
  malformed: number;
  signaturesChecked: number;
  signaturesValid: number;
  signatureError: string | null;
  /** Transactions whose transaction.approved arrived before their transaction.pending, or without one. */
  approvedBeforePending: number;
  approvedWithoutPending: number;
}

/** Transaction id → [first arrival of its transaction.approved, its `createdAt`] (ms since the epoch). */
export type ApprovedArrivals = Record<string, [number, number]>;

export type ToReceiver =
  | { kind: "secret"; path: string; secret: string }
  | { kind: "stats"; id: number; path: string }
  | { kind: "approved"; id: number; path: string }
  | { kind: "arrivals"; id: number; path: string; requests: number[] };

export type FromReceiver = { kind: "ready"; port: number } | { kind: "answer"; id: number; value: unknown };

export interface Receiver {
  url: string;
  setSecret(path: string, secret: string): void;
  stats(path: string): Promise<PathStats>;
  approved(path: string): Promise<ApprovedArrivals>;
  /** When the path's n-th request arrived (1-based), for each n; null if it has not. */
  arrivals(path: string, requests: number[]): Promise<(number | null)[]>;
  stop(): Promise<void>;
}

/** The receiver (`webhook-receiver.ts`) in a process of its own, run as the tests run entries: node --import tsx. */
export async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("webhook-receiver.ts", import.meta.url))], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited: Error | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    child.on("exit", (code) => {
      exited = new Error(`the webhook receiver exited (code ${code})`);
      reject(exited);
      for (const { reject: fail } of waiting.values()) fail(exited);
      waiting.clear();
    });
    child.on("message", (message: FromReceiver) => {
      if (message.kind === "ready") return resolve(message.port);
      waiting.get(message.id)?.resolve(message.value);
      waiting.delete(message.id);
    });
  });
  const ask = <Answer>(question: { kind: "stats" | "approved"; path: string } | { kind: "arrivals"; path: string; requests: number[] }) =>
    new Promise<Answer>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...question, id } satisfies ToReceiver);
    });
  return {
    url: `http://127.0.0.1:${port}`,
    setSecret: (path, secret) => child.send({ kind: "secret", path, secret } satisfies ToReceiver),
    stats: (path) => ask<PathStats>({ kind: "stats", path }),
    approved: (path) => ask<ApprovedArrivals>({ kind: "approved", path }),
    arrivals: (path, requests) => ask<(number | null)[]>({ kind: "arrivals", path, requests }),
    stop: async () => {
      await stopProcess(child);
    },
  };
}
