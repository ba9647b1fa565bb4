/**
 * Loaded into the service's process by `bench:capacity` (`--import`): answers "elu" on the IPC
 * channel with the event loop's utilization so far, which only the process itself can read, and
 * stops the service when the bench goes.
 */
import { performance } from "node:perf_hooks";

process.on("message", (message) => {
  if (message === "elu") process.send?.({ elu: performance.eventLoopUtilization() });
});
// Listening must not keep the process alive once the service stops.
process.channel?.unref();
// Nor may the service outlive a bench that died.
process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
