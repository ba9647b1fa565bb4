import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { releaseVersion, staleVersionCopies } from "../../scripts/version-copies.ts";
import { buildApiDocument } from "../../src/api/openapi/document.ts";
import { serviceVersion } from "../../src/version.ts";

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

/** The versions of CHANGELOG.md's entries, newest first: `## [x.y.z] - <date or unreleased>`. */
const changelogVersions = (changelog: string) => [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (?:\d{4}-\d{2}-\d{2}|unreleased)$/gm)].map((match) => match[1]);

describe("one version: package.json's", () => {
  const version = releaseVersion();

  it("is what the service and its OpenAPI document say", async () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(serviceVersion).toBe(version);
    expect((await buildApiDocument()).info.version).toBe(version);
  });

  it("is every copy's: the client package, package-lock.json, the client's openapi.json and README (npm run version:sync writes them)", () => {
    expect(staleVersionCopies(version)).toEqual([]);
  });

  it("is CHANGELOG.md's newest entry, and releases.json names it as the next release, after every recorded one", () => {
    const changelog = read("CHANGELOG.md");
    expect(changelog).toMatch(/keepachangelog\.com/);
    const entries = changelogVersions(changelog);
    expect(entries[0]).toBe(version);
    const { next, releases } = JSON.parse(read("releases.json")) as { next: { version: string }; releases: { version: string }[] };
    expect(next.version).toBe(version);
    // Every recorded release has its entry, and none is the next one.
    expect(entries).toEqual(expect.arrayContaining(releases.map((release) => release.version)));
    expect(releases.map((release) => release.version)).not.toContain(version);
  });

  it("reads CHANGELOG.md's entries and nothing else as versions", () => {
    expect(changelogVersions("# Changelog\n## [1.2.0] - unreleased\n### Added\n## [1.1.0] - 2026-01-02\n## [Unreleased]\n")).toEqual(["1.2.0", "1.1.0"]);
  });
});
