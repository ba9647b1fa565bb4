import { loadSimulatorConfig } from "../../config.ts";
import { startSimulator } from "./server.ts";

const config = loadSimulatorConfig(process.env);
const simulator = await startSimulator(config);
// One JSON line, for a parent process to read where the simulator answers.
process.stdout.write(`${JSON.stringify({ simulator: simulator.url })}\n`);

let closing: Promise<void> | undefined;
function stop() {
  closing ??= simulator.close().then(() => process.exit(0));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, stop);
// Started with an IPC channel (as the benches do), it goes when its parent does, however that ends.
process.once("disconnect", stop);
