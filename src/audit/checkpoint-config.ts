import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/** The variables of anchoring (README, Auditing). */
export const checkpointEnvironment = {
  CHECKPOINT_INTERVAL_SECONDS: optionalText.pipe(z.coerce.number<string>().int().min(1).max(86_400).optional()),
  /** An Ed25519 private key, PEM (PKCS#8); `\n` may stand for the line breaks. */
  CHECKPOINT_SIGNING_KEY: optionalText,
  CHECKPOINT_SIGNING_KEY_FILE: optionalText,
};

type CheckpointEnvironment = z.output<z.ZodObject<typeof checkpointEnvironment>>;

/** Where the signing key comes from; never logged. */
export type SigningKeySource = { pem: string } | { file: string };

/** Off unless an interval is set, and then a signing key must be. */
export type CheckpointConfig = { intervalMs: number; signingKey: SigningKeySource } | undefined;

export function checkpointConfigOf(env: CheckpointEnvironment): CheckpointConfig {
  const pem = env.CHECKPOINT_SIGNING_KEY;
  const file = env.CHECKPOINT_SIGNING_KEY_FILE;
  if (pem !== undefined && file !== undefined) {
    throw new Error("Invalid configuration: set CHECKPOINT_SIGNING_KEY or CHECKPOINT_SIGNING_KEY_FILE, not both");
  }
  if (env.CHECKPOINT_INTERVAL_SECONDS === undefined) return undefined;
  if (pem === undefined && file === undefined) {
    throw new Error("Invalid configuration: CHECKPOINT_INTERVAL_SECONDS needs CHECKPOINT_SIGNING_KEY or CHECKPOINT_SIGNING_KEY_FILE");
  }
  return {
    intervalMs: env.CHECKPOINT_INTERVAL_SECONDS * 1000,
    signingKey: pem !== undefined ? { pem: pem.replaceAll("\\n", "\n") } : { file: file! },
  };
}
