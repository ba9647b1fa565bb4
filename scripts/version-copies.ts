import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The release's version is written in one place, `version` of the repository's package.json. The
 * service reads it at start (src/version.ts: OpenAPI `info.version`, the traces' `service.version`);
 * the files below hold copies that a package or a reader needs as text, and `npm run version:sync`
 * writes them. tests/release/version.test.ts fails while one differs.
 */
const root = fileURLToPath(new URL("..", import.meta.url));

type Json = Record<string, unknown>;
const object = (value: unknown): Json => value as Json;

interface Copy {
  file: string;
  /** Where in the file, for a message. */
  where: string;
  read(text: string): string | undefined;
  write(text: string, version: string): string;
}

/** A copy inside a JSON file, at `at(document)`'s `version`; the file is written back as npm writes it. */
function jsonCopy(file: string, where: string, at: (document: Json) => Json | undefined): Copy {
  return {
    file,
    where,
    read: (text) => at(object(JSON.parse(text)))?.version as string | undefined,
    write(text, version) {
      const document = object(JSON.parse(text));
      const holder = at(document);
      if (holder === undefined) throw new Error(`${file}: no ${where}`);
      holder.version = version;
      return `${JSON.stringify(document, null, 2)}\n`;
    },
  };
}

const packages = (document: Json) => object(document.packages);
const tarball = /payment-ledger-client-(\d+\.\d+\.\d+)\.tgz/g;

const copies: readonly Copy[] = [
  jsonCopy("packages/client/package.json", "version", (document) => document),
  jsonCopy("package-lock.json", "version", (document) => document),
  jsonCopy("package-lock.json", 'packages[""].version', (document) => object(packages(document)[""])),
  jsonCopy("package-lock.json", 'packages["packages/client"].version', (document) => object(packages(document)["packages/client"])),
  jsonCopy("packages/client/openapi.json", "info.version", (document) => object(document.info)),
  {
    file: "packages/client/README.md",
    where: "the tarball's name",
    read(text) {
      const found = [...new Set([...text.matchAll(tarball)].map((match) => match[1]))];
      return found.length === 0 ? undefined : found.join(" and ");
    },
    write: (text, version) => text.replace(tarball, `payment-ledger-client-${version}.tgz`),
  },
];

const readText = (file: string) => readFileSync(path.join(root, file), "utf8");

/** `version` of the repository's package.json: the release. */
export function releaseVersion(): string {
  return (JSON.parse(readText("package.json")) as { version: string }).version;
}

/** Every copy that differs from the release's version, as `<file> <where>: <found>`. */
export function staleVersionCopies(version = releaseVersion()): string[] {
  return copies.flatMap((copy) => {
    const found = copy.read(readText(copy.file));
    return found === version ? [] : [`${copy.file} ${copy.where}: ${found ?? "missing"}, not ${version}`];
  });
}

/** Writes the release's version into every copy; answers the files it changed. */
export function syncVersionCopies(version = releaseVersion()): string[] {
  const changed = new Set<string>();
  for (const copy of copies) {
    const text = readText(copy.file);
    if (copy.read(text) === version) continue;
    writeFileSync(path.join(root, copy.file), copy.write(text, version));
    changed.add(copy.file);
  }
  return [...changed];
}
