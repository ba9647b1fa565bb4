#!/usr/bin/env node
// The `ledger` command (package.json "bin": `npx ledger <command>`). It runs the compiled CLI,
// dist/cli/ledger.js, which `npm run build` makes. Where that is missing, or older than a file of
// src/ (a fresh clone, an edit since the last build), it runs the sources through tsx instead:
// the same commands, slower to start.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = path.join(root, "dist", "cli", "ledger.js");
const sources = path.join(root, "src");

/** The newest modification time of the files under `dir`. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const hasSources = existsSync(sources);
const builtTime = existsSync(built) ? statSync(built).mtimeMs : undefined;
if (builtTime !== undefined && (!hasSources || newestUnder(sources) <= builtTime)) {
  await import(pathToFileURL(built).href);
} else if (hasSources) {
  if (builtTime !== undefined) process.stderr.write("ledger: dist/ is older than src/, so the sources run through tsx (npm run build makes it start fast again)\n");
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(sources, "cli", "ledger.ts")).href);
} else {
  process.stderr.write(`ledger: neither ${built} nor src/ is here: run npm run build\n`);
  process.exitCode = 2;
}
