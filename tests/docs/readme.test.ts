import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = () => readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** README's lines, as an editor counts them: a last line break ends the last line, it does not start another. */
const lineCount = (text: string) => text.replace(/\n$/, "").split("\n").length;

describe("README.md", () => {
  it("is at most 300 lines: what it is, the two commands, the walkthrough and a map of docs/; the rest lives in docs/", () => {
    expect(lineCount(readme())).toBeLessThanOrEqual(300);
  });

  it("maps every page of docs/", () => {
    const pages = readdirSync(new URL("../../docs/", import.meta.url)).filter((file) => file.endsWith(".md"));
    const text = readme();
    expect(pages.filter((page) => !text.includes(`](docs/${page})`))).toEqual([]);
  });

  it("counts lines as an editor does", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });
});
