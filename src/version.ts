import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The release this service is: `version` of the repository's package.json, the one place it is
 * written. Read at start from the package.json nearest above this module, as Node finds a
 * package's: the repository's for the sources (src/) and for a build (dist/, or a build folder
 * inside the checkout), /app/package.json in the Docker image. The OpenAPI document's
 * `info.version` and the traces' `service.version` are this; `npm run version:sync` copies it to
 * the client package.
 */
export const serviceVersion: string = nearestPackageVersion(fileURLToPath(import.meta.url));

function nearestPackageVersion(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}
