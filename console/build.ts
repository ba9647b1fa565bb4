import { randomBytes } from "node:crypto";
import { readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Builds the console into console/dist (`tsx console/build.ts`), or only when the build is missing
 * or older than its sources (`--if-stale`: `npm start` and the browser tests, so a fresh clone
 * serves a working console and an unchanged one costs a few file stats).
 */

const consoleDir = fileURLToPath(new URL(".", import.meta.url));
export const distDir = join(consoleDir, "dist");
const sources = [
  join(consoleDir, "src"),
  join(consoleDir, "index.html"),
  join(consoleDir, "vite.config.ts"),
  // The currency exponents are baked in from the domain's table.
  fileURLToPath(new URL("../src/domain/money.ts", import.meta.url)),
];

function newestModification(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestModification(join(path, entry))));
}

export function isBuildFresh(): boolean {
  try {
    return statSync(join(distDir, "index.html")).mtimeMs >= Math.max(...sources.map(newestModification));
  } catch {
    return false;
  }
}

/**
 * Builds into a directory of its own, then swaps it in: a service serving the old build, or a
 * second build running at the same time, never sees a half-written one.
 */
export async function buildConsole(): Promise<void> {
  const staging = join(consoleDir, `.dist-${randomBytes(4).toString("hex")}`);
  const retired = `${staging}-old`;
  // Loaded only to build: a fresh build costs no bundler start.
  const { build } = await import("vite");
  try {
    await build({ configFile: join(consoleDir, "vite.config.ts"), build: { outDir: staging } });
    try {
      renameSync(distDir, retired);
    } catch {
      // No build before this one.
    }
    renameSync(staging, distDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(retired, { recursive: true, force: true });
  }
}

export async function ensureConsoleBuilt(): Promise<void> {
  if (!isBuildFresh()) await buildConsole();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await (process.argv.includes("--if-stale") ? ensureConsoleBuilt() : buildConsole());
}
