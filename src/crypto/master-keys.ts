import type { Secret } from "../domain/secret.ts";
import type { Logger } from "../logger.ts";
import { generatedSecret } from "./generated-secret.ts";
import { generateMasterKey, parseMasterKeys, type SecretBoxOptions } from "./secrets.ts";

/** The master keys that encrypt credentials: `SECRETS_MASTER_KEYS`, or one generated once. */
export async function loadMasterKeys(
  configured: Secret<string> | undefined,
  dataDir: string,
  logger: Logger,
): Promise<SecretBoxOptions> {
  const spec = configured?.expose() ?? (await generatedSecret(dataDir, "master-keys", () => `generated:${generateMasterKey()}`, logger));
  return parseMasterKeys(spec);
}
