import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../logger.ts";
import { generateMasterKey, parseMasterKeys, type SecretBoxOptions } from "./secrets.ts";

/**
 * The master keys that encrypt credentials: from configuration (`SECRETS_MASTER_KEYS`), or, on
 * the embedded default, a key generated once into `DATA_DIR` (in memory for `memory://`), with
 * a warning: fine for trying the service, not for production.
 */
export async function loadMasterKeys(
  configured: string | undefined,
  dataDir: string,
  logger: Logger,
): Promise<SecretBoxOptions> {
  if (configured) return parseMasterKeys(configured);
  if (dataDir.startsWith("memory://")) {
    logger.warn("SECRETS_MASTER_KEYS is not set: credentials are encrypted with a key that lives only in memory");
    return parseMasterKeys(`generated:${generateMasterKey()}`);
  }
  const file = path.resolve(dataDir, "master-keys");
  try {
    return parseMasterKeys(await readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `generated:${generateMasterKey()}\n`, { mode: 0o600, flag: "wx" }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  logger.warn({ file }, "SECRETS_MASTER_KEYS is not set: generated a master key into DATA_DIR; set it in production");
  return parseMasterKeys(await readFile(file, "utf8"));
}
