import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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
      // A variable without a value (null) is passed on from the environment that runs compose.
      environment: z.record(z.string(), z.string().nullable()).optional(),
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

// compose.yaml is what a merchant deploys: production, secrets from files, TLS on every hop.
const secureFile = path.join(root, "compose.yaml");
const demoFile = path.join(root, "compose.demo.yaml");
const deploymentSchema = z.object({
  services: z.record(
    z.string(),
    z.looseObject({
      image: z.string().optional(),
      command: z.union([z.string(), z.array(z.string())]).optional(),
      entrypoint: z.union([z.string(), z.array(z.string())]).optional(),
      environment: z.record(z.string(), z.string().nullable()).default({}),
      secrets: z.array(z.string()).default([]),
      volumes: z.array(z.string()).default([]),
    }),
  ),
  secrets: z.record(z.string(), z.object({ file: z.string() })).default({}),
});
/** The secrets API.md lists, which the ledger may only be given as files. */
const ledgerSecrets = ["ADMIN_API_KEY", "SECRETS_MASTER_KEYS", "CARD_FINGERPRINT_KEY", "DATABASE_URL", "EVENTSTORE_URL", "METRICS_TOKEN"];

/** Where `docker compose` answers, or why not (the tests then read the files only). */
function composeUnavailable(): string | undefined {
  const version = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
  if (version.error) return `no docker binary (${version.error.message})`;
  if (version.status !== 0) return `docker has no compose plugin (${(version.stderr || version.stdout).trim().split("\n")[0]})`;
  return undefined;
}

describe("compose.yaml, the secure deployment, and compose.demo.yaml", () => {
  const secure = readYaml(secureFile, deploymentSchema);
  const demo = readYaml(demoFile, deploymentSchema);
  const ledger = secure.services.ledger!;
  const eventstore = serviceOfImage(secure as unknown as Compose, "kurrentplatform/kurrentdb")[1] as unknown as (typeof secure.services)[string];
  const text = readFileSync(secureFile, "utf8");

  it("runs the ledger with NODE_ENV=production and HTTPS from the certs service", () => {
    expect(ledger.environment.NODE_ENV).toBe("production");
    expect(ledger.environment.TLS_TERMINATED_BY).toBeUndefined();
    expect(ledger.environment.TLS_CERT_FILE).toBe("/certs/ledger/node.crt");
    expect(ledger.environment.TLS_KEY_FILE).toBe("/certs/ledger/node.key");
    expect(ledger.volumes).toContain("certs:/certs:ro");
    // Prometheus scrapes it over https, trusting that CA.
    expect(readFileSync(path.join(root, "ops/prometheus.yml"), "utf8")).toMatch(/scheme: https\s+tls_config:\s+ca_file: \/certs\/ca\/ca\.crt/);
  });

  it("gives every secret as a file under /run/secrets from ./secrets/, and no password or default anywhere", () => {
    for (const name of ledgerSecrets) expect(ledger.environment[name], name).toBeUndefined();
    const fileVariables = Object.entries(ledger.environment).filter(([name]) => name.endsWith("_FILE") && !name.startsWith("TLS_"));
    expect(fileVariables.map(([name]) => name).sort()).toEqual(
      ["ADMIN_API_KEY_FILE", "SECRETS_MASTER_KEYS_FILE", "CARD_FINGERPRINT_KEY_FILE", "DATABASE_URL_FILE", "EVENTSTORE_URL_FILE"].sort(),
    );
    for (const [service, { environment, secrets }] of Object.entries(secure.services)) {
      for (const [name, value] of Object.entries(environment)) {
        // A password, key or token is never a value of the file: only a path to a secret (or, for
        // a TLS private key, to the certs service's volume).
        if (value?.startsWith("/certs/")) continue;
        if (/PASSWORD|SECRET|KEY|TOKEN|_URL$/.test(name) && !/^PROCESSOR_._URL$/.test(name)) {
          expect(name, `${service}.${name}`).toMatch(/_FILE$/);
          const secret = /^\/run\/secrets\/([a-z_]+)$/.exec(value ?? "")?.[1];
          expect(secret, `${service}.${name}=${value}`).toBeDefined();
          expect(secrets, service).toContain(secret);
        }
      }
      for (const secret of secrets) expect(secure.secrets[secret]?.file, secret).toBe(`./secrets/${secret}`);
    }
    expect(secure.services.postgres!.environment.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres_password");
    // No literal credentials in a URL, no `${VAR:-default}` but the host ports', and no insecure
    // switch anywhere in the file.
    expect(text).not.toMatch(/:\/\/[^/\s:@]+:[^/\s@]+@/);
    expect(text).not.toMatch(/\$\{(?![A-Z]+_PORT:-\d+\})[A-Z_]+:?-/);
    expect(text).not.toMatch(/INSECURE|--insecure|tls=false|sslmode=disable/i);
    expect(readFileSync(path.join(root, ".gitignore"), "utf8").split("\n")).toContain("/secrets/");
  });

  it("runs KurrentDB 26.1 secure, with the certificates of a one-shot service and its admin password from a file", () => {
    expect(secure.services.eventstore!.image).toBe("kurrentplatform/kurrentdb:26.1");
    expect(eventstore.environment).toMatchObject({
      KURRENTDB_CERTIFICATE_FILE: "/certs/eventstore/node.crt",
      KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE: "/certs/eventstore/node.key",
      KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH: "/certs/ca",
    });
    expect(eventstore.volumes).toContain("certs:/certs:ro");
    expect(eventstore.secrets).toEqual(["eventstore_admin_password"]);
    expect([eventstore.entrypoint].flat().join(" ")).toContain("KURRENTDB_DEFAULT_ADMIN_PASSWORD=\"$$(cat /run/secrets/eventstore_admin_password)\"");
    expect(eventstore.depends_on).toEqual({ certs: { condition: "service_completed_successfully" } });
    // The one-shot service makes the CA and a certificate for each server, the CA's key in a volume of its own.
    const certs = secure.services.certs!;
    expect(certs.image).toMatch(/^eventstore\/es-gencert-cli:/);
    expect(certs.volumes).toEqual(expect.arrayContaining(["ca-key:/ca-key", "certs:/certs"]));
    for (const service of Object.keys(secure.services).filter((name) => name !== "certs")) {
      expect(secure.services[service]!.volumes.some((volume) => volume.startsWith("ca-key:")), service).toBe(false);
    }
    const script = readFileSync(sourceMountedAt(secureFile, certs.volumes, "/make-certs.sh"), "utf8");
    for (const node of ["eventstore", "postgres", "ledger"]) expect(script).toMatch(new RegExp(`^node ${node} \\d+:\\d+$`, "m"));
    expect(secure.services.postgres!.command).toEqual(expect.arrayContaining(["ssl=on", "ssl_cert_file=/certs/postgres/node.crt"]));
  });

  it("has no simulator in compose.yaml, which passes the processors' URLs on; compose.demo.yaml runs it", () => {
    expect(text).not.toContain("SIMULATOR");
    for (const letter of "ABCD") expect(ledger.environment).toHaveProperty(`PROCESSOR_${letter}_URL`, null);
    expect(Object.keys(demo.services)).toEqual(["ledger"]);
    expect(demo.services.ledger!.environment).toEqual({
      SIMULATOR: "true",
      PROCESSOR_A_URL: "",
      PROCESSOR_B_URL: "",
      PROCESSOR_C_URL: "",
      PROCESSOR_D_URL: "",
    });
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    for (const command of ["scripts/make-secrets.sh", "docker compose -f compose.yaml -f compose.demo.yaml up"]) {
      expect(readme.includes(command), `README.md names ${command}`).toBe(true);
    }
  });

  it("scripts/make-secrets.sh makes each secret once, mode 600, in the form the service accepts", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "compose-secrets-"));
    try {
      const secretsDir = path.join(dir, "secrets");
      execFileSync("sh", [path.join(root, "scripts/make-secrets.sh"), secretsDir], { stdio: "pipe" });
      const made = Object.fromEntries(readdirSync(secretsDir).map((name) => [name, readFileSync(path.join(secretsDir, name), "utf8")]));
      expect(Object.keys(made).sort()).toEqual(Object.keys(secure.secrets).sort());
      for (const name of Object.keys(made)) expect(statSync(path.join(secretsDir, name)).mode & 0o777, name).toBe(0o600);
      expect(made.admin_api_key!.length).toBeGreaterThanOrEqual(32);
      expect(made.secrets_master_keys).toMatch(/^k1:[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(made.card_fingerprint_key!, "base64")).toHaveLength(32);
      expect(made.database_url).toBe(
        `postgres://ledger:${made.postgres_password}@postgres:5432/ledger?sslmode=verify-full&sslrootcert=/certs/ca/ca.crt`,
      );
      expect(made.eventstore_url).toBe(`kurrentdb://admin:${made.eventstore_admin_password}@eventstore:2113?tls=true&tlsCAFile=/certs/ca/ca.crt`);
      // The service takes them as they are, in production.
      expect(() =>
        loadConfig({
          NODE_ENV: "production",
          SIMULATOR: "true",
          ADMIN_API_KEY: made.admin_api_key,
          SECRETS_MASTER_KEYS: made.secrets_master_keys,
          CARD_FINGERPRINT_KEY: made.card_fingerprint_key,
        }),
      ).not.toThrow();
      // Again: nothing replaced.
      rmSync(path.join(secretsDir, "database_url"));
      execFileSync("sh", [path.join(root, "scripts/make-secrets.sh"), secretsDir], { stdio: "pipe" });
      for (const [name, value] of Object.entries(made)) expect(readFileSync(path.join(secretsDir, name), "utf8"), name).toBe(value);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const unavailable = composeUnavailable();
  if (unavailable) console.warn(`docker compose config skipped: ${unavailable}`);
  it.skipIf(unavailable !== undefined)(
    `docker compose config accepts compose.yaml and compose.yaml + compose.demo.yaml${unavailable ? ` (skipped: ${unavailable})` : ""}`,
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "compose-config-"));
      try {
        for (const file of ["compose.yaml", "compose.demo.yaml", "Dockerfile", "ops"]) cpSync(path.join(root, file), path.join(dir, file), { recursive: true });
        execFileSync("sh", [path.join(root, "scripts/make-secrets.sh"), path.join(dir, "secrets")], { stdio: "pipe" });
        const processors = Object.fromEntries([..."ABCD"].map((letter) => [`PROCESSOR_${letter}_URL`, `https://processor-${letter.toLowerCase()}.example`]));
        const config = (files: string[], env: Record<string, string>) =>
          execFileSync("docker", ["compose", ...files.flatMap((file) => ["-f", file]), "config", "--quiet"], {
            cwd: dir,
            env: { ...process.env, ...env },
            encoding: "utf8",
          });
        config(["compose.yaml"], processors);
        config(["compose.yaml", "compose.demo.yaml"], {});
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
