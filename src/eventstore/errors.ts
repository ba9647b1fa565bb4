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

/**
 * The store refused the append for its size (EventStoreDB: over its maximum append size, 1 MiB
 * by default): nothing was written. Same class from every adapter that has such a limit.
 */
export class AppendTooLargeError extends Error {
  override readonly name = "AppendTooLargeError";
  constructor(
    readonly streamId: string,
    /** The store's limit, in bytes, when it says. */
    readonly maxAppendSize: number | undefined,
  ) {
    super(`Stream ${streamId}: the append is larger than the event store accepts${maxAppendSize ? ` (${maxAppendSize} bytes)` : ""}; nothing was written`);
  }
}

/**
 * The store cannot serve the call now: no leader (a failover), no answer within its deadline, or
 * the connection lost. The adapter has retried what was safe to retry; the caller may try again
 * later (the API answers 503 with `retry-after`). An append that fails so may have landed: the
 * caller's next command reads its stream first and decides on what is there.
 */
export class EventStoreUnavailableError extends Error {
  override readonly name = "EventStoreUnavailableError";
}
