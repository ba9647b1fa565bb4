import { readFileSync } from "node:fs";

/**
 * The release this service is: `version` of the repository's package.json, the one place it is
 * written. Read at start, from the sources (src/) and from the build (dist/) alike, both a folder
 * below it; the Docker image keeps package.json beside dist/. The OpenAPI document's
 * `info.version` and the traces' `service.version` are this; `npm run version:sync` copies it to
 * the client package.
 */
export const serviceVersion: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
