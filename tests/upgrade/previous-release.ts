import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

const run = promisify(execFile);
const checkoutRoot = fileURLToPath(new URL("../..", import.meta.url));

const releasesSchema = z.object({
  releases: z
    .array(z.object({ version: z.string().regex(/^\d+\.\d+\.\d+$/), commit: z.string().regex(/^[0-9a-f]{40}$/), date: z.iso.date() }))
    .min(1),
});

export type Release = z.infer<typeof releasesSchema>["releases"][number];

/** releases.json, oldest first. */
export function recordedReleases(): Release[] {
  return releasesSchema.parse(JSON.parse(readFileSync(path.join(checkoutRoot, "releases.json"), "utf8"))).releases;
}

/** The newest recorded release: the one whose data this commit must start on. */
export function previousRelease(): Release {
  return recordedReleases().at(-1)!;
}

async function git(args: string[]): Promise<string> {
  const { stdout } = await run("git", args, { cwd: checkoutRoot });
  return stdout.trim();
}

/** Why the tree of `commit` cannot be had from here (an exported tree, a shallow clone), or undefined when it can. */
export async function unavailableBecause(commit: string): Promise<string | undefined> {
  try {
    await git(["rev-parse", "--git-dir"]);
  } catch {
    return "this checkout has no git history (an exported tree); run it in a clone";
  }
  try {
    await git(["cat-file", "-e", `${commit}^{commit}`]);
    return undefined;
  } catch {
    const shallow = (await git(["rev-parse", "--is-shallow-repository"])) === "true";
    return shallow
      ? `commit ${commit} is not in this shallow clone (git fetch --unshallow, or clone in full as CI does)`
      : `commit ${commit} is not in this repository`;
  }
}

/** The packages a lockfile installs, without the root package's own version. */
function installedPackages(lockfile: string): unknown {
  const { packages } = z.object({ packages: z.record(z.string(), z.unknown()) }).parse(JSON.parse(lockfile));
  const { "": _root, ...dependencies } = packages;
  return dependencies;
}

export interface ReleaseTree {
  dir: string;
  remove(): Promise<void>;
}

/**
 * The tree of `commit` in a temporary directory, ready to run: this checkout's node_modules when
 * the release installs the same packages, else its own `npm ci`.
 */
export async function checkOutRelease(commit: string): Promise<ReleaseTree> {
  const dir = await mkdtemp(path.join(tmpdir(), `ledger-release-${commit.slice(0, 10)}-`));
  const archive = `${dir}.tar`;
  try {
    await git(["archive", "--output", archive, commit]);
    await run("tar", ["-xf", archive, "-C", dir]);
    const theirs = await git(["show", `${commit}:package-lock.json`]);
    const ours = readFileSync(path.join(checkoutRoot, "package-lock.json"), "utf8");
    if (isDeepStrictEqual(installedPackages(theirs), installedPackages(ours))) {
      await symlink(await realpath(path.join(checkoutRoot, "node_modules")), path.join(dir, "node_modules"));
    } else {
      await run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(archive, { force: true });
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
