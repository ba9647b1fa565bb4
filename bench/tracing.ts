/**
 * Issue 36: what tracing costs a sale. Sales per second with tracing off and on, alternating
 * A B B A (off, on, on, off; each a warm-up and the measured run), each run on a service of its
 * own over the same `ledger_bench_<random>` database, the processor simulator in a process of its
 * own. On: `OTEL_TRACES_SAMPLER=parentbased_traceidratio` at `--ratio` (10 % by default),
 * exporting OTLP/HTTP JSON to a receiver in this process that reads each export and answers 200.
 *
 * Usage: tsx bench/tracing.ts [--database-url URL] [--seconds 10] [--connections 64] [--ratio 0.1]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPayingClient, type Measured, measure, POOL_SIZE, rowsOf, saleBodies, startBenchService } from "./http-load.ts";
import { formatNumber, intOption, openTarget, printResults, serverArgs } from "./support.ts";

const { values, serverUrl } = serverArgs(["seconds", "connections", "ratio"]);
const shape = { seconds: intOption(values.seconds, 10, "seconds"), connections: intOption(values.connections, 64, "connections") };
const ratio = Number(values.ratio ?? "0.1");
if (!(ratio >= 0 && ratio <= 1)) throw new Error(`--ratio must be within [0, 1], not ${String(values.ratio)}`);

/** An OTLP/HTTP receiver that reads every export and keeps only the count of bytes. */
async function startSink() {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  const sink = await startSink();
  const tracingOn = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
  };
  const runs = { off: [] as Measured[], on: [] as Measured[] };
  try {
    for (const mode of ["off", "on", "on", "off"] as const) {
      const service = await startBenchService(target, mode === "on" ? tracingOn : {});
      try {
        const { key } = await createPayingClient(service.url, `Bench ${mode}`);
        const load = { url: `${service.url}/v1/transactions/sale`, headers: { authorization: `Bearer ${key}` }, bodies: saleBodies() };
        runs[mode].push(await measure(`sales, tracing ${mode}`, load, shape));
      } finally {
        await service.stop();
      }
    }
  } finally {
    await sink.close();
    await target.close();
  }
  const rate = (measured: Measured[]) => measured.reduce((sum, run) => sum + run.perSecond, 0) / measured.length;
  const cost = 1 - rate(runs.on) / rate(runs.off);
  printResults([
    ...runs.off.flatMap((run, index) => rowsOf(`sales, tracing off (run ${index + 1})`, "sales", run)),
    ...runs.on.flatMap((run, index) => rowsOf(`sales, tracing on at ${ratio * 100} % (run ${index + 1})`, "sales", run)),
    {
      target: `tracing on at ${ratio * 100} % vs off (A B B A)`,
      metric: "throughput cost, 1 - on / off",
      value: `${formatNumber(cost * 100, 1)} % (${formatNumber(rate(runs.on))} vs ${formatNumber(rate(runs.off))} sales/s; ${formatNumber(sink.bytes() / 1e6, 1)} MB exported)`,
      goal: "written down",
      met: "-",
    },
  ]);
}

await main();
