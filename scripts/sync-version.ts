import { releaseVersion, syncVersionCopies } from "./version-copies.ts";

/** `npm run version:sync`: after `npm pkg set version=<next>`, copies the release's version where a package or a reader needs it. */
const version = releaseVersion();
const changed = syncVersionCopies(version);
process.stdout.write(changed.length === 0 ? `every copy already says ${version}\n` : `${version} written to ${changed.join(", ")}\n`);
