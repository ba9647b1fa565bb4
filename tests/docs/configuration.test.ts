import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { secretVariables } from "../../src/config-secrets.ts";
import { environmentSchema, simulatorEnvironmentSchema } from "../../src/config.ts";

const documentation = () => readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");

/** Every variable the service or `npm run simulator` reads, and what each is when unset. */
function schemaVariables(): Map<string, unknown> {
  const variables = new Map<string, unknown>();
  for (const schema of [environmentSchema, simulatorEnvironmentSchema]) {
    for (const [name, type] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const unset = type.safeParse(undefined);
      variables.set(name, unset.success ? unset.data : undefined);
    }
  }
  // Each secret may come from a file instead (src/config-secrets.ts), read before the schema.
  for (const name of secretVariables) variables.set(`${name}_FILE`, undefined);
  return variables;
}

/** The rows of the page's tables whose first cell is one variable: its name and its default cell. */
function documentedVariables(markdown: string): Map<string, string> {
  const rows = [...markdown.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|(.*)\|\s*$/gm)];
  const documented = new Map<string, string>();
  for (const [, name, rest] of rows) {
    if (documented.has(name!)) throw new Error(`docs/configuration.md documents ${name} twice`);
    documented.set(name!, rest!.split("|").at(-1)!.trim());
  }
  return documented;
}

describe("docs/configuration.md", () => {
  it("documents every variable of the configuration schema, and none that the schema does not read", () => {
    const known = [...schemaVariables().keys()].sort();
    const documented = [...documentedVariables(documentation()).keys()].sort();
    expect(known.filter((name) => !documented.includes(name)), "read but not documented").toEqual([]);
    expect(documented.filter((name) => !known.includes(name)), "documented but not read").toEqual([]);
  });

  it("gives each variable the default the schema gives it", () => {
    const documented = documentedVariables(documentation());
    const wrong = [...schemaVariables()].flatMap(([name, unset]) => {
      const cell = documented.get(name);
      if (cell === undefined || unset === undefined || unset === "") return [];
      return cell.includes(`\`${String(unset)}\``) ? [] : [`${name}: the schema's default is ${String(unset)}, the page says ${cell}`];
    });
    expect(wrong).toEqual([]);
  });

  it("reads a table row's variable and its default cell, and nothing else", () => {
    const sample = ["| variable | meaning | default |", "|---|---|---|", "| `PORT` | where `HOST` listens | `3000` |", "`NOT_A_ROW`", "| `a_b` | lower case | x |"].join("\n");
    expect([...documentedVariables(sample)]).toEqual([["PORT", "`3000`"]]);
  });
});
