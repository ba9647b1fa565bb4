import type { TestService } from "../support/service.ts";

/** One sample of the Prometheus text format: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Every metric family the service registered, by its `# TYPE` line: printed even before its first sample. */
  families: Map<string, string>;
  samples: Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the text format; a line that is neither a comment nor a sample fails the test. */
export function parsePrometheusText(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const [, keyword, name, type] = line.split(" ");
      if (keyword === "TYPE" && name && type) families.set(name, type);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const [, name = "", labelText = "", value = ""] = match;
    const labels = Object.fromEntries([...labelText.matchAll(labelPair)].map(([, key = "", text = ""]) => [key, text]));
    samples.push({ name, labels, value: Number(value) });
  }
  return { families, samples };
}

/** The service's /metrics, parsed. */
export async function scrape(api: TestService): Promise<Scrape> {
  const response = await api.request("GET", "/metrics", { key: null });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return parsePrometheusText(response.text);
}

/**
 * The samples of one series name whose value is not 0, keyed by the values of `labelNames` joined
 * with `/`; every series must carry exactly those labels.
 */
export function nonZero(scraped: Scrape, name: string, labelNames: readonly string[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const sample of scraped.samples.filter((candidate) => candidate.name === name)) {
    if (Object.keys(sample.labels).sort().join() !== [...labelNames].sort().join()) {
      throw new Error(`${name} has labels ${JSON.stringify(sample.labels)}`);
    }
    if (sample.value !== 0) values[labelNames.map((label) => sample.labels[label]).join("/")] = sample.value;
  }
  return values;
}
