// Runs an entry point of this package: its compiled JavaScript under dist/, which `npm run build`
// makes, or, where that is missing or older than a file of src/ (a fresh clone, an edit since the
// last build), its TypeScript sources through tsx: the same program, about a second slower to
// start. Used by `npx ledger` (bin/ledger.js) and `npm start` (bin/start.js).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const sources = path.join(root, "src");

/** The newest modification time of the files under `dir`. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const builtFile = (entry) => path.join(root, "dist", `${entry}.js`);

/** Whether `dist/<entry>.js` is there and no file of src/ is newer (or there is no src/). */
export function isBuiltCurrent(entry) {
  const built = builtFile(entry);
  return existsSync(built) && (!existsSync(sources) || newestUnder(sources) <= statSync(built).mtimeMs);
}

/**
 * Imports `dist/<entry>.js` when it is current, else `src/<entry>.ts` through tsx. `command` names
 * the caller in what it writes to stderr: a note when a stale dist/ is passed over, or why neither
 * can run (exit status 2).
 */
export async function runCompiledOrSources(command, entry) {
  const built = builtFile(entry);
  if (isBuiltCurrent(entry)) {
    // Stack traces in the log name the TypeScript files, as under tsx.
    process.setSourceMapsEnabled(true);
    await import(pathToFileURL(built).href);
  } else if (existsSync(sources)) {
    if (existsSync(built)) process.stderr.write(`${command}: dist/ is older than src/, so the sources run through tsx (npm run build makes it start faster again)\n`);
    const { register } = await import("tsx/esm/api");
    register();
    await import(pathToFileURL(path.join(sources, `${entry}.ts`)).href);
  } else {
    process.stderr.write(`${command}: neither ${built} nor src/ is here: run npm run build\n`);
    process.exitCode = 2;
  }
}
