import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadConfig } from "../../src/config.ts";
import { startTestService, type TestService } from "../support/service.ts";

// No Docker engine runs the tests, so what is checked is that the files agree with each other and
// with the service: what Grafana and Prometheus would find where they look.

const root = fileURLToPath(new URL("../..", import.meta.url));

const composeSchema = z.object({
  services: z.record(
    z.string(),
    z.object({
      image: z.string().optional(),
      environment: z.record(z.string(), z.string()).optional(),
      volumes: z.array(z.string()).default([]),
      ports: z.array(z.string()).default([]),
      extra_hosts: z.array(z.string()).default([]),
    }),
  ),
});
const prometheusSchema = z.object({
  scrape_configs: z.array(
    z.object({ job_name: z.string(), metrics_path: z.string(), static_configs: z.array(z.object({ targets: z.array(z.string()) })) }),
  ),
});
const datasourcesSchema = z.object({ datasources: z.array(z.object({ type: z.string(), url: z.string(), isDefault: z.boolean() })) });
const dashboardProvidersSchema = z.object({ providers: z.array(z.object({ type: z.literal("file"), options: z.object({ path: z.string() }) })) });

function readYaml<T>(file: string, schema: z.ZodType<T>): T {
  return schema.parse(parse(readFileSync(file, "utf8")));
}

/** A compose volume `source:target[:mode]`, its source resolved as compose does: against the compose file's folder. */
function mounts(composeFile: string, volumes: string[]): { source: string; target: string }[] {
  return volumes.map((volume) => {
    const [source, target] = volume.split(":") as [string, string];
    return { source: path.resolve(path.dirname(composeFile), source), target };
  });
}

/** The host file mounted at `target` in a service; fails when none is, or when the file is missing. */
function sourceMountedAt(composeFile: string, volumes: string[], target: string): string {
  const mount = mounts(composeFile, volumes).find((each) => each.target === target);
  expect(mount, `${path.relative(root, composeFile)} mounts nothing at ${target}`).toBeDefined();
  expect(existsSync(mount!.source), mount!.source).toBe(true);
  return mount!.source;
}

type Compose = z.infer<typeof composeSchema>;

/** The one service of a compose file that runs `image` (any tag), with its name. */
function serviceOfImage(compose: Compose, image: string): [string, Compose["services"][string]] {
  const found = Object.entries(compose.services).filter(([, service]) => service.image?.startsWith(`${image}:`));
  if (found.length !== 1) throw new Error(`expected one service running ${image}, found ${found.length}`);
  return found[0]!;
}

/** Grafana's default provisioning folder, where the images look for data sources and dashboard providers. */
const grafanaProvisioning = "/etc/grafana/provisioning";
const prometheusConfig = "/etc/prometheus/prometheus.yml";
const prometheusPort = "9090";
const dashboardFile = path.join(root, "ops/grafana/payment-ledger.json");

const setups = [
  {
    name: "compose.yaml: everything in Docker",
    composeFile: path.join(root, "compose.yaml"),
    // The ledger service of the same file, on the port its environment gives it.
    scrapeTarget: (compose: Compose) => `ledger:${compose.services.ledger?.environment?.PORT}`,
  },
  {
    name: "ops/compose.metrics.yaml: the service of `npm start` on the host",
    composeFile: path.join(root, "ops/compose.metrics.yaml"),
    // `npm start` without PORT, reached through Docker's gateway.
    scrapeTarget: () => `host.docker.internal:${loadConfig({}).port}`,
  },
];

describe("the compose files with Prometheus and Grafana", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService("pglite");
  });
  afterAll(() => api.stop());

  for (const setup of setups) {
    describe(setup.name, () => {
      const compose = readYaml(setup.composeFile, composeSchema);
      const [prometheusName, prometheus] = serviceOfImage(compose, "prom/prometheus");
      const [, grafana] = serviceOfImage(compose, "grafana/grafana");

      it("has Prometheus scrape the service's metrics path as the job the dashboard filters on", async () => {
        const config = readYaml(sourceMountedAt(setup.composeFile, prometheus.volumes, prometheusConfig), prometheusSchema);
        expect(config.scrape_configs).toHaveLength(1);
        const [scrape] = config.scrape_configs;
        expect(scrape!.job_name).toBe("payment-ledger");
        expect(scrape!.static_configs.flatMap((each) => each.targets)).toEqual([setup.scrapeTarget(compose)]);
        if (scrape!.static_configs[0]!.targets[0]!.startsWith("host.docker.internal:")) {
          // Docker Desktop knows the name; on Linux only this mapping gives it.
          expect(prometheus.extra_hosts).toContain("host.docker.internal:host-gateway");
        }
        const served = await fetch(`${api.url}${scrape!.metrics_path}`);
        expect(served.status).toBe(200);
        expect(await served.text()).toContain("# TYPE transactions_total counter");
      });

      it("gives Grafana this file's Prometheus as its data source", () => {
        const provisioning = sourceMountedAt(setup.composeFile, grafana.volumes, grafanaProvisioning);
        const { datasources } = readYaml(path.join(provisioning, "datasources/prometheus.yml"), datasourcesSchema);
        expect(datasources).toEqual([expect.objectContaining({ type: "prometheus", isDefault: true })]);
        const url = new URL(datasources[0]!.url);
        // Inside the compose network a service is reached by its name, on its container port.
        expect(url.hostname).toBe(prometheusName);
        expect(url.port).toBe(prometheusPort);
        expect(prometheus.ports.map((mapping) => mapping.split(":").at(-1))).toContain(prometheusPort);
      });

      it("mounts the dashboard where Grafana's dashboard provider looks", () => {
        const provisioning = sourceMountedAt(setup.composeFile, grafana.volumes, grafanaProvisioning);
        const { providers } = readYaml(path.join(provisioning, "dashboards/payment-ledger.yml"), dashboardProvidersSchema);
        expect(providers).toHaveLength(1);
        const dashboard = mounts(setup.composeFile, grafana.volumes).find((each) => each.source === dashboardFile);
        expect(dashboard, "the dashboard is not mounted").toBeDefined();
        expect(path.posix.dirname(dashboard!.target)).toBe(providers[0]!.options.path);
      });
    });
  }
});
