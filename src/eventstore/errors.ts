import type { ExpectedRevision } from "./port.ts";

/** The stream was not at the revision the append expected. Same class from every adapter. */
export class ConcurrencyError extends Error {
  override readonly name = "ConcurrencyError";
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's last revision, or `no_stream` when it does not exist. */
    readonly actual: bigint | "no_stream",
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

/** Bad input to the event store: nothing was written. */
export class InvalidAppendError extends Error {
  override readonly name = "InvalidAppendError";
}
