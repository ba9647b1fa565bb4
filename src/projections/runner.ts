import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Checkpoint, EventStore, ReadAllResult } from "../eventstore/port.ts";
import type { Logger } from "../logger.ts";
import { acquireLease, advanceCheckpoint, readCheckpoint, releaseLease, renewLease } from "./checkpoints.ts";
import { assertProjectionName, type Projection, readStreamsFor } from "./projection.ts";
import type { ReadYourWrites } from "./read-your-writes.ts";
import type { Tracer } from "@opentelemetry/api";
import { inSpan, linksToRecorded } from "../telemetry/spans.ts";
import { tracingOff } from "../telemetry/tracing.ts";

/**
 * How often, at most, a batch that applies nothing is committed. Such a batch only moves the
 * checkpoint past events of other types: EventStoreDB sends one every 32 records its filter
 * scanned, dozens a second per projection under load, and each would cost a transaction. Left
 * unwritten, a restart scans those few records again and applies nothing from them.
 */
const SKIPPED_RECORDS_CHECKPOINT_MS = 1_000;

export interface ProjectionRunnerOptions {
  db: Kysely<Database>;
  store: EventStore;
  projection: Projection;
  logger: Logger;
  /** The service's registry its requests wait on: told what this runner applies. */
  readYourWrites: ReadYourWrites;
  /** Identifies this process in the lease; random by default. */
  owner?: string;
  /** How long a lease lasts without renewal: a dead runner's successor waits at most this long. */
  leaseMs?: number;
  batchSize?: number;
  /** Delay after a failed batch before retrying from the stored checkpoint. */
  retryDelayMs?: number;
  /** A span per batch applied, linked to the traces that appended its events. */
  tracer?: Tracer;
}

/**
 * Keeps one projection up to date. Across processes, only the holder of the projection's lease
 * applies events; the others wait and take over when the lease expires. Each batch's rows and
 * its checkpoint are written in one transaction, so a crash resumes exactly where it stopped.
 */
export class ProjectionRunner {
  readonly projection: Projection;
  readonly owner: string;
  readonly #options: Required<Omit<ProjectionRunnerOptions, "owner" | "projection">>;
  readonly #stopping = new AbortController();
  #running: Promise<void> | undefined;
  #active = false;

  constructor(options: ProjectionRunnerOptions) {
    assertProjectionName(options.projection.name);
    this.projection = options.projection;
    this.owner = options.owner ?? randomUUID();
    this.#options = { leaseMs: 10_000, batchSize: 500, retryDelayMs: 1_000, tracer: tracingOff.tracer, ...options };
  }

  /** True while this runner holds the lease and applies events. */
  get active(): boolean {
    return this.#active;
  }

  start(): void {
    this.#running ??= this.#run();
  }

  /** Stops after the batch in flight and hands the lease back so another process can take over. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
    await releaseLease(this.#options.db, this.projection.name, this.owner).catch(() => {});
  }

  async #run(): Promise<void> {
    const { db, leaseMs, retryDelayMs, logger, readYourWrites } = this.#options;
    const name = this.projection.name;
    const stopping = this.#stopping.signal;
    while (!stopping.aborted) {
      try {
        if (await acquireLease(db, name, this.owner, leaseMs)) {
          this.#active = true;
          readYourWrites.announceLeading(name, true);
          logger.info({ projection: name, owner: this.owner }, "projection lease acquired");
          await this.#lead();
        }
      } catch (error) {
        logger.error({ err: error, projection: name }, "projection runner failed; retrying from its checkpoint");
        await sleep(retryDelayMs, undefined, { signal: stopping }).catch(() => {});
        continue;
      } finally {
        if (this.#active) readYourWrites.announceLeading(name, false);
        this.#active = false;
      }
      await sleep(leaseMs / 3, undefined, { signal: stopping }).catch(() => {});
    }
  }

  /** Applies batches while the lease is ours; returns when it is lost or the runner stops. */
  async #lead(): Promise<void> {
    const { db, store, leaseMs, batchSize, logger, readYourWrites } = this.#options;
    const name = this.projection.name;
    const term = new AbortController();
    const stop = () => term.abort();
    this.#stopping.signal.addEventListener("abort", stop);
    // A stop that came while the lease was being taken has already fired its abort event.
    if (this.#stopping.signal.aborted) stop();
    const renewal = setInterval(() => {
      renewLease(db, name, this.owner, leaseMs).then(
        (renewed) => renewed || term.abort(),
        () => term.abort(),
      );
    }, leaseMs / 3);
    try {
      let checkpoint = (await readCheckpoint(db, name)).checkpoint;
      const batches = store.subscribe({
        after: checkpoint,
        batchSize,
        types: this.projection.eventTypes,
        signal: term.signal,
        awaited: (signal) => readYourWrites.projectionAwaited(name, signal),
      });
      let committedAt = performance.now();
      for await (const batch of batches) {
        if (batch.events.length === 0 && performance.now() - committedAt < SKIPPED_RECORDS_CHECKPOINT_MS) continue;
        if (!(await this.#tracedCommit(checkpoint, batch))) {
          logger.warn({ projection: name }, "projection checkpoint moved under this runner; reloading");
          return;
        }
        committedAt = performance.now();
        readYourWrites.announceApplied(name, batch.events);
        checkpoint = batch.checkpoint;
      }
    } finally {
      clearInterval(renewal);
      this.#stopping.signal.removeEventListener("abort", stop);
    }
  }

  /** Batches that apply nothing (a checkpoint moved past other events) make no span. */
  #tracedCommit(previous: Checkpoint | null, batch: ReadAllResult): Promise<boolean> {
    if (batch.events.length === 0) return this.#commit(previous, batch);
    const options = {
      root: true,
      links: linksToRecorded(batch.events.map((event) => event.metadata)),
      attributes: { "ledger.projection": this.projection.name, "ledger.events": batch.events.length },
    };
    return inSpan(this.#options.tracer, `project ${this.projection.name}`, options, async (span) => {
      const applied = await this.#commit(previous, batch);
      if (!applied) span.setAttribute("ledger.checkpoint_moved", true);
      return applied;
    });
  }

  async #commit(previous: Checkpoint | null, batch: ReadAllResult): Promise<boolean> {
    const { db, store, leaseMs } = this.#options;
    const streams = await readStreamsFor(this.projection, db, store, batch.events);
    return db.transaction().execute(async (trx) => {
      // The read model can always be replayed from the log: a batch lost with the server's last
      // unflushed commits (rows and checkpoint together) is simply applied again.
      await sql`set local synchronous_commit = off`.execute(trx);
      if (!(await advanceCheckpoint(trx, this.projection.name, this.owner, leaseMs, previous, batch))) return false;
      if (batch.events.length > 0) await this.projection.apply(trx, batch.events, streams);
      return true;
    });
  }
}
