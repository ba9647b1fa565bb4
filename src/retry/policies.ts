/**
 * Every retry and poll of the service, named by what it waits for: its bound, its pauses, and the
 * failures it waits out. docs/architecture.md ("Retries") has them as a table.
 */
import { ConcurrencyError } from "../eventstore/errors.ts";
import { isTransientError } from "../eventstore/eventstoredb/codec.ts";
import { doubling, jittered, type PollPolicy, type RetryPolicy } from "./retry.ts";

/**
 * A command's stream written by another writer between its read and its append (`execute`): read,
 * decide and append again, at once after the first conflict, then after a jittered pause.
 */
export const streamRevisionConflict = {
  waitsFor: "a stream revision conflict to clear",
  maxAttempts: 5,
  pauseMs: (failures) => (failures === 1 ? 0 : jittered(failures)),
  retries: (error) => error instanceof ConcurrencyError,
} satisfies RetryPolicy;

/**
 * A settlement claim held by a stale batch, which the claimant finished (releasing the claim):
 * the claim is read and taken again at once. A third stale holder in a row answers busy.
 */
export const settlementClaimTakeover = {
  waitsFor: "a stale settlement batch, finished, to let go of its host configuration's claim",
  maxAttempts: 3,
  pauseMs: () => 0,
  retries: (error) => error instanceof Error && error.name === "StaleHolderFinished",
} satisfies RetryPolicy;

/**
 * A hot stream's batch (GroupCommits) written by another process: within a process its appends
 * never conflict, so each conflict is another process's append landing, progress made. A command
 * that fits must not fail because others raced it, so the bound is far beyond any real race:
 * racing processes each take a turn, and losing 1,000 in a row (over 10 s of jittered pauses) is
 * a writer spinning, not contention.
 */
export const hotStreamRevisionConflict = {
  waitsFor: "other processes' appends to a hot stream to land",
  maxAttempts: 1_000,
  pauseMs: jittered,
  retries: (error) => error instanceof ConcurrencyError,
} satisfies RetryPolicy;

/**
 * A processor's answer, a fact that already happened, met a failing store: tried again for a
 * while; the caller leaves the transaction pending for the resolver after.
 */
export const storeRecoveryForAnOutcome = {
  waitsFor: "the store to take a processor's answer",
  withinMs: 15_000,
  pauseMs: doubling(50, 1_000),
  retries: (_failure: unknown) => true,
} satisfies RetryPolicy;

/**
 * An EventStoreDB call met a transient failure (no leader, a dropped connection, a deadline): a
 * cluster elects a new leader within a few seconds, and the call goes through at most 250 ms
 * after it has one; the bound covers an election that does not come.
 */
export const eventStoreLeaderElection = {
  waitsFor: "EventStoreDB to elect a leader and serve again",
  withinMs: 10_000,
  pauseMs: doubling(50, 250),
  retries: isTransientError,
} satisfies RetryPolicy;

/**
 * At a start, EventStoreDB's first answer: a node still starting refuses for a while. Bounded as
 * a PostgreSQL connection's timeout is, so a wrong URL or a stopped server ends the start.
 */
export const eventStoreFirstAnswer = {
  waitsFor: "EventStoreDB to answer a first read at start",
  withinMs: 5_000,
  pauseMs: doubling(100, 250),
  retries: isTransientError,
} satisfies RetryPolicy;

/**
 * A read that follows its own write, polling the read model while no runner of this service
 * says when the projection applied it; after the bound the read goes on (the write is durable).
 */
export const projectionCatchUp = {
  waitsFor: "a projection to apply a write",
  withinMs: 5_000,
  pauseMs: doubling(50, 250),
} satisfies PollPolicy;

/**
 * A reader that must see everything the log held when it began (a settlement's candidates, the
 * journal), until the projection has applied it all: for the caller's `withinMs`.
 */
export const projectionReachingHead = (withinMs: number): PollPolicy => ({
  waitsFor: "a projection to apply the log up to its head",
  withinMs,
  pauseMs: () => 50,
});

/**
 * `ledger verify`'s comparison, until the live read model stands where the replay stands (its last
 * applied event the replay's): a look at once, then one every 200 ms, the replay caught up again
 * before each; for the caller's `withinMs` (what is left of `--settle-seconds`).
 */
export const readModelReachingReplay = (withinMs: number): PollPolicy => ({
  waitsFor: "the live read model to stand where the replay of the log stands",
  withinMs,
  pauseMs: (looks) => (looks === 1 ? 0 : 200),
});

/**
 * A process lock file whose process has died, removed: taken again at once. A second refusal is
 * another process that took it in between, thrown as it is.
 */
export const deadProcessLockTakeover = {
  waitsFor: "a lock file a dead process left, removed, to be taken",
  maxAttempts: 2,
  pauseMs: (_failures: number) => 0,
  retries: (error) => error instanceof Error && "code" in error && error.code === "EEXIST",
} satisfies RetryPolicy;

/**
 * An idempotency record's write (an answer stored, a claim released) that a database fault of the
 * moment (a dropped connection, a restart) broke: tried again for about 1.5 s, so the key is not
 * left blocked for the claim's whole lock.
 */
export const idempotencyRecordWrite = {
  waitsFor: "the database to take an idempotency record's write",
  maxAttempts: 6,
  pauseMs: doubling(50, 800),
  retries: (_failure: unknown) => true,
} satisfies RetryPolicy;

/**
 * A payment method's deletion, until the payments that may have read its key are no longer
 * pending: what is left of one processor timeout and a margin (`withinMs`, see `paymentsEnded`).
 */
export const cardPaymentsEnding = (withinMs: number): PollPolicy => ({
  waitsFor: "payments with a card being deleted to have their processor calls answered",
  withinMs,
  pauseMs: () => 20,
});
