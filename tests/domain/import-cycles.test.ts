import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// eslint's import/no-cycle leaves out type-only imports, and a cycle of types alone still ties
// modules together: so the imports are read here, `import type` and `export … from` included.

const domain = fileURLToPath(new URL("../../src/domain", import.meta.url));

/** Each module of src/domain, and the modules of src/domain it imports or re-exports. */
function importGraph(): Map<string, string[]> {
  const modules = readdirSync(domain, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.join(domain, file));
  return new Map(
    modules.map((module) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(module, "utf8"), true, true);
      const imported = importedFiles
        .map(({ fileName }) => fileName)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.resolve(path.dirname(module), specifier))
        .filter((target) => target.startsWith(domain + path.sep));
      return [module, imported];
    }),
  );
}

/** A cycle of imports, as its modules in order (the first again at the end), or undefined. */
function cycleIn(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (module: string): string[] | undefined => {
    const open = trail.indexOf(module);
    if (open >= 0) return [...trail.slice(open), module];
    if (done.has(module)) return undefined;
    trail.push(module);
    for (const imported of graph.get(module) ?? []) {
      const cycle = visit(imported);
      if (cycle) return cycle;
    }
    trail.pop();
    done.add(module);
    return undefined;
  };
  for (const module of graph.keys()) {
    const cycle = visit(module);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("src/domain", () => {
  const graph = importGraph();

  it("imports only modules that exist there, by their file name", () => {
    expect(graph.size).toBeGreaterThan(30);
    const unknown = [...graph.values()].flat().filter((target) => !graph.has(target));
    expect(unknown).toEqual([]);
  });

  it("has no cycle of imports, type-only imports included", () => {
    const cycle = cycleIn(graph)?.map((module) => path.relative(domain, module));
    expect(cycle).toBeUndefined();
  });
});
