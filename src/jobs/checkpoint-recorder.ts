import type { CheckpointConfig } from "../audit/checkpoint-config.ts";
import { loadCheckpointSigner, publishCheckpointKey } from "../audit/checkpoint-keys.ts";
import { type RecordCheckpointsOptions, recordCheckpoints } from "../audit/checkpoints.ts";
import type { Logger } from "../logger.ts";
import { Periodic } from "./periodic.ts";

/** How often, as a share of the interval, an instance looks whether a checkpoint is due. */
const LOOKS_PER_INTERVAL = 10;

/**
 * Records a checkpoint of the changed chain heads every CHECKPOINT_INTERVAL_SECONDS. Every
 * instance looks a few times an interval; the checkpoint stream's expected revision lets one of
 * them record it, so checkpoints come one per interval (at most a tenth late) however many run.
 */
export class CheckpointRecorder {
  readonly #periodic: Periodic;

  constructor(options: RecordCheckpointsOptions & { logger: Logger }) {
    this.#periodic = new Periodic({
      intervalMs: Math.max(1_000, Math.floor(options.intervalMs / LOOKS_PER_INTERVAL)),
      logger: options.logger,
      failure: "recording a chain checkpoint failed; trying again later",
      pass: async () => {
        const recorded = await recordCheckpoints(options);
        if (recorded > 0) options.logger.info({ checkpoints: recorded }, "recorded chain checkpoints");
      },
    });
  }

  start(): void {
    this.#periodic.start();
  }

  stop(): Promise<void> {
    return this.#periodic.stop();
  }
}

/**
 * With checkpoints configured: loads the signing key (refusing the start when it is not an
 * Ed25519 private key), publishes its public key, and starts recording.
 */
export async function startCheckpointRecorder(
  config: CheckpointConfig,
  options: Omit<RecordCheckpointsOptions, "signer" | "intervalMs"> & { logger: Logger },
): Promise<CheckpointRecorder | undefined> {
  if (!config) return undefined;
  const signer = await loadCheckpointSigner(config.signingKey);
  await publishCheckpointKey(options.store, signer);
  const recorder = new CheckpointRecorder({ ...options, signer, intervalMs: config.intervalMs });
  recorder.start();
  options.logger.info({ keyId: signer.keyId, intervalSeconds: config.intervalMs / 1000 }, "recording signed chain checkpoints");
  return recorder;
}
