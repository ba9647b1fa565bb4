import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

const lockfile = z.object({ packages: z.record(z.string(), z.object({ hasInstallScript: z.boolean().optional() })) });
const manifest = z.object({ allowScripts: z.record(z.string(), z.boolean()).default({}) });

/** The package's name from its lockfile key: the part after the last node_modules/. */
const packageName = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

describe("npm install's policy for dependencies' install scripts", () => {
  // npm 11 skips the install scripts allowScripts does not name, and warns about each on every
  // install: naming every one, allowed or denied, keeps `npm install` quiet.
  it("names every dependency with an install script in package.json's allowScripts", () => {
    const { packages } = lockfile.parse(JSON.parse(read("package-lock.json")));
    const { allowScripts } = manifest.parse(JSON.parse(read("package.json")));
    const withScripts = Object.entries(packages).filter(([, entry]) => entry.hasInstallScript).map(([key]) => packageName(key));
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });
});
