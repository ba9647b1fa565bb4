import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../logger.ts";

/**
 * A secret the operator did not configure: generated once into `DATA_DIR/<name>` (kept only in
 * memory for `memory://`), with a warning, so the embedded default works out of the box.
 */
export async function generatedSecret(
  dataDir: string,
  name: string,
  generate: () => string,
  logger: Logger,
): Promise<string> {
  if (dataDir.startsWith("memory://")) {
    logger.warn({ secret: name }, "not configured: generated one that lives only in memory");
    return generate();
  }
  const file = path.resolve(dataDir, name);
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${generate()}\n`, { mode: 0o600, flag: "wx" }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  logger.warn({ secret: name, file }, "not configured: generated one into DATA_DIR; configure it in production");
  return (await readFile(file, "utf8")).trim();
}
