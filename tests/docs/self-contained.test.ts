import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Every file of the checkout: tracked, or new and not ignored (so a file not yet added counts too). */
function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
}

const markdownFiles = () => repositoryFiles().filter((file) => file === "README.md" || (file.startsWith("docs/") && file.endsWith(".md")));

/** Markdown without its fenced blocks and code spans: what is left is prose, headings and links. */
const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative targets of inline links and images, and of reference definitions. */
function relativeLinksOf(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!);
  return [...inline, ...references].filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe("the repository's documentation stands alone", () => {
  it("no file names a path outside the repository (the shared folder beside a checkout)", () => {
    // Built from parts, so this file does not name them itself.
    const outside = [["..", "shared"].join("/"), ["", "work", "shared"].join("/")];
    const naming = repositoryFiles().flatMap((file) => {
      const text = readFileSync(path.join(root, file), "latin1");
      return outside.filter((needle) => text.includes(needle)).map((needle) => `${file}: ${needle}`);
    });
    expect(naming).toEqual([]);
  });

  it("README.md and docs/ are there, with the API reference, the architecture and the CLI", () => {
    expect(markdownFiles()).toEqual(expect.arrayContaining(["README.md", "docs/api.md", "docs/architecture.md", "docs/cli.md"]));
  });

  it("every relative link in README.md and docs/ reaches a file of the repository, and a heading when it names one", () => {
    const files = new Set(repositoryFiles());
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const markdown = readFileSync(path.join(root, file), "utf8");
      for (const link of relativeLinksOf(markdown)) {
        const [target = "", anchor] = link.split("#");
        const resolved = target === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
        if (resolved.startsWith("../") || !files.has(resolved)) {
          broken.push(`${file}: ${link} (no file ${resolved} in the repository)`);
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(path.join(root, resolved), "utf8")).has(anchor)) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("finds the links it checks: inline, images, references and anchors, but none inside code", () => {
    const sample = [
      "See [the API](docs/api.md#errors), ![shot](docs/shot.png) and [ref].",
      "",
      "[ref]: ../outside.md",
      "",
      "```sh",
      "echo [not a link](nowhere.md)",
      "```",
      "`[nor this](nowhere.md)` and [a site](https://example.com).",
    ].join("\n");
    expect(relativeLinksOf(sample)).toEqual(["docs/api.md#errors", "docs/shot.png", "../outside.md"]);
    expect([...anchorsOf("# Outside `/v1`\n## Clients, keys and limits\n## Errors\n## Errors\n```\n# not a heading\n```")]).toEqual([
      "outside-v1",
      "clients-keys-and-limits",
      "errors",
      "errors-1",
    ]);
  });
});
